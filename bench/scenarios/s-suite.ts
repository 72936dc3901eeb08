// S1 and S2: whole `trailblaze run` processes over 60 generated trails on target `three` (each
// trail a session of three script servers: a call to each, and an assertEquals on the memory one
// of them wrote). S1: on-device against host, both `--workers 4`. S2: on-device `--workers 4`
// against on-device `--workers 1`. Wall time of the process, from spawn to exit, started as an
// installed `trailblaze` starts (the package's bin, src/cli/launcher.sh, which sets Bun up), and
// its CPU (user + system, with its children's). A `--workers 4` run cannot take less than the CPU
// of a `--workers 1` run spread over every core, which bounds S2 on this many cores.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_DIR, interleaved, launchedRun, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";
import { trailFile } from "./p7-workers.ts";

const TRAILS = 60;
/** Untimed runs of each side first (their CPU is left out too). */
const WARMUP = 1;

/** A folder of TRAILS trails; removed by the caller. */
function suiteFolder(): { root: string; trails: string } {
  const root = mkdtempSync(join(tmpdir(), "trailblaze-bench-suite-"));
  const trails = join(root, "trails");
  mkdirSync(trails);
  for (let n = 1; n <= TRAILS; n++) writeFileSync(join(trails, `t${String(n).padStart(3, "0")}.trail.yaml`), trailFile(n, "suite-trail"));
  return { root, trails };
}

type Side = [agent: "host" | "on-device", workers: number];

/** Wall time and CPU of one `trailblaze run` over the suite, ms; throws unless every trail passed. */
function runOnce(trails: string, logs: string, [agent, workers]: Side): { ms: number; cpuMs: number } {
  const args = [trails, "--agent", agent, "--workers", String(workers), "--config", join(FIXTURE_DIR, "trailblaze-config"), "--logs", logs];
  const measured = launchedRun(args, FIXTURE_DIR, TRAILS);
  rmSync(logs, { recursive: true, force: true });
  return measured;
}

/** Wall times of the two sides, interleaved after the warm-up runs, and the CPU of each measured run. */
async function suitePair(ours: Side, baseline: Side, reps: number) {
  const { root, trails } = suiteFolder();
  const cpu = { ours: [] as number[], baseline: [] as number[] };
  let n = 0;
  const side = (which: "ours" | "baseline", run: Side) => async () => {
    const { ms, cpuMs } = runOnce(trails, join(root, `logs-${n++}`), run);
    cpu[which].push(cpuMs);
    return ms;
  };
  try {
    const runs = await interleaved({ ours: side("ours", ours), baseline: side("baseline", baseline) }, reps, WARMUP);
    return { ...runs, cpu: { ours: cpu.ours.slice(WARMUP), baseline: cpu.baseline.slice(WARMUP) } };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function s1OnDeviceSuite(reps: number): Promise<ScenarioResult> {
  const runs = await suitePair(["on-device", 4], ["host", 4], reps);
  return ratioResult(
    {
      id: "S1",
      title: `whole process: run ${TRAILS} trails x 3 servers --workers 4, on-device vs host`,
      unit: "ms",
      goal: "<= 0.50x",
      limit: 0.5,
    },
    series(`run --agent on-device --workers 4 (${TRAILS} trails)`, runs.ours),
    series(`run --agent host --workers 4 (${TRAILS} trails)`, runs.baseline),
    {
      "per trail on-device (ms, wall / trails, median)": Number((series("", runs.ours).median / TRAILS).toFixed(1)),
      "CPU of the on-device run, user + system (ms, median)": Math.round(median(runs.cpu.ours)),
      "CPU of the host run with its bun servers, user + system (ms, median)": Math.round(median(runs.cpu.baseline)),
    },
  );
}

export async function s2OnDeviceWorkers(reps: number): Promise<ScenarioResult> {
  const runs = await suitePair(["on-device", 4], ["on-device", 1], reps);
  const cores = availableParallelism();
  const oneWorkerCpu = median(runs.cpu.baseline);
  const floor = oneWorkerCpu / cores;
  return ratioResult(
    {
      id: "S2",
      title: `whole process: run ${TRAILS} trails on-device, --workers 4 vs --workers 1`,
      unit: "ms",
      goal: "<= 0.65x",
      limit: 0.65,
    },
    series(`run --agent on-device --workers 4 (${TRAILS} trails)`, runs.ours),
    series(`run --agent on-device --workers 1 (${TRAILS} trails)`, runs.baseline),
    {
      "CPU of a --workers 1 run, user + system (ms, median)": Math.round(oneWorkerCpu),
      "CPU of a --workers 4 run, user + system (ms, median)": Math.round(median(runs.cpu.ours)),
      cores,
      "CPU-bound floor: --workers 1 CPU / cores (ms)": Math.round(floor),
      "CPU-bound floor as a ratio of the --workers 1 wall": Number((floor / median(runs.baseline)).toFixed(2)),
    },
  );
}
