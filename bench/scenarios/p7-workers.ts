// P7: the real CLI, `bun trailblaze run <100 trails> --workers 8`, each trail its own session of
// three script servers. Reports wall time and peak memory of the CLI's process tree, and counts
// the processes pointing at the bench fixtures that are still alive once the CLI has exited.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, ENV, FIXTURE_DIR, series, type ScenarioResult } from "../harness.ts";
import { processesMatching, reapedChildrenCpuMs, sampleTree, type TreePeak } from "../proc.ts";
import { median } from "../stats.ts";

const TRAILS = 100;
const WORKERS = 8;
/** The warm-up run (file cache, bun's transpiler cache) covers one round of workers. */
const WARMUP_TRAILS = WORKERS;
const CLI = resolve(import.meta.dir, "../../src/cli/main.ts");

/** A trail that calls a tool of each of the target's three servers and checks a memory round trip. */
export function trailFile(n: number, prefix = "bench-trail"): string {
  return `config:
  id: ${prefix}-${n}
  target: three
trail:
  - step: Call each server
    recording:
      tools:
        - bencha_echo: { text: "trail ${n}" }
        - benchb_add: { a: ${n}, b: 1 }
        - benchc_remember: { key: last, value: "v${n}" }
  - verify: The value came back through memory
    recording:
      tools:
        - assertEquals: { actual: "{{last}}", expected: "v${n}" }
`;
}

interface RunOutcome {
  wallMs: number;
  /** CPU of the CLI and every process it started (all reaped by the time it exits). */
  treeCpuMs: number;
  peak: TreePeak;
  passed: number;
  exitCode: number | null;
  survivors: string[];
}

async function runOnce(trailsDir: string, logsDir: string): Promise<RunOutcome> {
  const args = [
    CLI,
    "run",
    trailsDir,
    "--workers",
    String(WORKERS),
    "--config",
    join(FIXTURE_DIR, "trailblaze-config"),
    "--logs",
    logsDir,
    "--reporter",
    "json",
  ];
  const cpuBefore = reapedChildrenCpuMs();
  const start = performance.now();
  const child = spawn(BUN, args, { cwd: FIXTURE_DIR, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  const sampler = sampleTree(child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exitCode = await new Promise<number | null>((done) => child.once("close", done));
  const wallMs = performance.now() - start;
  const peak = sampler.stop();
  const treeCpuMs = reapedChildrenCpuMs() - cpuBefore;
  // Checked the moment the CLI is gone: a server still running now outlived its session.
  const survivors = processesMatching(FIXTURE_DIR);
  let passed = 0;
  try {
    passed = (JSON.parse(stdout) as { summary: { passed: number } }).summary.passed;
  } catch {
    throw new Error(`bench: trailblaze run did not print a JSON report (exit ${exitCode}):\n${stderr.slice(-2000)}`);
  }
  return { wallMs, treeCpuMs, peak, passed, exitCode, survivors };
}

export async function p7Workers(reps: number): Promise<ScenarioResult> {
  const root = mkdtempSync(join(tmpdir(), "trailblaze-bench-p7-"));
  const trailsDir = join(root, "trails");
  const warmupDir = join(root, "warmup");
  mkdirSync(trailsDir);
  mkdirSync(warmupDir);
  for (let n = 1; n <= TRAILS; n++) {
    const name = `t${String(n).padStart(3, "0")}.trail.yaml`;
    writeFileSync(join(trailsDir, name), trailFile(n));
    if (n <= WARMUP_TRAILS) writeFileSync(join(warmupDir, name), trailFile(n));
  }
  try {
    await runOnce(warmupDir, join(root, "logs-warmup"));
    const runs: RunOutcome[] = [];
    for (let rep = 0; rep < reps; rep++) runs.push(await runOnce(trailsDir, join(root, `logs-${rep}`)));
    const survivors = runs.flatMap((run) => run.survivors);
    const allPassed = runs.every((run) => run.passed === TRAILS && run.exitCode === 0);
    const mib = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));
    const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
    return {
      id: "P7",
      title: `${TRAILS} sessions x 3 servers, trailblaze run --workers ${WORKERS}`,
      unit: "ms",
      ours: series(
        `wall time of \`trailblaze run\` over ${TRAILS} trails`,
        runs.map((run) => run.wallMs),
      ),
      goal: "<= 30 s, 0 orphans",
      met: survivors.length === 0 && allPassed && median(runs.map((run) => run.wallMs)) <= 30_000,
      details: {
        "orphans (fixture processes alive after the CLI exited, all runs)": survivors.length,
        "trails passed per run": runs.map((run) => run.passed).join(", "),
        "peak RSS of the CLI process tree, summed per process (MiB, median)": mib(median(runs.map((run) => run.peak.treeBytes))),
        "peak RSS of the CLI process tree (MiB, max)": mib(Math.max(...runs.map((run) => run.peak.treeBytes))),
        "peak PSS of the CLI process tree, shared pages split (MiB, median; sampled every 0.5 s)": mib(
          median(runs.map((run) => run.peak.treePssBytes)),
        ),
        "peak RSS of the CLI process itself (MiB, max)": mib(Math.max(...runs.map((run) => run.peak.rootBytes))),
        "most processes in the tree at once": Math.max(...runs.map((run) => run.peak.processes)),
        "CPU of the whole tree (s, median)": seconds(median(runs.map((run) => run.treeCpuMs))),
        "  of which the CLI process itself (s, median)": seconds(median(runs.map((run) => run.peak.rootCpuMs))),
        "CPU-bound floor: tree CPU / cores (s)": seconds(median(runs.map((run) => run.treeCpuMs)) / availableParallelism()),
        "per trail (ms, wall / trails, median)": Number((median(runs.map((run) => run.wallMs)) / TRAILS).toFixed(1)),
        ...(survivors.length > 0 ? { "surviving processes": survivors.slice(0, 5).join(" | ") } : {}),
      },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
