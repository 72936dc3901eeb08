// `bun trailblaze run` against the probe workspace (fixtures/run): memory and
// memoryDelta, interpolation, secrets masked in every output, args, validation
// before any step, the call log, and no server left running.

import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "./support/process-alive.ts";
import { cli, REPO, tempDir, type CliRun } from "./support/cli.ts";

const RUN = join(REPO, "fixtures/run");
const SECRET = "s3cr3t-XYZ-42";

type Json = Record<string, any>;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** PIDs the probe servers wrote (PROBE_PID_DIR). */
function probePids(dir: string): number[] {
  return readdirSync(dir).map((name) => Number(name.replace(".pid", "")));
}

async function expectAllGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (pids.some(processAlive) && Date.now() < deadline) await Bun.sleep(50);
  expect(pids.filter(processAlive)).toEqual([]);
}

describe("a folder of trails, one session each", () => {
  const logs = tempDir("run-logs");
  const pids = tempDir("run-pids");
  let run: CliRun;
  let doc: Json;
  const trail = (id: string): Json => doc.trails.find((t: Json) => t.id === id);

  beforeAll(async () => {
    run = await cli(["run", "trails", "--reporter", "json", "--secret", `apiToken=${SECRET}`, "--logs", logs, "--workers", "3"], {
      cwd: RUN,
      env: { PROBE_PID_DIR: pids },
    });
    doc = JSON.parse(run.stdout);
  });

  test("statuses, summary and exit code", () => {
    expect(run.code).toBe(1);
    expect(doc.trails.map((t: Json) => [t.file, t.status])).toEqual([
      ["trails/fail-after-memory.trail.yaml", "failed"],
      ["trails/memory.trail.yaml", "passed"],
      ["trails/needs-agent.trail.yaml", "failed"],
      ["trails/required-arg.trail.yaml", "error"],
      ["trails/skipped.trail.yaml", "skipped"],
      ["trails/unknown-key.trail.yaml", "failed"],
      ["trails/unknown-tool.trail.yaml", "error"],
    ]);
    expect(doc.summary).toMatchObject({ passed: 1, failed: 3, errors: 2, skipped: 1 });
  });

  test("memoryDelta reaches memory; nested objects and arrays are interpolated", () => {
    const t = trail("memory-roundtrip");
    expect(t.memory).toEqual({ greeting: "hello", nested: { deep: [1, 2] }, color: "hello-blue" });
    expect(t.steps[1].tools[0].args).toEqual({
      actual: { list: ["hello-blue", "hello", 3], whole: { deep: [1, 2] }, text: 'n={"deep":[1,2]}' },
      expected: { list: ["hello-blue", "hello", 3], whole: { deep: [1, 2] }, text: 'n={"deep":[1,2]}' },
    });
  });

  test("a failed call's memoryDelta is not applied; the failure names tool, masked args, message and stderr tail", () => {
    const t = trail("fail-after-memory");
    expect(t.memory).toEqual({ kept: "yes" });
    expect(t.steps.map((s: Json) => s.status)).toEqual(["passed", "failed", "skipped"]);
    expect(t.steps[1].failure).toEqual({
      tool: "probe_fail",
      args: { text: "token=***" },
      variant: "ExceptionThrown",
      message: "probe failed: token=***",
      line: 14,
      col: 11,
      stderr: { source: "tools/probe.ts", lines: ["probe_fail is about to fail with token=***", "second stderr line"] },
    });
    expect(t.error).toBe("step 2 failed: probe_fail: probe failed: token=***");
  });

  test("an unknown placeholder key fails its step, naming the key and the known ones", () => {
    const t = trail("unknown-key");
    expect(t.steps[0].failure).toEqual({
      tool: "probe_echo",
      args: { text: "hi {{emial}}" },
      message: 'unknown key "emial" in {{emial}}; known keys, closest first: email, apiToken',
      line: 10,
      col: 11,
    });
    expect(t.steps[0].tools).toEqual([]);
  });

  test("a step without a recording for the session needs an agent", () => {
    const t = trail("needs-agent");
    expect(t.steps.map((s: Json) => s.status)).toEqual(["passed", "failed", "skipped"]);
    expect(t.steps[1].failure).toEqual({
      message:
        "this step needs an agent: it has no recording (this session replays android, all, tools), and no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in trailblaze-config/trailblaze.yaml (docs/agent.md); or record tool calls for it under recording: tools:",
    });
  });

  test("a missing required arg fails the trail before a session starts", () => {
    const t = trail("required-arg");
    expect(t.problems).toEqual([
      {
        message: 'missing required arg "user" (declared in config.args: Who to greet); pass --arg user=VALUE',
        file: "trails/required-arg.trail.yaml",
        line: 0,
        col: 0,
      },
    ]);
    expect(t.steps).toEqual([]);
    expect(existsSync(join(logs, t.session.id))).toBe(false);
  });

  test("a per-platform skip reason skips the trail", () => {
    expect(trail("skipped")).toMatchObject({ status: "skipped", skipReason: "needs the web build, see #7", steps: [] });
  });

  test("an unregistered tool fails validation before any step, with the closest names", () => {
    const t = trail("unknown-tool");
    expect(t.steps).toEqual([]);
    expect(t.error).toBe("probe_ecko is not registered in this session; closest registered: probe_echo");
    expect(t.problems).toEqual([
      {
        kind: "tool",
        message: "probe_ecko is not registered in this session; closest registered: probe_echo",
        file: "trails/unknown-tool.trail.yaml",
        line: 12,
        col: 11,
        step: 2,
        stepTitle: "A misspelt tool",
        tool: "probe_ecko",
      },
    ]);
  });

  test("the secret is used in calls but never reaches _trailblazeContext", () => {
    const steps = trail("memory-roundtrip").steps;
    expect(steps[2].tools[0]).toMatchObject({ name: "probe_echo", args: { text: "token=***" }, result: { message: "echo token=***" } });
    const context = steps[2].tools[1].result.structuredContent;
    expect(context.memoryKeys).toEqual(["greeting", "nested", "color"]);
    expect(JSON.stringify(context)).not.toContain(SECRET);
  });

  test("the secret appears in no output and no log file", () => {
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stderr).not.toContain(SECRET);
    const files = filesUnder(logs);
    // Sessions that made calls: fail-after-memory, memory-roundtrip, needs-agent.
    expect(files.filter((f) => f.endsWith("calls.jsonl")).length).toBe(3);
    // Stderr logs exist for the servers that wrote to stderr only (the probe prints what it echoes).
    expect(files.filter((f) => f.endsWith(".log")).length).toBeGreaterThanOrEqual(1);
    for (const file of files) expect({ file, leaked: readFileSync(file, "utf8").includes(SECRET) }).toEqual({ file, leaked: false });
    // The server did print and log the secret: its stderr log and MCP log messages were masked as written.
    const stderrLogs = files.filter((f) => f.endsWith(".log")).map((f) => readFileSync(f, "utf8"));
    expect(stderrLogs.some((text) => text.includes("probe_echo got token=***"))).toBe(true);
    const serverLogs = files.filter((f) => /server_log_.*\.jsonl$/.test(f)).map((f) => readFileSync(f, "utf8"));
    expect(serverLogs.some((text) => text.includes("probe_echo logged token=***"))).toBe(true);
  });

  test("the call log holds one masked JSON line per call", () => {
    const t = trail("memory-roundtrip");
    const lines = readFileSync(join(logs, t.session.id, "calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.step, l.tool, l.variant])).toEqual([
      [1, "probe_remember", "Success"],
      [2, "assertEquals", "Success"],
      [3, "probe_echo", "Success"],
      [3, "probe_context", "Success"],
    ]);
    expect(Object.keys(lines[2]).sort()).toEqual([
      "args",
      "at",
      "durationMs",
      "invocationId",
      "message",
      "status",
      "step",
      "structuredContent",
      "tool",
      "trail",
      "variant",
    ]);
    expect(lines[2]).toMatchObject({
      trail: "memory-roundtrip",
      args: { text: "token=***" },
      status: "success",
      message: "echo token=***",
    });
    expect(Number.isNaN(Date.parse(lines[2].at))).toBe(false);
    // Each call's own id, as its envelope carried it (a UUID, one per call).
    expect(new Set(lines.map((l) => l.invocationId)).size).toBe(lines.length);
    expect(lines[2].invocationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  test("no server outlives the run", async () => {
    const started = probePids(pids);
    expect(started.length).toBe(5); // every trail that got a session; skipped and missing-arg ones got none
    await expectAllGone(started);
  });
});

describe("args", () => {
  test("--arg fills config.args, converted to the declared type", async () => {
    const logs = tempDir("run-logs");
    const run = await cli(
      ["run", "trails/required-arg.trail.yaml", "--arg", "user=ada", "--arg", "times=3", "--reporter", "json", "--logs", logs],
      { cwd: RUN },
    );
    expect(run.code).toBe(0);
    const t = JSON.parse(run.stdout).trails[0];
    expect(t.steps[0].tools[0]).toMatchObject({ name: "probe_echo", args: { text: "hello ada x3" } });
  });

  test("a value of the wrong type fails the trail before it starts: exit 2", async () => {
    const run = await cli(["run", "trails/required-arg.trail.yaml", "--arg", "user=ada", "--arg", "times=often"], { cwd: RUN });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(["trails/required-arg.trail.yaml (required-arg)", "  error: not started after"].join("\n"));
    expect(run.stdout).toContain('      trails/required-arg.trail.yaml: --arg times=often: config.args.times is an integer, got "often"\n');
  });

  test("an arg the trail does not declare stops it before it starts, naming what it declares: exit 2 (as upstream binds args)", async () => {
    const run = await cli(["run", "trails/required-arg.trail.yaml", "--arg", "user=ada", "--arg", "colour=red"], { cwd: RUN });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(["trails/required-arg.trail.yaml (required-arg)", "  error: not started after"].join("\n"));
    expect(run.stdout).toContain(
      '      trails/required-arg.trail.yaml: arg "colour" not declared in this trail\'s config.args (it declares times, user); declare it there, or leave it out of --arg and --args-file\n',
    );
  });

  test("a skipped trail is not checked against the args, as upstream skips it before binding them", async () => {
    const run = await cli(["run", "trails/skipped.trail.yaml", "--arg", "colour=red"], { cwd: RUN });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  });
});

describe("session ids", () => {
  test("--session-id names the one session of a single trail, and is suffixed -<n> when there are several", async () => {
    const one = await cli(["run", "trails/required-arg.trail.yaml", "--session-id", "ci-42", "--reporter", "json"], { cwd: RUN });
    expect(JSON.parse(one.stdout).trails.map((t: Json) => t.session.id)).toEqual(["ci-42"]);
    const two = await cli(
      ["run", "trails/required-arg.trail.yaml", "trails/skipped.trail.yaml", "--session-id", "ci-42", "--reporter", "json"],
      { cwd: RUN },
    );
    expect(JSON.parse(two.stdout).trails.map((t: Json) => t.session.id)).toEqual(["ci-42-1", "ci-42-2"]);
  });
});

describe("validation failure", () => {
  test("exits 2 when nothing ran, and the session it started is gone", async () => {
    const pids = tempDir("run-pids");
    const run = await cli(["run", "trails/unknown-tool.trail.yaml", "--logs", tempDir("run-logs")], {
      cwd: RUN,
      env: { PROBE_PID_DIR: pids },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      '      trails/unknown-tool.trail.yaml:12:11 step 2 "A misspelt tool": probe_ecko is not registered in this session; closest registered: probe_echo\n',
    );
    const started = probePids(pids);
    expect(started.length).toBe(1);
    await expectAllGone(started);
  });
});

describe("logs folders do not grow forever", () => {
  test("a run keeps the newest TRAILBLAZE_KEEP_LOGS sessions of its logs folder, its own included; a bad value is a usage error", async () => {
    const logs = tempDir("kept-logs");
    for (const name of ["20261101-080000-aaaaaa", "20261102-080000-bbbbbb", "20261103-080000-cccccc", "by-hand"])
      mkdirSync(join(logs, name));
    const run = await cli(["run", "trails/memory.trail.yaml", "--secret", "apiToken=t", "--logs", logs], {
      cwd: RUN,
      env: { TRAILBLAZE_KEEP_LOGS: "2" },
    });
    expect(run.code).toBe(0);
    const kept = readdirSync(logs).sort();
    expect(kept).toHaveLength(3);
    expect(kept).toContain("20261103-080000-cccccc");
    expect(kept).toContain("by-hand");
    const bad = await cli(["run", "trails/memory.trail.yaml", "--logs", logs], { cwd: RUN, env: { TRAILBLAZE_KEEP_LOGS: "lots" } });
    expect(bad.code).toBe(2);
    expect(bad.stdout + bad.stderr).toContain('TRAILBLAZE_KEEP_LOGS expects a whole number of sessions (0 keeps all), got "lots"');
  });
});
