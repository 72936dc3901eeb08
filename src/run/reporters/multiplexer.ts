// Calls every reporter of a run, in the order chosen, and isolates each: a reporter that throws
// (or whose promise rejects) is reported on stderr, naming it and the event, and the run and the
// other reporters go on; the command then exits 1 where it would have exited 0 (`failed`), since a
// report that was asked for is missing or partial. Events after onEnd (trails that end after an
// interrupt) reach no reporter.

import type { Reporter, RunBegin, TrailInfo } from "../reporter.ts";
import type { RunReport, StepReport, TrailReport } from "../run-types.ts";

export interface NamedReporter {
  /** As the user chose it: `json`, `./reporters/slack.ts`. */
  name: string;
  reporter: Reporter;
}

type Event = "onBegin" | "onTrailBegin" | "onStepEnd" | "onTrailEnd" | "onEnd" | "onError" | "printsToStdio";

/** `error: reporter NAME failed in EVENT: message`, and where it was thrown (its stack's first frame). */
export function reporterFailure(name: string, event: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = error instanceof Error ? error.stack?.split("\n").find((line) => /^\s+at /.test(line)) : undefined;
  return `error: reporter ${name} failed in ${event}: ${message}${at ? `\n  ${at.trim()}` : ""}\n`;
}

export class Multiplexer implements Reporter {
  readonly #reporters: readonly NamedReporter[];
  readonly #stderr: (text: string) => void;
  /** Promises an event handler returned, settled before onEnd. */
  readonly #pending = new Set<Promise<void>>();
  /** By reporter and event, the failures after the first (which is told at once): told at the end. */
  readonly #repeats = new Map<string, number>();
  #ended = false;
  /** Whether any reporter failed. */
  failed = false;

  constructor(reporters: readonly NamedReporter[], stderr: (text: string) => void) {
    this.#reporters = reporters;
    this.#stderr = stderr;
  }

  onBegin(run: RunBegin): void {
    this.#each("onBegin", (r) => r.onBegin?.(run));
  }

  onTrailBegin(trail: TrailInfo): void {
    this.#each("onTrailBegin", (r) => r.onTrailBegin?.(trail));
  }

  onStepEnd(trail: TrailInfo, step: StepReport): void {
    this.#each("onStepEnd", (r) => r.onStepEnd?.(trail, step));
  }

  onTrailEnd(trail: TrailInfo, result: TrailReport): void {
    this.#each("onTrailEnd", (r) => r.onTrailEnd?.(trail, result));
  }

  onError(error: Error): void {
    this.#each("onError", (r) => r.onError?.(error));
  }

  /** Waits for every earlier event's promise, then calls each reporter's onEnd in turn, waiting for each. */
  async onEnd(result: RunReport): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await Promise.all(this.#pending);
    for (const { name, reporter } of this.#reporters) {
      try {
        await reporter.onEnd?.(result);
      } catch (error) {
        this.#failed(name, "onEnd", error);
      }
    }
    for (const [key, count] of this.#repeats) {
      if (count === 0) continue;
      const [name, event] = JSON.parse(key) as [string, Event];
      this.#stderr(`error: reporter ${name} failed in ${event} ${count} more time${count === 1 ? "" : "s"}\n`);
    }
  }

  /** True when any reporter prints on stdout. */
  printsToStdio(): boolean {
    return this.stdioReporters().length > 0;
  }

  /** The names of the reporters that print on stdout; one whose printsToStdio throws does not. */
  stdioReporters(): string[] {
    return this.#reporters
      .filter(({ name, reporter }) => {
        try {
          return reporter.printsToStdio?.() === true;
        } catch (error) {
          this.#failed(name, "printsToStdio", error);
          return false;
        }
      })
      .map((r) => r.name);
  }

  #each(event: Event, call: (reporter: Reporter) => void | Promise<void>): void {
    if (this.#ended) return;
    for (const { name, reporter } of this.#reporters) {
      try {
        const returned = call(reporter);
        if (returned !== undefined) {
          const settled: Promise<void> = Promise.resolve(returned).then(
            () => void this.#pending.delete(settled),
            (error: unknown) => {
              this.#pending.delete(settled);
              this.#failed(name, event, error);
            },
          );
          this.#pending.add(settled);
        }
      } catch (error) {
        this.#failed(name, event, error);
      }
    }
  }

  #failed(name: string, event: Event, error: unknown): void {
    this.failed = true;
    const key = JSON.stringify([name, event]);
    const repeats = this.#repeats.get(key);
    if (repeats === undefined) {
      this.#repeats.set(key, 0);
      this.#stderr(reporterFailure(name, event, error));
    } else {
      this.#repeats.set(key, repeats + 1);
    }
  }
}
