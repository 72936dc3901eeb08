// Runs a list of parsed trails, each in its own session, with up to N at once,
// and keeps enough state to produce a partial report when interrupted.

import type { Trail } from "../trail/trail-types.ts";
import { generateSessionId } from "../session/session-spec.ts";
import { TrailRun, type TrailAgent, type TrailRunOptions } from "./run-trail.ts";
import { summarize, type RunReport, type TrailReport } from "./run-types.ts";
import { ScreenTable } from "./screen-table.ts";
import type { Shard } from "./shard.ts";
import { runPool } from "./workers.ts";

export interface SuiteEntry {
  file: string;
  trail: Trail;
  /** The driver this entry's session runs on (`--device`), over the run's own flags. */
  driver?: string;
  /** The built-in agent this entry's steps go to (`eval`: each entry's model), over the run's own. */
  agent?: TrailAgent;
}

interface SuiteOptions extends Omit<TrailRunOptions, "index" | "sessionId" | "signal"> {
  /** Trails run at once, each in its own session; default 1. */
  workers?: number;
  /** `--session-id`: used as is for a single trail, suffixed `-<n>` (1-based position) when there are several. */
  sessionId?: string;
  /** `--test-name`: each session id is `<seed>-<generated id>`. */
  sessionSeed?: string;
  shard?: Shard;
}

export class SuiteRun {
  readonly #entries: readonly SuiteEntry[];
  readonly #options: SuiteOptions;
  readonly #runs: (TrailRun | undefined)[];
  readonly #abort = new AbortController();
  readonly #t0 = performance.now();
  readonly #screens = new ScreenTable();

  constructor(entries: readonly SuiteEntry[], options: SuiteOptions) {
    this.#entries = entries;
    this.#options = options;
    this.#runs = entries.map(() => undefined);
  }

  async run(): Promise<RunReport> {
    const { workers = 1, sessionId, sessionSeed } = this.#options;
    const many = this.#entries.length > 1;
    const reports = await runPool(this.#entries, workers, (entry, index) => {
      if (this.#abort.signal.aborted) return Promise.resolve<TrailReport | undefined>(undefined);
      const id =
        sessionId !== undefined
          ? many
            ? `${sessionId}-${index + 1}`
            : sessionId
          : sessionSeed !== undefined
            ? `${sessionSeed}-${generateSessionId()}`
            : undefined;
      const run = new TrailRun(entry.file, entry.trail, {
        ...this.#options,
        ...(entry.driver !== undefined ? { flags: { ...this.#options.flags, driver: entry.driver } } : {}),
        ...(entry.agent !== undefined ? { agent: entry.agent } : {}),
        ...(id !== undefined ? { sessionId: id } : {}),
        signal: this.#abort.signal,
        index,
        screens: this.#screens,
      });
      this.#runs[index] = run;
      return run.run();
    });
    return this.#result(reports.filter((r): r is TrailReport => r !== undefined));
  }

  /** Stops starting trails and calls; running trails end at their next call. */
  abort(): void {
    this.#abort.abort();
  }

  /**
   * The report as it stands: finished trails, running ones as errors saying
   * `reason` (their current step `interrupted`); trails that never started are left out.
   */
  snapshot(reason: string): RunReport {
    const trails = this.#runs.filter((r): r is TrailRun => r !== undefined).map((r) => r.finished ?? r.snapshot(reason));
    return { ...this.#result(trails), interrupted: reason };
  }

  #result(trails: TrailReport[]): RunReport {
    const report: RunReport = { trails, summary: summarize(trails, Math.round(performance.now() - this.#t0)) };
    if (this.#screens.size > 0) report.screens = this.#screens.toJSON();
    if (this.#options.shard) report.shard = { ...this.#options.shard };
    return report;
  }
}
