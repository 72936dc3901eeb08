// What `trailblaze eval` produces: each model's runs of each trail (every step through the built-in
// agent), summed up per model and per trail; the document `--reporter json` writes
// (docs/formats.md, "eval --reporter json") and what the list and the page show.

import type { WireframeScreen } from "../../screen/wireframe.ts";
import type { TrailReport } from "../run-types.ts";

/** The format `eval --reporter json` writes; it goes up only when a reader of the previous one would misread a report. */
export const EVAL_FORMAT = 1;

/** A step that failed in some runs: how often, and the error of the last run it failed in. */
export interface EvalFailure {
  /** 1-based position of the step in the trail; 0 when the run ended before its first step. */
  index: number;
  /** The step's words, or what stopped the run when no step failed (`before the first step`, `nothing verified`). */
  step: string;
  /** Runs in which it failed. */
  count: number;
  /** Its error in the last of those runs (secrets masked). */
  lastError: string;
}

/** What a number of runs came to: runs and passes, the means of a run, its median time. */
interface EvalTotals {
  /** Runs that got to run (skipped ones are left out: the trail does not run on this device). */
  runs: number;
  passed: number;
  /** passed / runs, from 0 to 1 (0 when nothing ran). */
  passRate: number;
  /** Model calls a run, the mean. */
  calls: number;
  /** Tokens (input and output) a run, the mean. */
  tokens: number;
  /** USD a run, the mean; only when the model lists its prices (llm: models: cost:). */
  costUsd?: number;
  /** A run's time, the median, in ms. */
  durationMs: number;
  /** Runs skipped: the trail does not run on the session's device. */
  skipped?: number;
}

export interface EvalTrail extends EvalTotals {
  file: string;
  id: string;
  title?: string;
  /** The steps that failed, most often first. */
  failures: EvalFailure[];
}

export interface EvalModel extends EvalTotals {
  /** `provider/model`. */
  model: string;
  /** Below `--min-pass-rate`, when one was given. */
  belowMinPassRate?: boolean;
  trails: EvalTrail[];
}

/** `eval --reporter json`. */
export interface EvalReport {
  version: number;
  /** Runs of each trail per model (`--repeat`). */
  repeat: number;
  /** `--min-pass-rate`, when given. */
  minPassRate?: number;
  /** The eval's own time, in ms. */
  durationMs: number;
  models: EvalModel[];
  /** Set when SIGINT/SIGTERM stopped the eval: runs that had not ended are left out. */
  interrupted?: string;
}

/** One run: a model's attempt at a trail, with the run's report. */
export interface EvalRun {
  model: string;
  /** The trail as its file names it (its own id, not the run's label). */
  file: string;
  id: string;
  title?: string;
  /** 1-based. */
  rep: number;
  report: TrailReport;
}

/** What the eval's reporters are given at the end: the summed report, and what the page shows of each failed run. */
export interface EvalResult {
  report: EvalReport;
  /** The runs that did not pass, in the order they were planned: their steps and the agent's turns. */
  failedRuns: EvalRun[];
  /** The screens the failed runs' steps ran on, by id (`RunReport.screens`). */
  screens: Record<string, WireframeScreen>;
}
