// Scale-out and interrupts: --workers runs trails in parallel sessions and
// leaves no child, --shard slices are disjoint and complete, and SIGINT during a
// real `bun trailblaze run` writes the partial report, reaps every server and
// exits 130.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "./support/process-alive.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const RUN = join(REPO, "fixtures/run");
type Json = Record<string, any>;

const probePids = (dir: string) => readdirSync(dir).map((name) => Number(name.replace(".pid", "")));

async function expectAllGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (pids.some(processAlive) && Date.now() < deadline) await Bun.sleep(50);
  expect(pids.filter(processAlive)).toEqual([]);
}

/** `count` small passing trails for the probe target, in a fresh folder. */
function makeTrails(count: number): { dir: string; files: string[] } {
  const dir = tempDir("many-trails");
  const files = Array.from({ length: count }, (_, i) => {
    const file = join(dir, `t${String(i + 1).padStart(2, "0")}.trail.yaml`);
    writeFileSync(
      file,
      `config: { id: t${i + 1}, target: probe }\ntrail:\n  - step: Echo and pause\n    recording:\n      tools:\n` +
        `        - probe_echo: { text: "trail ${i + 1}" }\n        - probe_sleep: { ms: 300 }\n`,
    );
    return file;
  });
  return { dir, files };
}

describe("--workers", () => {
  test("a value outside 1-64 says what it expects, a negative one too (not 'needs a value')", async () => {
    for (const value of ["-1", "0", "65", "two"]) {
      expect(await cli(["run", "trails", "--workers", value], { cwd: RUN })).toEqual({
        code: 2,
        stdout: "",
        stderr: `error: run: --workers expects a whole number from 1 to 64, got "${value}"\n`,
      });
    }
  });

  test("12 trails over 4 workers: parallel sessions, all pass, no child left", async () => {
    const { dir } = makeTrails(12);
    const pids = tempDir("run-pids");
    const run = await cli(["run", dir, "--workers", "4", "--reporter", "json", "--logs", tempDir("run-logs")], {
      cwd: RUN,
      env: { PROBE_PID_DIR: pids },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.summary).toMatchObject({ passed: 12, failed: 0, errors: 0, skipped: 0 });
    expect(doc.trails.map((t: Json) => t.id)).toEqual(Array.from({ length: 12 }, (_, i) => `t${i + 1}`));
    // Each trail had its own session and server process.
    expect(new Set(doc.trails.map((t: Json) => t.session.id)).size).toBe(12);
    const serverPids = doc.trails.map((t: Json) => t.steps[0].tools[0].result.structuredContent.pid);
    expect(new Set(serverPids).size).toBe(12);
    expect(probePids(pids).sort()).toEqual([...serverPids].sort());
    // Trails overlapped in time: at some moment more than one was running.
    const spans: { start: number; end: number }[] = doc.trails.map((t: Json) => ({
      start: Date.parse(t.startedAt),
      end: Date.parse(t.startedAt) + t.durationMs,
    }));
    const overlap = Math.max(...spans.map(({ start }) => spans.filter((s) => s.start <= start && start < s.end).length));
    expect(overlap).toBeGreaterThan(1);
    expect(overlap).toBeLessThanOrEqual(4);
    await expectAllGone(probePids(pids));
  });
});

describe("--shard", () => {
  test("slices of the sorted list are disjoint and together complete", async () => {
    const { dir, files } = makeTrails(7);
    const planned: string[][] = [];
    for (const i of [1, 2, 3]) {
      const run = await cli(["run", ...[...files].reverse(), "--list", "--shard", `${i}/3`], { cwd: RUN });
      expect(run.code).toBe(0);
      planned.push(
        run.stdout
          .split("\n")
          .filter((l) => l.startsWith(dir))
          .map((l) => l.split(" ")[0]!),
      );
    }
    expect(planned.map((p) => p.length)).toEqual([3, 2, 2]);
    expect(planned.flat()).toEqual(files);
  });

  test("a shard with no trails runs nothing and passes", async () => {
    const { files } = makeTrails(1);
    const run = await cli(["run", files[0]!, "--shard", "2/2", "--reporter", "json"], { cwd: RUN });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("note: shard 2/2 holds no trails (1 in total)\n");
    expect(JSON.parse(run.stdout)).toMatchObject({
      trails: [],
      summary: { passed: 0, failed: 0, errors: 0, skipped: 0 },
      shard: { index: 2, total: 2 },
    });
  });
});

describe("interrupts", () => {
  test("SIGINT mid-run: partial report written, every server reaped, exit 130", async () => {
    const pids = tempDir("run-pids");
    const out = join(tempDir("run-report"), "partial.json");
    const events = join(tempDir("run-events"), "events.jsonl");
    const child = Bun.spawn(
      [
        process.execPath,
        join(REPO, "src/cli/main.ts"),
        "run",
        "slow/slow.trail.yaml",
        "--reporter",
        `json,${join(REPO, "fixtures/reporters/events.ts")}=${events}`,
        "--output",
        out,
        "--logs",
        tempDir("run-logs"),
      ],
      {
        cwd: RUN,
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", PROBE_PID_DIR: pids } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // Wait for the first step's live line: the second step (a 60 s sleep) is then under way.
    let stdout = "";
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    const deadline = Date.now() + 20_000;
    while (!stdout.includes("✓ Start") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += decoder.decode(value);
    }
    expect(stdout).toContain("✓ Start");
    const started = probePids(pids);
    expect(started.length).toBe(1);
    child.kill("SIGINT");
    const code = await child.exited;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += decoder.decode(value);
    }
    expect(code).toBe(130);
    expect(stdout).toContain("Interrupted (interrupted by SIGINT); the report is partial.");
    // The cut-short trail's block ends (its step marked interrupted) before the summary starts.
    expect(stdout).toMatch(
      /✓ Start [^\n]*\n(?:[^\n]*\n)*? {2}! Sleep \(interrupted after [^)]+\)\n[^\n]*\n\n(?:[^\n]*\n)*Interrupted \(interrupted by SIGINT\)/,
    );
    expect(stdout.indexOf("! Sleep")).toBeLessThan(stdout.indexOf("Not passed:"));
    expect(existsSync(out)).toBe(true);
    const doc = JSON.parse(readFileSync(out, "utf8"));
    expect(doc.interrupted).toBe("interrupted by SIGINT");
    expect(doc.trails).toHaveLength(1);
    expect(doc.trails[0]).toMatchObject({ id: "slow", status: "error", error: "interrupted by SIGINT" });
    expect(doc.trails[0].steps.map((s: Json) => [s.title, s.status])).toEqual([
      ["Start", "passed"],
      ["Sleep", "interrupted"],
    ]);
    expect(doc.trails[0].steps[1].failure).toEqual({ message: "interrupted by SIGINT" });
    // A reporter of one's own gets the partial run at onEnd (the reaper waits for it), and nothing after.
    const told = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Json);
    expect(told.slice(1)).toEqual([
      { event: "onBegin", trails: ["slow"], workers: 1 },
      { event: "onTrailBegin", trail: "slow", index: 0 },
      { event: "onStepEnd", trail: "slow", step: 1, status: "passed" },
      { event: "onEnd", summary: { passed: 0, failed: 0 }, problems: 0, interrupted: "interrupted by SIGINT" },
    ]);
    await expectAllGone(started);
  }, 30_000);

  test("SIGINT while a session is still starting: that session is closed too", async () => {
    const pids = tempDir("run-pids");
    const child = Bun.spawn(
      [process.execPath, join(REPO, "src/cli/main.ts"), "run", "slow/slow-start.trail.yaml", "--logs", tempDir("run-logs")],
      {
        cwd: RUN,
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", PROBE_PID_DIR: pids } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // The server writes its pid at once, then takes 1.5 s before it answers initialize.
    const deadline = Date.now() + 20_000;
    while (probePids(pids).length === 0 && Date.now() < deadline) await Bun.sleep(20);
    const started = probePids(pids);
    expect(started.length).toBe(1);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    await expectAllGone(started);
  }, 30_000);
});
