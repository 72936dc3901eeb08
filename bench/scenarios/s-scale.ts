// S3 and S4: how a suite scales, whole `trailblaze run` processes over generated trails of target
// `three` (as S1), each sampled from /proc while it runs (bench/proc.ts, sampleThreads).
// S3: the on-device run's peak RSS at 2,400 trails against 600, `--workers 4`: memory should
// follow the workers, not the trails. S4: the CPU the CLI's main thread (the thread whose id is
// the process id) spends per trail, on-device and host, 240 trails at `--workers 4`, and the
// share of the process's CPU its busiest thread takes: the serial part of a run, which bounds
// what more cores can give (Amdahl).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_DIR, interleaved, launchedRunSampled, ratioResult, series, type ScenarioResult } from "../harness.ts";
import type { ThreadCpu } from "../proc.ts";
import { median } from "../stats.ts";
import { trailFile } from "./p7-workers.ts";

const MIB = 2 ** 20;
const S3_SMALL = 600;
const S3_LARGE = 2400;
/** S3's second goal: the large run's peak, MiB. */
const S3_PEAK_LIMIT_MIB = 450;
const S4_TRAILS = 240;
const WORKERS = 4;
/** S4's goals: the main thread's CPU per trail (ms), and the most any one thread may take of the CLI's CPU. */
const S4_LIMITS = { "on-device": 4, host: 8 } as const;
const S4_SHARE_LIMIT = 0.4;

/** A folder of `count` trails; removed by the caller. */
function trailsFolder(root: string, count: number): string {
  const trails = join(root, `trails-${count}`);
  mkdirSync(trails);
  for (let n = 1; n <= count; n++) writeFileSync(join(trails, `t${String(n).padStart(4, "0")}.trail.yaml`), trailFile(n, "scale-trail"));
  return trails;
}

interface Sampled {
  wallMs: number;
  /** CPU of every thread of the CLI process (its children, the host's bun servers, not included), ms. */
  processCpuMs: number;
  mainCpuMs: number;
  /** The thread with the most CPU, and its share of processCpuMs. */
  busiest: ThreadCpu & { share: number };
  /** Threads named `Worker` (what Bun names a worker thread): the run's run threads. */
  workerThreads: number;
  peakRssBytes: number;
  /** CPU of the CLI's children (bun servers), ms. */
  childrenCpuMs: number;
}

async function runSampled(trails: string, root: string, agent: "host" | "on-device", n: number, expected: number): Promise<Sampled> {
  const logs = join(root, `logs-${n}`);
  const args = [trails, "--agent", agent, "--workers", String(WORKERS), "--config", join(FIXTURE_DIR, "trailblaze-config"), "--logs", logs];
  const run = await launchedRunSampled(args, FIXTURE_DIR, expected);
  rmSync(logs, { recursive: true, force: true });
  const processCpuMs = run.threads.reduce((sum, thread) => sum + thread.cpuMs, 0);
  const top = run.threads.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
  // The main thread is told by its id (it is named `bun`; Bun names its worker threads `Worker`).
  const busiest = { ...top, name: top.tid === run.pid ? "the main thread" : top.name };
  return {
    wallMs: run.ms,
    processCpuMs,
    mainCpuMs: run.threads.find((thread) => thread.tid === run.pid)?.cpuMs ?? 0,
    busiest: { ...busiest, share: busiest.cpuMs / processCpuMs },
    workerThreads: run.threads.filter((thread) => thread.name === "Worker").length,
    peakRssBytes: run.peakRssBytes,
    childrenCpuMs: Math.max(0, run.cpuMs - processCpuMs),
  };
}

const ms1 = (value: number) => Number(value.toFixed(1));

export async function s3SuiteMemory(reps: number): Promise<ScenarioResult> {
  const root = mkdtempSync(join(tmpdir(), "trailblaze-bench-s3-"));
  try {
    const small = trailsFolder(root, S3_SMALL);
    const large = trailsFolder(root, S3_LARGE);
    const runs = { ours: [] as Sampled[], baseline: [] as Sampled[] };
    let n = 0;
    const side = (which: "ours" | "baseline") => async () => {
      const run = await runSampled(which === "ours" ? large : small, root, "on-device", n++, which === "ours" ? S3_LARGE : S3_SMALL);
      runs[which].push(run);
      return run.peakRssBytes;
    };
    const peaks = await interleaved({ ours: side("ours"), baseline: side("baseline") }, reps, 0);
    const result = ratioResult(
      {
        id: "S3",
        title: `on-device peak RSS, run ${S3_LARGE} trails vs ${S3_SMALL}, --workers ${WORKERS}`,
        unit: "bytes",
        goal: `<= 1.15x, <= ${S3_PEAK_LIMIT_MIB} MiB`,
        limit: 1.15,
      },
      series(`peak RSS (VmHWM) of run --agent on-device --workers ${WORKERS}, ${S3_LARGE} trails`, peaks.ours),
      series(`the same, ${S3_SMALL} trails`, peaks.baseline),
      {
        [`wall of the ${S3_LARGE}-trail run (s, median)`]: Number((median(runs.ours.map((r) => r.wallMs)) / 1000).toFixed(2)),
        [`wall of the ${S3_SMALL}-trail run (s, median)`]: Number((median(runs.baseline.map((r) => r.wallMs)) / 1000).toFixed(2)),
        [`CPU per trail, ${S3_LARGE} trails (ms, median)`]: ms1(median(runs.ours.map((r) => r.processCpuMs / S3_LARGE))),
        [`CPU per trail, ${S3_SMALL} trails (ms, median)`]: ms1(median(runs.baseline.map((r) => r.processCpuMs / S3_SMALL))),
        "worker threads of the run": Math.max(...runs.ours.map((r) => r.workerThreads)),
      },
    );
    return { ...result, met: result.met && median(peaks.ours) <= S3_PEAK_LIMIT_MIB * MIB };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function s4MainThread(reps: number): Promise<ScenarioResult> {
  const root = mkdtempSync(join(tmpdir(), "trailblaze-bench-s4-"));
  try {
    const trails = trailsFolder(root, S4_TRAILS);
    const runs = { ours: [] as Sampled[], baseline: [] as Sampled[] };
    let n = 0;
    const side = (which: "ours" | "baseline") => async () => {
      const run = await runSampled(trails, root, which === "ours" ? "on-device" : "host", n++, S4_TRAILS);
      runs[which].push(run);
      return run.mainCpuMs / S4_TRAILS;
    };
    const perTrail = await interleaved({ ours: side("ours"), baseline: side("baseline") }, reps, 1);
    const runsOf = { "on-device": runs.ours.slice(1), host: runs.baseline.slice(1) };
    const details: NonNullable<ScenarioResult["details"]> = {};
    let sharesMet = true;
    for (const [agent, measured] of Object.entries(runsOf)) {
      const share = median(measured.map((r) => r.busiest.share));
      sharesMet &&= share <= S4_SHARE_LIMIT;
      const names = [...new Set(measured.map((r) => r.busiest.name))].join(", ");
      details[`${agent}: main thread CPU (ms, median)`] = Math.round(median(measured.map((r) => r.mainCpuMs)));
      details[`${agent}: CPU of the CLI process, all its threads (ms, median)`] = Math.round(median(measured.map((r) => r.processCpuMs)));
      details[`${agent}: the main thread's share of it (median)`] = Number(
        median(measured.map((r) => r.mainCpuMs / r.processCpuMs)).toFixed(2),
      );
      details[`${agent}: the busiest thread's share (median; named ${names})`] = Number(share.toFixed(2));
      details[`${agent}: worker threads`] = Math.max(...measured.map((r) => r.workerThreads));
      details[`${agent}: wall (s, median)`] = Number((median(measured.map((r) => r.wallMs)) / 1000).toFixed(2));
      if (agent === "host") details["host: CPU of the bun servers (ms, median)"] = Math.round(median(measured.map((r) => r.childrenCpuMs)));
      // Amdahl: with the main thread's part serial and the rest spread over N cores.
      const serial = median(measured.map((r) => r.mainCpuMs / r.processCpuMs));
      details[`${agent}: speed-up bound on 16 cores from the serial part, 1 / (s + (1 - s) / 16)`] = Number(
        (1 / (serial + (1 - serial) / 16)).toFixed(1),
      );
    }
    details.cores = availableParallelism();
    const ours = series(`on-device: main-thread CPU per trail, ${S4_TRAILS} trails --workers ${WORKERS}`, perTrail.ours);
    const baseline = series(`host: main-thread CPU per trail, ${S4_TRAILS} trails --workers ${WORKERS}`, perTrail.baseline);
    return {
      id: "S4",
      title: `main-thread CPU per trail, ${S4_TRAILS} trails --workers ${WORKERS}: on-device (ours) and host (baseline)`,
      unit: "ms",
      ours,
      baseline,
      goal: `on-device <= ${S4_LIMITS["on-device"]} ms, host <= ${S4_LIMITS.host} ms; no thread > ${S4_SHARE_LIMIT * 100} % of the CLI's CPU`,
      met: ours.median <= S4_LIMITS["on-device"] && baseline.median <= S4_LIMITS.host && sharesMet,
      details,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
