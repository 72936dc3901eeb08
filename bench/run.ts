// `bun run bench`: runs every scenario (a warm-up, then each repetition with ours and its baseline
// side by side), prints the machine and a table, writes bench/results.json and the generated
// section of BENCHMARKS.md. `--only P1,P3` runs a subset and writes nothing.

import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_QUICKJS_ENGINE, QUICKJS_ENGINES, type QuickJsEngine } from "../runtime-quickjs/index.ts";
import { ENV, FIXTURE_DIR, LOGS_DIR, type ScenarioResult } from "./harness.ts";
import { describeMachine } from "./machine.ts";
import { cpuSnapshot, processesMatching } from "./proc.ts";
import { markdownReport, rewriteMarkedSection, writeResults, type BenchRun } from "./report.ts";
import { p1ColdStart } from "./scenarios/p1-cold-start.ts";
import { p2FiveServers } from "./scenarios/p2-five-servers.ts";
import { p3Dispatch } from "./scenarios/p3-dispatch.ts";
import { p4QuickJsCalls } from "./scenarios/p4-quickjs-calls.ts";
import { p5OnDeviceStart } from "./scenarios/p5-ondevice-start.ts";
import { p6QuickJsMemory } from "./scenarios/p6-quickjs-memory.ts";
import { p7Workers } from "./scenarios/p7-workers.ts";
import { p8BundleSize } from "./scenarios/p8-bundle-size.ts";
import { s1OnDeviceSuite, s2OnDeviceWorkers } from "./scenarios/s-suite.ts";
import { s3SuiteMemory, s4MainThread } from "./scenarios/s-scale.ts";
import { w1CliVsRawClient, w2OnDeviceVsHost } from "./scenarios/w-whole-process.ts";
import { w3WebTrail } from "./scenarios/w3-web-trail.ts";
import { w4EditLoop } from "./scenarios/w4-edit-loop.ts";
import { a1RequestBytes, a2LoopTurn } from "./scenarios/a-agent.ts";
import { a3EvalOverhead } from "./scenarios/a3-eval.ts";

/**
 * The QuickJS scenarios again on the engine that is not the default, in the same run (ids with a
 * `Q` suffix): sessions take the engine from ENV, direct QuickJS servers from the argument.
 */
function onOtherEngine(run: (reps: number, engine: QuickJsEngine) => Promise<ScenarioResult>): (reps: number) => Promise<ScenarioResult> {
  const other = QUICKJS_ENGINES.find((engine) => engine !== DEFAULT_QUICKJS_ENGINE)!;
  return async (reps) => {
    const before = ENV.TRAILBLAZE_QUICKJS;
    ENV.TRAILBLAZE_QUICKJS = other;
    try {
      const result = await run(reps, other);
      return { ...result, id: `${result.id}Q`, title: `${result.title} [${other}]` };
    } finally {
      ENV.TRAILBLAZE_QUICKJS = before;
    }
  };
}

/** Repetitions per scenario (after the warm-up); more where one repetition is short and noisy. */
const SCENARIOS: { id: string; reps: number; run(reps: number): Promise<ScenarioResult> }[] = [
  { id: "P1", reps: 30, run: p1ColdStart },
  { id: "P2", reps: 15, run: p2FiveServers },
  { id: "P3", reps: 15, run: p3Dispatch },
  { id: "P4", reps: 9, run: p4QuickJsCalls },
  { id: "P4Q", reps: 9, run: onOtherEngine(p4QuickJsCalls) },
  { id: "P5", reps: 15, run: p5OnDeviceStart },
  { id: "P5Q", reps: 15, run: onOtherEngine(p5OnDeviceStart) },
  { id: "P6", reps: 5, run: p6QuickJsMemory },
  { id: "P6Q", reps: 5, run: onOtherEngine(p6QuickJsMemory) },
  { id: "P7", reps: 5, run: p7Workers },
  { id: "P8", reps: 5, run: p8BundleSize },
  { id: "W1", reps: 9, run: w1CliVsRawClient },
  { id: "W2", reps: 9, run: w2OnDeviceVsHost },
  { id: "W3", reps: 5, run: w3WebTrail },
  { id: "W4", reps: 9, run: w4EditLoop },
  { id: "S1", reps: 5, run: s1OnDeviceSuite },
  { id: "S2", reps: 5, run: s2OnDeviceWorkers },
  { id: "S3", reps: 3, run: s3SuiteMemory },
  { id: "S4", reps: 3, run: s4MainThread },
  { id: "A1", reps: 3, run: a1RequestBytes },
  { id: "A2", reps: 40, run: a2LoopTurn },
  { id: "A3", reps: 3, run: a3EvalOverhead },
];

const RESULTS_FILE = resolve(import.meta.dir, "results.json");
const BENCHMARKS_FILE = resolve(import.meta.dir, "../BENCHMARKS.md");

const USAGE = `Usage: bun run bench [--only ID,ID…]

Runs every scenario against its baseline in the same run, prints the machine and a table, and
writes bench/results.json and the Results section of BENCHMARKS.md (what each scenario measures
is there). With --only, runs those scenarios and writes nothing.

Options:
  --only ID,ID…   scenarios to run: ${SCENARIOS.map((s) => s.id).join(", ")}
  -h, --help      show this help`;

let values: { only?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { only: { type: "string" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  console.error(`error: bench: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const only = values.only?.split(",").map((id) => id.trim().toUpperCase());
const selected = only ? SCENARIOS.filter((s) => only.includes(s.id)) : SCENARIOS;
if (selected.length === 0) {
  console.error(`error: bench: --only ${values.only} matches no scenario; known: ${SCENARIOS.map((s) => s.id).join(", ")}`);
  process.exit(2);
}

const started = performance.now();
const cpuAtStart = cpuSnapshot();
const machine = describeMachine();
console.log(
  `machine: ${machine.cpuModel}; nproc ${machine.nproc}; ${machine.memoryGiB} GiB; bun ${machine.bun}; node ${machine.node}; load ${machine.loadStart.map((l) => l.toFixed(2)).join(" ")}`,
);

const scenarios: ScenarioResult[] = [];
for (const scenario of selected) {
  const t0 = performance.now();
  process.stdout.write(`${scenario.id}: warm-up + ${scenario.reps} repetitions … `);
  const loadBefore = Number(loadavg()[0]!.toFixed(2));
  const cpuBefore = cpuSnapshot();
  const result = await scenario.run(scenario.reps);
  const wallMs = performance.now() - t0;
  const cpuAfter = cpuSnapshot();
  const otherMs = cpuAfter.machineMs - cpuBefore.machineMs - (cpuAfter.oursMs - cpuBefore.oursMs);
  const otherCpuShare = Number(Math.max(0, otherMs / (wallMs * machine.nproc)).toFixed(3));
  scenarios.push({ ...result, loadBefore, otherCpuShare });
  console.log(
    `${(wallMs / 1000).toFixed(1)} s, ${result.met ? "goal met" : "goal missed"}, other processes used ${(otherCpuShare * 100).toFixed(1)} % of the CPU`,
  );
}

machine.loadEnd = loadavg();
const durationMs = Math.round(performance.now() - started);
const cpuAtEnd = cpuSnapshot();
const otherMs = cpuAtEnd.machineMs - cpuAtStart.machineMs - (cpuAtEnd.oursMs - cpuAtStart.oursMs);
const run: BenchRun = {
  generatedAt: new Date().toISOString(),
  durationMs,
  otherCpuShare: Number(Math.max(0, otherMs / (durationMs * machine.nproc)).toFixed(3)),
  stealShare: Number(((cpuAtEnd.stealMs - cpuAtStart.stealMs) / (durationMs * machine.nproc)).toFixed(3)),
  machine,
  scenarios,
  leftoverProcesses: processesMatching(FIXTURE_DIR),
};

console.log(`\n${markdownReport(run)}\n`);
if (only) {
  console.log("(--only: results.json and BENCHMARKS.md left as they were)");
} else {
  writeResults(RESULTS_FILE, run);
  rewriteMarkedSection(BENCHMARKS_FILE, markdownReport(run));
  console.log(`wrote ${RESULTS_FILE} and the results section of ${BENCHMARKS_FILE}`);
}
console.log(`bench: ${(run.durationMs / 1000).toFixed(0)} s; ${scenarios.filter((s) => s.met).length}/${scenarios.length} goals met`);
rmSync(LOGS_DIR, { recursive: true, force: true });
// Every session is closed by now; exit explicitly rather than wait on handles the CLI modules installed.
process.exit(run.leftoverProcesses.length === 0 ? 0 : 1);
