// What every scenario shares: the fixture workspace, sessions opened the way the CLI opens them,
// interleaved ours/baseline repetitions, and the result shape written to results.json.

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startSession } from "../src/cli/open-session.ts";
import { loadWorkspace, type Workspace } from "../src/config/workspace.ts";
import type { Session } from "../src/session/session.ts";
import { detectRuntime } from "../src/transports/stdio/runtime.ts";
import { resolveSessionSpec } from "../src/session/session-spec.ts";
import type { AgentMode } from "../src/core/server-kinds.ts";
import { reapedChildrenCpuMs, sampleThreads, type ThreadsSeen } from "./proc.ts";
import { pairedRatios, summarize, type Summary } from "./stats.ts";

/** The bench workspace: `trailblaze-config/` with targets one / three / five, `tools/echo-*.ts`. */
export const FIXTURE_DIR = resolve(import.meta.dir, "../fixtures/bench");
export const ECHO_SCRIPT = join(FIXTURE_DIR, "tools/echo-a.ts");

/**
 * The environment of every session and baseline: the project's `node_modules/.bin` first on PATH,
 * so runtime detection finds its `bun` (also when the bench is started without `bun run`, which
 * would otherwise fall back to node + tsx) and the baselines spawn the very same binary.
 */
export const ENV: Record<string, string | undefined> = {
  ...process.env,
  PATH: [resolve(import.meta.dir, "../node_modules/.bin"), process.env.PATH ?? ""].join(delimiter),
};

/** The bun that sessions run script servers with (what runtime detection picks from ENV). */
export const BUN = await bunRuntime();

async function bunRuntime(): Promise<string> {
  const runtime = await detectRuntime(ENV);
  if (runtime.kind !== "bun")
    throw new Error(`bench: script servers would run under ${runtime.command}, not bun; install dependencies (npm ci)`);
  return runtime.command;
}

/** Session logs (stderr captures, call logs) go here, not into the fixture. */
export const LOGS_DIR = mkdtempSync(join(tmpdir(), "trailblaze-bench-logs-"));

let workspace: Promise<Workspace> | undefined;

/** Opens a session exactly as `bun trailblaze call/run` do: resolved spec, builtins, both launchers, reaper-tracked. */
export async function openBenchSession(target: string, agent: AgentMode = "host"): Promise<Session> {
  workspace ??= loadWorkspace(join(FIXTURE_DIR, "trailblaze-config"), { cwd: FIXTURE_DIR });
  const spec = resolveSessionSpec(await workspace, { target, agent, logs: LOGS_DIR }, { cwd: FIXTURE_DIR, env: ENV });
  const io = {
    stdout: () => {},
    // Advisory naming warnings: the fixture's tool names are shared by three targets on purpose.
    stderr: (text: string) => void (text.includes("[TrailmapScopingCheck]") || process.stderr.write(`  [session] ${text}`)),
    cwd: FIXTURE_DIR,
    env: ENV,
    isTTY: false,
  };
  return startSession(spec, io);
}

/** A raw SDK client (the baseline): `Client` + `StdioClientTransport` spawning `script` with the same bun, connected and listed. */
export async function connectRawSdk(script = ECHO_SCRIPT): Promise<{ client: Client; ms: number }> {
  const client = new Client({ name: "bench-baseline", version: "1.0.0" });
  const env = Object.fromEntries(Object.entries(ENV).filter((entry): entry is [string, string] => entry[1] !== undefined));
  // Its stderr is dropped, not shown: a precompiled server says there, as it starts, that it marks failed answers (core/answer-mark.ts).
  const transport = new StdioClientTransport({ command: BUN, args: [script], cwd: dirname(script), env, stderr: "ignore" });
  const ms = await timed(async () => {
    await client.connect(transport);
    await client.listTools();
  });
  return { client, ms };
}

/** Time to a started session (`openBenchSession`); the close is not timed. */
export async function sessionStartMs(target: string, agent: AgentMode = "host"): Promise<number> {
  let session: Session | undefined;
  const ms = await timed(async () => {
    session = await openBenchSession(target, agent);
  });
  await session?.close();
  return ms;
}

const LAUNCHER = resolve(import.meta.dir, "../src/cli/launcher.sh");

/**
 * One `trailblaze run … --reporter json` as an installed `trailblaze` starts (the package's bin,
 * src/cli/launcher.sh, which sets Bun up): its wall time and CPU (user + system, its children's
 * included), ms. Throws with the end of its stderr unless it exits 0 with `passed` trails passed.
 */
export function launchedRun(args: string[], cwd: string, passed: number): { ms: number; cpuMs: number } {
  const cpuBefore = reapedChildrenCpuMs();
  const start = performance.now();
  const run = spawnSync(LAUNCHER, ["run", ...args, "--reporter", "json"], {
    cwd,
    env: { ...ENV, NO_COLOR: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
  });
  const ms = performance.now() - start;
  const cpuMs = reapedChildrenCpuMs() - cpuBefore;
  let reported = -1;
  try {
    reported = (JSON.parse(run.stdout) as { summary: { passed: number } }).summary.passed;
  } catch {
    // reported below
  }
  if (run.status !== 0 || reported !== passed)
    throw new Error(`bench: trailblaze run ${args.join(" ")} exited ${run.status} with ${reported} passed: ${run.stderr.slice(-1500)}`);
  return { ms, cpuMs };
}

/**
 * As launchedRun, without blocking: the CLI's threads are sampled from /proc while it runs (each
 * thread's CPU, the process's peak RSS; sampleThreads), and its pid is given back with them, so
 * the main thread (whose id is the pid) can be told from the others.
 */
export async function launchedRunSampled(
  args: string[],
  cwd: string,
  passed: number,
): Promise<{ ms: number; cpuMs: number; pid: number } & ThreadsSeen> {
  const cpuBefore = reapedChildrenCpuMs();
  const start = performance.now();
  const child = spawn(LAUNCHER, ["run", ...args, "--reporter", "json"], {
    cwd,
    env: { ...ENV, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const sampler = sampleThreads(child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const status = await new Promise<number | null>((done) => child.once("close", done));
  const ms = performance.now() - start;
  const seen = sampler.stop();
  const cpuMs = reapedChildrenCpuMs() - cpuBefore;
  let reported = -1;
  try {
    reported = (JSON.parse(stdout) as { summary: { passed: number } }).summary.passed;
  } catch {
    // reported below
  }
  if (status !== 0 || reported !== passed)
    throw new Error(`bench: trailblaze run ${args.join(" ")} exited ${status} with ${reported} passed: ${stderr.slice(-1500)}`);
  return { ms, cpuMs, pid: child.pid!, ...seen };
}

/** Milliseconds `fn` takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export interface Pair {
  /** One repetition of our path; returns the measured value. */
  ours(): Promise<number>;
  /** One repetition of the baseline; returns the measured value. */
  baseline(): Promise<number>;
}

/**
 * `warmup` untimed rounds of both, then `reps` rounds with ours and the baseline side by side;
 * who goes first alternates so neither always runs in the other's wake.
 */
export async function interleaved(pair: Pair, reps: number, warmup = 1): Promise<{ ours: number[]; baseline: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await pair.baseline();
    await pair.ours();
  }
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2 === 0) {
      ours.push(await pair.ours());
      baseline.push(await pair.baseline());
    } else {
      baseline.push(await pair.baseline());
      ours.push(await pair.ours());
    }
  }
  return { ours, baseline };
}

export interface Series extends Summary {
  /** What was measured, e.g. "Session.start, 1 server". */
  label: string;
  samples: number[];
}

export interface ScenarioResult {
  id: string;
  title: string;
  unit: "ms" | "us" | "bytes";
  ours: Series;
  baseline?: Series;
  /** Paired: median (min–max) of ours_i / baseline_i. */
  ratio?: Summary & { samples: number[] };
  /** The goal as written in the issue, e.g. "<= 1.05x". */
  goal: string;
  met: boolean;
  /** Scenario-specific figures (breakdowns, byte counts, RSS), shown under the table. */
  details?: Record<string, string | number | boolean>;
  /** 1-minute load average when the scenario started (set by run.ts). */
  loadBefore?: number;
  /** Share of the machine's CPU (all cores) that other processes used while the scenario ran (set by run.ts). */
  otherCpuShare?: number;
}

export function series(label: string, samples: number[]): Series {
  return { label, samples, ...summarize(samples) };
}

/** The standard result for a scenario measured against a baseline with a ratio goal (`ratio <= limit`). */
export function ratioResult(
  head: { id: string; title: string; unit: ScenarioResult["unit"]; goal: string; limit: number },
  ours: Series,
  baseline: Series,
  details?: ScenarioResult["details"],
): ScenarioResult {
  const samples = pairedRatios(ours.samples, baseline.samples);
  const ratio = { samples, ...summarize(samples) };
  return {
    id: head.id,
    title: head.title,
    unit: head.unit,
    ours,
    baseline,
    ratio,
    goal: head.goal,
    met: ratio.median <= head.limit,
    ...(details ? { details } : {}),
  };
}
