// Runs a list of parsed trails, each in its own session, with up to N at once, and keeps what an
// interrupted run reports: the finished trails' reports, and the trails under way as their lane
// says. Where the sessions run is the lane's business: this thread (LocalLane, here), or worker
// threads that each run whole sessions (cli/run-threads/). Once a trail has ended, its report is
// all the suite keeps of it.

import type { Trail } from "../trail/trail-types.ts";
import { generateSessionId } from "../session/session-spec.ts";
import { TrailRun, type TrailAgent, type TrailRunOptions } from "./run-trail.ts";
import { summarize, type RunReport, type TrailReport } from "./run-types.ts";
import type { Reporter } from "./reporter.ts";
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

/** One trail to run, as a lane is given it. */
export interface TrailJob extends SuiteEntry {
  /** Position of the trail in the run (0-based). */
  index: number;
  /** Its session id, when the run names it (`--session-id`, `--test-name`); else generated. */
  sessionId?: string;
}

/**
 * Where the suite's trails run. Each job's trail reports to the run's reporters as it goes, its
 * steps' screens go into the run's screen table, and `run` gives its report once it ended.
 */
export interface TrailLane {
  run(job: TrailJob): Promise<TrailReport>;
  /**
   * The run is interrupted: the trails under way as they stand, by position (each an error saying
   * `reason`, its current step `interrupted`), taken before anything stops; then no call starts
   * (trails under way end at their next one).
   */
  interrupt(reason: string): Promise<Map<number, TrailReport>>;
}

type LaneOptions = Omit<TrailRunOptions, "index" | "sessionId" | "signal" | "screens">;

/** The trails' sessions on this thread. */
export class LocalLane implements TrailLane {
  readonly #options: LaneOptions;
  readonly #screens: ScreenTable;
  readonly #abort = new AbortController();
  readonly #running = new Map<number, TrailRun>();

  constructor(options: LaneOptions, screens: ScreenTable) {
    // What a trail cut short does after the interrupt (its call cancelled, its step failed) is not
    // news for the reporters: the interrupt reported it as it stood.
    this.#options = { ...options, observer: untilAborted(options.observer, this.#abort.signal) };
    this.#screens = screens;
  }

  async run(job: TrailJob): Promise<TrailReport> {
    const { flags } = this.#options;
    const run = new TrailRun(job.file, job.trail, {
      ...this.#options,
      ...(job.driver !== undefined ? { flags: { ...flags, driver: job.driver } } : {}),
      ...(job.agent !== undefined ? { agent: job.agent } : {}),
      ...(job.sessionId !== undefined ? { sessionId: job.sessionId } : {}),
      signal: this.#abort.signal,
      index: job.index,
      screens: this.#screens,
    });
    this.#running.set(job.index, run);
    try {
      return await run.run();
    } finally {
      this.#running.delete(job.index);
    }
  }

  async interrupt(reason: string): Promise<Map<number, TrailReport>> {
    const running = new Map([...this.#running].map(([index, run]) => [index, run.finished ?? run.snapshot(reason)]));
    this.#abort.abort();
    return running;
  }
}

/** `observer`, whose events stop once `signal` is aborted. */
function untilAborted(observer: Reporter, signal: AbortSignal): Reporter {
  return {
    onTrailBegin: (trail) => (signal.aborted ? undefined : observer.onTrailBegin?.(trail)),
    onStepEnd: (trail, step) => (signal.aborted ? undefined : observer.onStepEnd?.(trail, step)),
    onTrailEnd: (trail, report) => (signal.aborted ? undefined : observer.onTrailEnd?.(trail, report)),
  };
}

interface SuiteOptions extends LaneOptions {
  /** Trails run at once, each in its own session; default 1. */
  workers?: number;
  /** `--session-id`: used as is for a single trail, suffixed `-<n>` (1-based position) when there are several. */
  sessionId?: string;
  /** `--test-name`: each session id is `<seed>-<generated id>`. */
  sessionSeed?: string;
  shard?: Shard;
  /** Where the trails run; default: this thread (LocalLane). */
  lane?: TrailLane;
  /** The run's table of screens, where each step's screen is stored once (a lane of its own adds to it too); default: the suite's own. */
  screens?: ScreenTable;
}

export class SuiteRun {
  readonly #entries: readonly SuiteEntry[];
  readonly #options: SuiteOptions;
  /** The reports of the trails that ended, by position. */
  readonly #reports: (TrailReport | undefined)[];
  readonly #lane: TrailLane;
  #aborted = false;
  readonly #t0 = performance.now();
  readonly #screens: ScreenTable;

  constructor(entries: readonly SuiteEntry[], options: SuiteOptions) {
    this.#entries = entries;
    this.#options = options;
    this.#reports = entries.map(() => undefined);
    this.#screens = options.screens ?? new ScreenTable();
    this.#lane = options.lane ?? new LocalLane(options, this.#screens);
  }

  async run(): Promise<RunReport> {
    const { workers = 1 } = this.#options;
    await runPool(this.#entries, workers, async (entry, index) => {
      if (this.#aborted) return;
      const sessionId = this.#sessionId(index);
      this.#reports[index] = await this.#lane.run({ ...entry, index, ...(sessionId !== undefined ? { sessionId } : {}) });
    });
    return this.#result(this.#reports.filter((r): r is TrailReport => r !== undefined));
  }

  #sessionId(index: number): string | undefined {
    const { sessionId, sessionSeed } = this.#options;
    if (sessionId !== undefined) return this.#entries.length > 1 ? `${sessionId}-${index + 1}` : sessionId;
    return sessionSeed !== undefined ? `${sessionSeed}-${generateSessionId()}` : undefined;
  }

  /**
   * Stops starting trails and calls (running trails end at their next call) and gives the report
   * as it stood: finished trails, running ones as errors saying `reason` (their current step
   * `interrupted`); trails that never started are left out.
   */
  async interrupt(reason: string): Promise<RunReport> {
    this.#aborted = true;
    // The trails that had ended by now; one under way is reported as the lane took it, even if it
    // ends (its call cancelled) while another lane's thread is still answering.
    const ended = [...this.#reports];
    const running = await this.#lane.interrupt(reason);
    const trails = ended.flatMap((report, index) => {
      const now = report ?? running.get(index);
      return now ? [now] : [];
    });
    return { ...this.#result(trails), interrupted: reason };
  }

  #result(trails: TrailReport[]): RunReport {
    const report: RunReport = { trails, summary: summarize(trails, Math.round(performance.now() - this.#t0)) };
    if (this.#screens.size > 0) report.screens = this.#screens.toJSON();
    if (this.#options.shard) report.shard = { ...this.#options.shard };
    return report;
  }
}
