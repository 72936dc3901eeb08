// Sums up an eval's runs: per model and per trail, the runs, passes and pass rate, a run's model
// calls, tokens and cost (means) and time (median), and the steps that failed most with their last
// error; per model the same over all its trails. Pure: the runs' reports in, the eval's report out.

import type { WireframeScreen } from "../../screen/wireframe.ts";
import type { StepReport, TrailReport } from "../run-types.ts";
import {
  EVAL_FORMAT,
  type EvalFailure,
  type EvalModel,
  type EvalReport,
  type EvalResult,
  type EvalRun,
  type EvalTrail,
} from "./eval-types.ts";

/** What the eval was asked to run: the models in the order given, the trails in the order found. */
export interface EvalPlan {
  /** Each model's label, and whether it lists its prices (its runs then have a cost). */
  models: readonly { model: string; priced: boolean }[];
  trails: readonly { file: string; id: string; title?: string }[];
  repeat: number;
  minPassRate?: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);
const rounded = (value: number, digits: number) => Number(value.toFixed(digits));

/** A run's model calls, tokens and cost: every step the agent ran, summed. */
export function runUsage(report: TrailReport): { calls: number; tokens: number; costUsd: number } {
  let calls = 0;
  let tokens = 0;
  let costUsd = 0;
  for (const step of report.steps) {
    if (!step.agent) continue;
    calls += step.agent.turns.length;
    tokens += step.agent.tokens.input + step.agent.tokens.output;
    costUsd += step.agent.costUsd ?? 0;
  }
  return { calls, tokens, costUsd };
}

const isPass = (report: TrailReport) => report.status === "passed";
const ranIn = (report: TrailReport) => report.status !== "skipped";

/** Why a run did not pass: the step that failed (or was cut short), else what stopped the trail. */
function failureOf(report: TrailReport): Omit<EvalFailure, "count"> {
  const step: StepReport | undefined = report.steps.find((s) => s.status === "failed" || s.status === "interrupted");
  if (step) return { index: step.index, step: step.title, lastError: step.failure?.message ?? report.error ?? step.status };
  if (report.status === "unverified")
    return {
      index: 0,
      step: "nothing verified",
      lastError: "every step ran with nothing to check against: load a screen with --capture, --map or simulation:",
    };
  return { index: 0, step: "before the first step", lastError: report.error ?? report.status };
}

/** The steps that failed, most often first (then in trail order), each with its error in the last run it failed in. */
function failures(runs: readonly EvalRun[]): EvalFailure[] {
  const byStep = new Map<string, EvalFailure>();
  for (const run of runs) {
    if (isPass(run.report) || !ranIn(run.report)) continue;
    const failure = failureOf(run.report);
    const key = `${failure.index}\n${failure.step}`;
    const known = byStep.get(key);
    byStep.set(key, { ...failure, count: (known?.count ?? 0) + 1 });
  }
  return [...byStep.values()].sort((a, b) => b.count - a.count || a.index - b.index);
}

function totals(runs: readonly EvalRun[], priced: boolean) {
  const ran = runs.filter((run) => ranIn(run.report));
  const passed = ran.filter((run) => isPass(run.report)).length;
  const usage = ran.map((run) => runUsage(run.report));
  const skipped = runs.length - ran.length;
  return {
    runs: ran.length,
    passed,
    passRate: ran.length === 0 ? 0 : rounded(passed / ran.length, 4),
    calls: rounded(mean(usage.map((u) => u.calls)), 2),
    tokens: Math.round(mean(usage.map((u) => u.tokens))),
    ...(priced ? { costUsd: rounded(mean(usage.map((u) => u.costUsd)), 6) } : {}),
    durationMs: Math.round(median(ran.map((run) => run.report.durationMs))),
    ...(skipped > 0 ? { skipped } : {}),
  };
}

/** The eval's report: each model (in the order given) with each trail (in the order found). */
export function summarizeEval(runs: readonly EvalRun[], plan: EvalPlan, durationMs: number, interrupted?: string): EvalReport {
  const models: EvalModel[] = plan.models.map(({ model, priced }) => {
    const own = runs.filter((run) => run.model === model);
    const trails: EvalTrail[] = plan.trails.map((trail) => {
      const ofTrail = own.filter((run) => run.file === trail.file && run.id === trail.id);
      return {
        file: trail.file,
        id: trail.id,
        ...(trail.title !== undefined ? { title: trail.title } : {}),
        ...totals(ofTrail, priced),
        failures: failures(ofTrail),
      };
    });
    const summed = totals(own, priced);
    const below = plan.minPassRate !== undefined && summed.passRate < plan.minPassRate;
    return { model, ...summed, ...(below ? { belowMinPassRate: true } : {}), trails };
  });
  return {
    version: EVAL_FORMAT,
    repeat: plan.repeat,
    ...(plan.minPassRate !== undefined ? { minPassRate: plan.minPassRate } : {}),
    durationMs: Math.round(durationMs),
    models,
    ...(interrupted !== undefined ? { interrupted } : {}),
  };
}

/** The screen ids a run's steps name (the screens its steps ran on, moved to, and expected). */
function screenIds(report: TrailReport): string[] {
  return report.steps.flatMap((step) => {
    const screen = step.screen;
    if (screen?.kind !== "capture") return [];
    return [screen.screen, screen.after, screen.expected?.screen, screen.expected?.actual].filter((id): id is string => id !== undefined);
  });
}

/** What the reporters are given: the report, each run that did not pass, and the screens those runs' steps show. */
export function evalResult(
  runs: readonly EvalRun[],
  plan: EvalPlan,
  screens: Readonly<Record<string, WireframeScreen>>,
  durationMs: number,
  interrupted?: string,
): EvalResult {
  const failedRuns = runs.filter((run) => ranIn(run.report) && !isPass(run.report));
  const shown: Record<string, WireframeScreen> = {};
  for (const id of failedRuns.flatMap((run) => screenIds(run.report))) {
    const screen = screens[id];
    if (screen) shown[id] = screen;
  }
  return { report: summarizeEval(runs, plan, durationMs, interrupted), failedRuns, screens: shown };
}
