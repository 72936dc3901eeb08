// The one reporter interface, shaped as Playwright's: what a run tells every reporter (the
// built-in list, json, junit and html, and a user's own loaded from a path), in this order:
// onBegin, then per trail onTrailBegin, onStepEnd for each step and onTrailEnd (trails interleave
// with --workers N), then onEnd. `Multiplexer` (reporters/multiplexer.ts) calls every reporter
// and keeps one that throws from breaking the run or the others. docs/reporters.md documents it.

import type { RunReport, StepReport, TrailReport } from "./run-types.ts";

/** A trail as the run starts it: its file, id (`<id> [<device>]` with --device), title, position. */
export interface TrailInfo {
  file: string;
  id: string;
  title?: string;
  /** 0-based position of the trail in the run. */
  index: number;
}

/** What `onBegin` is told: the trails the run will start, in order. */
export interface RunBegin {
  trails: TrailInfo[];
  /** Trails run at once (`--workers`): with more than 1, the events of trails interleave. */
  workers: number;
  shard?: { index: number; total: number };
}

/**
 * A reporter: every method is optional. A method may return a promise: the run does not wait for
 * it, but `onEnd` is called once every earlier one settled, and the command waits for `onEnd`
 * (e.g. to write a file) before it exits.
 */
export interface Reporter {
  /** Before the first trail starts. Not called when the run stops before it starts (see onError). */
  onBegin?(run: RunBegin): void | Promise<void>;
  onTrailBegin?(trail: TrailInfo): void | Promise<void>;
  /** A step ended (passed, healed, unverified, failed); its values are masked as in every report. */
  onStepEnd?(trail: TrailInfo, step: StepReport): void | Promise<void>;
  /** A trail ended; `result.steps` also holds the steps it did not run (`skipped`). */
  onTrailEnd?(trail: TrailInfo, result: TrailReport): void | Promise<void>;
  /**
   * The run ended: `result` is the whole run, as the JSON report holds it. `result.interrupted`
   * says the run was stopped (SIGINT/SIGTERM): trails under way are in it as errors, and no event
   * follows. `result.problems` says it stopped before any trail started (after onError).
   */
  onEnd?(result: RunReport): void | Promise<void>;
  /** The run stopped before any trail started (a trail file that does not parse, a configuration error). */
  onError?(error: Error): void | Promise<void>;
  /**
   * True when the reporter prints on stdout. At most one reporter of a run may (their output would
   * interleave); when none does, `run` adds the list. Absent: false.
   */
  printsToStdio?(): boolean;
}

/** What a reporter's constructor is given. */
export interface ReporterOptions {
  /** The working directory of the command: relative paths resolve against it. */
  cwd: string;
  /** Where default outputs go: the workspace root above `cwd` (where html's trailblaze-report/ is), else `cwd`. */
  outputDir: string;
  /** The output named for this reporter (`--reporter ./r.ts=out.txt`, or `--output` when it is the only one), absolute. */
  output?: string;
  /** The command reporting: `run`, or `merge-reports` (which replays the merged run's events). */
  command: "run" | "merge-reports";
}

/** A reporter class, as a reporter module default-exports it. */
export type ReporterClass = new (options: ReporterOptions) => Reporter;

/** The events of a run already reported (merge-reports): onBegin, each trail in order with its steps, onEnd. */
export async function replayRun(reporter: Reporter, run: RunReport): Promise<void> {
  const trails: TrailInfo[] = run.trails.map((t, index) => ({
    file: t.file,
    id: t.id,
    ...(t.title !== undefined ? { title: t.title } : {}),
    index,
  }));
  await reporter.onBegin?.({ trails, workers: 1, ...(run.shard ? { shard: run.shard } : {}) });
  for (const [index, trail] of run.trails.entries()) {
    const info = trails[index]!;
    await reporter.onTrailBegin?.(info);
    // As a run reports them: the steps that ended, not those it never ran or cut short.
    for (const step of trail.steps) if (step.status !== "skipped" && step.status !== "interrupted") await reporter.onStepEnd?.(info, step);
    await reporter.onTrailEnd?.(info, trail);
  }
  await reporter.onEnd?.(run);
}
