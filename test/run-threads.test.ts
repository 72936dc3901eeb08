// `run`'s sessions on run threads (src/cli/run-threads/): many trails over several threads each
// start from a pristine server and report exactly as on the main thread; a value made secret on
// one thread is masked in what the others print; the CLI exits once its trails are done and on
// SIGINT; a thread that dies ends its trails as errors, its servers killed, and the run goes on.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadWorkspace } from "../src/config/workspace.ts";
import { Secrets } from "../src/core/secrets.ts";
import { runThreadsFor, ThreadLane } from "../src/cli/run-threads/run-threads.ts";
import type { Reporter } from "../src/run/reporter.ts";
import { ScreenTable } from "../src/run/screen-table.ts";
import { readTrailFiles } from "../src/trail/trail-file.ts";
import { eventually } from "./support/eventually.ts";
import { processAlive } from "./support/process-alive.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const WORKSPACE = join(REPO, "fixtures/ondevice-scale");
const PROBE = join(REPO, "fixtures/run");
type Json = Record<string, any>;

function counterTrails(count: number): string {
  const dir = tempDir("counter-trails");
  for (let i = 1; i <= count; i++) {
    writeFileSync(
      join(dir, `c${String(i).padStart(2, "0")}.trail.yaml`),
      `config: { id: c${i}, target: counter }\ntrail:\n  - step: Bump\n    recording:\n      tools:\n        - counter_bump: { trail: "c${i}" }\n` +
        `        - assertEquals: { actual: "{{seen}}", expected: "1/1" }\n`,
    );
  }
  return dir;
}

const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");

/** The report of a run without what differs from run to run: times, session ids, log folders, server pids. */
function stable(doc: Json): Json {
  return JSON.parse(
    JSON.stringify(doc, (key, value) =>
      ["startedAt", "durationMs", "id", "logsDir", "pid"].includes(key) && typeof value !== "object" ? "…" : value,
    ),
  );
}

describe("isolation across trails and threads", () => {
  test.each([
    ["on two run threads", "2"],
    ["on the main thread", "0"],
  ])(
    "24 trails on-device over 4 workers %s: every session's server starts pristine (module and global state at 0)",
    async (_where, threads) => {
      const run = await cli(
        ["run", counterTrails(24), "--agent", "on-device", "--workers", "4", "--reporter", "json", "--logs", tempDir("counter-logs")],
        { cwd: WORKSPACE, env: { TRAILBLAZE_RUN_THREADS: threads } },
      );
      expect(run.stderr).toBe("");
      const doc = JSON.parse(run.stdout);
      expect(doc.summary).toMatchObject({ passed: 24, failed: 0, errors: 0 });
      expect(doc.trails.map((t: Json) => t.steps[0].tools[0].result.message)).toEqual(
        Array.from({ length: 24 }, (_, i) => `c${i + 1}: 1/1`),
      );
      expect(run.code).toBe(0);
    },
    60_000,
  );

  test("the same trails report the same on run threads as on the main thread, host and on-device, passes and failures alike", async () => {
    for (const agent of ["host", "on-device"]) {
      const docs = [];
      for (const threads of ["0", "2"]) {
        const run = await cli(["run", "trails", "--agent", agent, "--workers", "3", "--reporter", "json", "--logs", tempDir("same-logs")], {
          cwd: PROBE,
          env: { TRAILBLAZE_RUN_THREADS: threads },
        });
        docs.push({ code: run.code, stderr: run.stderr, doc: stable(JSON.parse(run.stdout)) });
      }
      expect(docs[0]!.doc.summary.failed + docs[0]!.doc.summary.errors).toBeGreaterThan(0);
      expect(docs[1]).toEqual(docs[0]!);
    }
  }, 120_000);
});

/** A lane of `threads` run threads on the probe workspace, as `run` makes one, and what its reporters were told. */
async function probeLane(threads: number, options: { entry?: string; env?: Record<string, string>; secret?: string } = {}) {
  const logs = tempDir("lane-logs");
  const workspace = await loadWorkspace(join(PROBE, "trailblaze-config"), { cwd: PROBE });
  const events: string[] = [];
  const steps: Json[] = [];
  const secrets = new Secrets(options.secret ? { [options.secret]: "" } : {});
  const lane = new ThreadLane({
    threads,
    setup: Promise.resolve({
      cwd: PROBE,
      env: { ...process.env, PATH: TEST_PATH, ...options.env },
      isTTY: false,
      configDir: workspace.configDir,
      flags: { logs },
      args: {},
      agent: { noAgent: "no model in these tests" },
      recordPages: false,
    }),
    observer: {
      onTrailBegin: (t) => void events.push(`begin ${t.id}`),
      onStepEnd: (_t, step) => void steps.push(step),
      onTrailEnd: (t, report) => void events.push(`end ${t.id} ${report.status}`),
    } satisfies Reporter,
    secrets,
    io: { stdout: () => {}, stderr: () => {} },
    screens: new ScreenTable(),
    ...(options.entry ? { entry: options.entry } : {}),
  });
  const dir = tempDir("lane-trails");
  let index = 0;
  /** Runs a trail of one step with `tools` (YAML lines under `tools:`) on the lane. */
  const run = async (id: string, tools: string[]) => {
    const file = join(dir, `${id}.trail.yaml`);
    const lines = tools.map((tool) => `        - ${tool}\n`).join("");
    writeFileSync(file, `config: { id: ${id}, target: probe }\ntrail:\n  - step: Go\n    recording:\n      tools:\n${lines}`);
    const { trails } = await readTrailFiles([file], PROBE);
    return lane.run({ file, trail: trails[0]!, index: index++ });
  };
  return { lane, run, events, steps, secrets, logs };
}

describe("trail files", () => {
  test("parsed on the run threads: the problems of every file in file order, as on the main thread (exit 2, nothing run)", async () => {
    const dir = counterTrails(6);
    writeFileSync(join(dir, "c02.trail.yaml"), "config: { id: c2, target: counter }\ntrail:\n  - step: Bump\n    recording: [\n");
    writeFileSync(join(dir, "c05.trail.yaml"), "config: { id: c5, target: counter }\ntrail: {}\n");
    const runs = [];
    for (const threads of ["0", "3"]) {
      runs.push(
        await cli(["run", dir, "--agent", "on-device", "--workers", "3", "--no-logging"], {
          cwd: WORKSPACE,
          env: { TRAILBLAZE_RUN_THREADS: threads },
        }),
      );
    }
    expect(runs[0]!.code).toBe(2);
    expect(runs[0]!.stderr).toContain("c02.trail.yaml:");
    expect(runs[0]!.stderr.indexOf("c02.trail.yaml")).toBeLessThan(runs[0]!.stderr.indexOf("c05.trail.yaml"));
    expect(runs[1]).toEqual(runs[0]!);
  }, 60_000);
});

describe("secrets across threads", () => {
  test("a value made secret on one thread is masked in a trail another thread runs, and kept by the run", async () => {
    const token = "tok-3f9a1c";
    const { lane, run, steps, secrets } = await probeLane(2, { secret: "apiToken" });
    try {
      // A trail holds the first thread, the secret is written on the second, a trail holds that
      // one too: the echo then goes to the first, which never saw the value written.
      const holds = [run("hold-1", ["probe_sleep: { ms: 60000 }"])];
      const remembered = await run("remember", [`probe_remember: { key: apiToken, value: "${token}" }`]);
      expect(remembered.status).toBe("passed");
      holds.push(run("hold-2", ["probe_sleep: { ms: 60000 }"]));
      expect(secrets.entries().map(([key, value]) => `${key}=${value}`)).toEqual([`apiToken=${token}`]);
      const echoed = await run("echo", [`probe_echo: { text: "${token} again" }`, `probe_fail: { text: "${token}" }`]);
      expect(echoed.status).toBe("failed");
      expect(JSON.stringify([remembered, echoed, steps])).not.toContain(token);
      expect(echoed.steps[0]!.tools[0]!.args).toEqual({ text: "*** again" });
      await lane.close();
      // Closed with the run: the trails still under way end, their call cut by the session's close.
      expect((await Promise.all(holds)).map((report) => report.status)).toEqual(["failed", "failed"]);
    } finally {
      await lane.close();
    }
  }, 60_000);
});

describe("how many run threads a run gets", () => {
  test("one per trail at once, up to the cores, and none unless that makes two", () => {
    expect(runThreadsFor(4, 60, 2, {})).toBe(2);
    expect(runThreadsFor(4, 60, 16, {})).toBe(4);
    expect(runThreadsFor(16, 60, 8, {})).toBe(8);
    expect(runThreadsFor(4, 3, 16, {})).toBe(3);
    expect(runThreadsFor(4, 1, 16, {})).toBe(0);
    expect(runThreadsFor(1, 60, 16, {})).toBe(0);
    expect(runThreadsFor(4, 60, 1, {})).toBe(0);
  });

  test("TRAILBLAZE_RUN_THREADS sets the number (never more than the trails); anything but a whole number from 0 to 64 is a usage error (exit 2) naming it", async () => {
    expect(runThreadsFor(4, 60, 2, { TRAILBLAZE_RUN_THREADS: "3" })).toBe(3);
    expect(runThreadsFor(4, 2, 2, { TRAILBLAZE_RUN_THREADS: "3" })).toBe(2);
    expect(runThreadsFor(4, 60, 16, { TRAILBLAZE_RUN_THREADS: "0" })).toBe(0);
    expect(runThreadsFor(4, 60, 16, { TRAILBLAZE_RUN_THREADS: "" })).toBe(4);
    const run = await cli(["run", counterTrails(2), "--agent", "on-device", "--workers", "2"], {
      cwd: WORKSPACE,
      env: { TRAILBLAZE_RUN_THREADS: "many" },
    });
    expect(run.stderr).toContain(
      'TRAILBLAZE_RUN_THREADS expects a whole number of threads from 0 to 64 (0: sessions on the main thread), got "many"',
    );
    expect(run.code).toBe(2);
  });
});

describe("a thread that dies", () => {
  test("ends the trail it ran as an error naming why, its server is killed, and later trails run on a fresh thread", async () => {
    const pids = tempDir("crash-pids");
    const { lane, run, events } = await probeLane(1, {
      entry: join(REPO, "fixtures/run-threads/crashing-thread.ts"),
      env: { PROBE_PID_DIR: pids },
    });
    try {
      const crashed = await run("crash", ['probe_echo: { text: "before" }', "probe_sleep: { ms: 60000 }"]);
      expect(crashed).toMatchObject({
        id: "crash",
        status: "error",
        error: "the run thread that ran it failed: the thread crashed on purpose",
      });
      const serverPids = readdirSync(pids).map((name) => Number(name.replace(".pid", "")));
      expect(serverPids).toHaveLength(1);
      // Killed when the thread died, not left to the end of the process.
      expect(await eventually(() => !serverPids.some(processAlive))).toBe(true);
      expect((await run("after", ['probe_echo: { text: "after" }'])).status).toBe("passed");
      expect(events).toEqual(["begin crash", "begin after", "end after passed"]);
    } finally {
      await lane.close();
    }
    expect(lane.runningPids()).toEqual([]);
  }, 60_000);
});

describe("the CLI's process", () => {
  test("SIGINT during an on-device run on run threads: exits 130 promptly with the partial report, no thread keeps it alive", async () => {
    const dir = tempDir("sleep-trails");
    for (let i = 1; i <= 4; i++) {
      writeFileSync(
        join(dir, `s${i}.trail.yaml`),
        `config: { id: s${i}, target: counter }\ntrail:\n  - step: Bump\n    recording:\n      tools:\n        - counter_bump: { trail: "s${i}" }\n        - counter_sleep: { ms: 60000 }\n`,
      );
    }
    const logs = tempDir("sleep-logs");
    const child = Bun.spawn(
      [process.execPath, join(REPO, "src/cli/main.ts"), "run", dir, "--agent", "on-device", "--workers", "2", "--logs", logs],
      {
        cwd: WORKSPACE,
        // On threads whatever the cores: a thread must not keep the process alive.
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", TRAILBLAZE_RUN_THREADS: "2" } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // Both workers are in counter_sleep once each session's call log holds its counter_bump.
    const bumped = () =>
      readdirSync(logs).filter((session) => readIfThere(join(logs, session, "calls.jsonl")).includes('"tool":"counter_bump"')).length;
    for (const deadline = Date.now() + 25_000; bumped() < 2 && Date.now() < deadline; ) await Bun.sleep(50);
    expect(bumped()).toBe(2);
    child.kill("SIGINT");
    // Each worker is 60 s into a sleep: a process a thread kept alive would not exit before the
    // guard (far longer than an exit takes, far shorter than the sleep), and is then killed.
    const exited = await Promise.race([child.exited, Bun.sleep(40_000).then(() => "still running after SIGINT")]);
    if (exited === "still running after SIGINT") child.kill("SIGKILL");
    expect(exited).toBe(130);
    const stdout = await new Response(child.stdout).text();
    expect(stdout).toContain("Interrupted (interrupted by SIGINT); the report is partial.");
    // The two trails under way are in the partial report, cut short in their step.
    expect({ stdout, lines: stdout.match(/interrupted by SIGINT/g)!.length }).toMatchObject({ lines: 3 });
  }, 90_000);

  test("the installed command gives every QuickJS memory of a run the fast kind: 12 sessions at once, where JavaScriptCore's default is 8", async () => {
    // JavaScriptCore aborts instead of falling back to a bounds-checked memory with this option.
    const child = Bun.spawn(
      [
        join(REPO, "src/cli/launcher.sh"),
        "run",
        counterTrails(24),
        "--agent",
        "on-device",
        "--workers",
        "12",
        "--reporter",
        "json",
        "--logs",
        tempDir("fast-logs"),
      ],
      {
        cwd: WORKSPACE,
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", BUN_JSC_crashIfWasmCantFastMemory: "1" } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect(stderr).toBe("");
    expect(JSON.parse(stdout).summary).toMatchObject({ passed: 24, failed: 0, errors: 0 });
    expect(code).toBe(0);
  }, 60_000);
});
