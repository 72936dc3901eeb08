// What `eval` tells its reporters (list, json, html): the runs planned, each run as it ends, and
// at the end the eval's report with the failed runs. `EvalReporters` calls every reporter chosen,
// in order, and isolates each as the run's Multiplexer does: one that throws is named on stderr,
// the others go on, and the command exits 1 where it would have exited 0 (`failed`).

import { reporterFailure } from "../reporters/multiplexer.ts";
import type { EvalResult, EvalRun } from "./eval-types.ts";

/** What `onBegin` is told: the models, the trails and how many runs of each. */
export interface EvalBegin {
  models: string[];
  trails: number;
  repeat: number;
  workers: number;
}

export interface EvalReporter {
  onBegin?(begin: EvalBegin): void;
  /** A run ended (a model's attempt at a trail); runs of different models and trails interleave. */
  onRunEnd?(run: EvalRun): void;
  /** The eval ended (or was interrupted: `result.report.interrupted`). */
  onEnd?(result: EvalResult): void | Promise<void>;
  /** True when it prints on stdout; at most one reporter of an eval may. */
  printsToStdio?(): boolean;
}

export class EvalReporters {
  readonly #reporters: readonly { name: string; reporter: EvalReporter }[];
  readonly #stderr: (text: string) => void;
  readonly #told = new Set<string>();
  #ended = false;
  /** Whether any reporter failed. */
  failed = false;

  constructor(reporters: readonly { name: string; reporter: EvalReporter }[], stderr: (text: string) => void) {
    this.#reporters = reporters;
    this.#stderr = stderr;
  }

  /** The names of the reporters that print on stdout. */
  stdioReporters(): string[] {
    return this.#reporters.filter(({ reporter }) => reporter.printsToStdio?.() === true).map((r) => r.name);
  }

  onBegin(begin: EvalBegin): void {
    this.#each("onBegin", (r) => r.onBegin?.(begin));
  }

  onRunEnd(run: EvalRun): void {
    if (!this.#ended) this.#each("onRunEnd", (r) => r.onRunEnd?.(run));
  }

  async onEnd(result: EvalResult): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    for (const { name, reporter } of this.#reporters) {
      try {
        await reporter.onEnd?.(result);
      } catch (error) {
        this.#failed(name, "onEnd", error);
      }
    }
  }

  #each(event: string, call: (reporter: EvalReporter) => void): void {
    for (const { name, reporter } of this.#reporters) {
      try {
        call(reporter);
      } catch (error) {
        this.#failed(name, event, error);
      }
    }
  }

  /** Told once per reporter and event: a reporter that fails on every run does not flood stderr. */
  #failed(name: string, event: string, error: unknown): void {
    this.failed = true;
    const key = `${name}\n${event}`;
    if (this.#told.has(key)) return;
    this.#told.add(key);
    this.#stderr(reporterFailure(name, event, error));
  }
}
