// `run`'s trails on worker threads: each thread runs whole trails (run-thread.ts), so the main
// thread only schedules them, hands their events to the reporters and writes what must be
// ordered. The threads start as soon as the run knows its trail files, and parse them (in slices,
// side by side) while they load; a trail goes to the thread with the fewest trails under way. A
// thread that dies ends the trails it ran as errors and its servers are killed; later trails go to
// a fresh one.

import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { type ConfigProblem, UsageError } from "../../errors.ts";
import type { Secrets } from "../../core/secrets.ts";
import type { Reporter, TrailInfo } from "../../run/reporter.ts";
import type { TrailJob, TrailLane } from "../../run/run-suite.ts";
import type { StepReport, TrailReport } from "../../run/run-types.ts";
import type { ScreenTable } from "../../run/screen-table.ts";
import type { Trail } from "../../trail/trail-types.ts";
import { signalGroup } from "../../transports/stdio/process-group.ts";
import type { CliIO } from "../command.ts";
import { MemoryPacer } from "./memory-pacer.ts";
import { newPidTable, readPids } from "./pid-table.ts";
import type { FromRunThread, RunThreadSetup, ToRunThread } from "./thread-protocol.ts";

/** How long an interrupted run waits for a thread's report before halting the guest it is busy in. */
const INTERRUPT_GRACE_MS = 500;
/** How long it waits once it halted the guests; a thread still silent then is reported from its events. */
const HALTED_GRACE_MS = 3000;

/** Set by the precompiled CLI's build (precompiled-cli.ts) to the folder of its bundles; undefined when the sources run. */
declare const TRAILBLAZE_CLI_BUNDLE_DIR: string | undefined;

/** The thread's entry: the precompiled bundle beside the CLI's when the CLI runs precompiled, else the source. */
function threadEntry(): string | URL {
  return typeof TRAILBLAZE_CLI_BUNDLE_DIR === "string"
    ? join(TRAILBLAZE_CLI_BUNDLE_DIR, "run-thread.js")
    : new URL("./run-thread.ts", import.meta.url);
}

/**
 * How many run threads a run gets: one per trail that runs at once, up to the cores there are (a
 * thread runs several trails at once as well as one, and each costs its own start and warm-up:
 * ~0.2 s of CPU to load, more to warm up, and tens of MB), and none when that is below 2 (one
 * thread would only move the work, not spread it). `TRAILBLAZE_RUN_THREADS` sets the number (0:
 * every session on the main thread).
 */
export function runThreadsFor(workers: number, trails: number, cores: number, env: Record<string, string | undefined>): number {
  const text = env.TRAILBLAZE_RUN_THREADS;
  if (text !== undefined && text !== "") {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > 64)
      throw new UsageError(
        `TRAILBLAZE_RUN_THREADS expects a whole number of threads from 0 to 64 (0: sessions on the main thread), got "${text}"`,
      );
    return Math.min(n, trails);
  }
  const threads = Math.min(workers, trails, cores);
  return threads >= 2 ? threads : 0;
}

/** A trail a thread runs, as the main thread follows it. */
interface Pending {
  job: TrailJob;
  info: TrailInfo;
  startedAt: string;
  /** The steps it reported so far (an interrupt that gets no answer from the thread reports these). */
  steps: StepReport[];
  resolve(report: TrailReport): void;
}

type Snapshot = Extract<FromRunThread, { t: "snapshot" }>;
type Parsed = { trails: Trail[]; problems: ConfigProblem[] };

/** A trail that ended because its thread could not run it (or, cut short, did not say how it stood): `steps` as the thread reported them. */
function stoppedReport(job: TrailJob, error: string, seen?: Pick<Pending, "startedAt" | "steps">): TrailReport {
  const { trail } = job;
  const steps = seen?.steps ?? [];
  return {
    file: job.file,
    id: trail.id,
    ...(trail.title !== undefined ? { title: trail.title } : {}),
    ...(trail.tags.length > 0 ? { tags: [...trail.tags] } : {}),
    status: "error",
    startedAt: seen?.startedAt ?? new Date().toISOString(),
    durationMs: seen ? Math.max(0, Date.now() - Date.parse(seen.startedAt)) : 0,
    steps,
    unverified: steps.filter((step) => step.status === "unverified").length,
    ran: steps.length > 0,
    error,
  };
}

/** Settles after `ms` with `value` unless cancelled (the timer keeps nothing alive). */
function after<T>(ms: number, value: T): { promise: Promise<T>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
    timer.unref?.();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

class RunThread {
  readonly worker: Worker;
  readonly pids = newPidTable();
  readonly haltWord = new SharedArrayBuffer(4);
  readonly jobs = new Map<number, Pending>();
  /** Why the thread cannot run trails (setup failed, or it died); undefined while it can. */
  stopped: string | undefined;
  #closed: (() => void) | undefined;
  #closing: Promise<void> | undefined;
  readonly #snapshots: ((reply: Snapshot) => void)[] = [];
  /** The thread gave its trails under way as they stood: what they do after that reaches no reporter. */
  #snapshotTaken = false;
  readonly #parses = new Map<number, { resolve(parsed: Parsed): void; reject(error: Error): void }>();
  #nextParse = 1;
  /** Messages posted before the thread was sent its setup: they follow it. */
  #queued: ToRunThread[] | undefined = [];

  constructor(
    private readonly lane: ThreadLane,
    setup: Promise<Omit<RunThreadSetup, "pids" | "halt">>,
  ) {
    this.worker = new Worker(lane.entry);
    this.worker.on("message", (message: FromRunThread) => this.#received(message));
    this.worker.on("error", (error: unknown) => this.#died(`failed: ${error instanceof Error ? error.message : String(error)}`));
    this.worker.on("exit", (code) => this.#died(`exited with code ${code}`));
    void setup.then(
      (ready) => {
        if (this.stopped !== undefined) return;
        this.worker.postMessage({ t: "setup", setup: { ...ready, pids: this.pids, halt: this.haltWord } } satisfies ToRunThread);
        for (const message of this.#queued ?? []) this.worker.postMessage(message);
        this.#queued = undefined;
      },
      () => {}, // the run stopped before it started: close() ends the thread
    );
  }

  post(message: ToRunThread): void {
    if (this.stopped !== undefined) return;
    if (this.#queued) this.#queued.push(message);
    else this.worker.postMessage(message);
  }

  run(pending: Pending): void {
    this.jobs.set(pending.job.index, pending);
    this.post({ t: "trail", job: pending.job });
  }

  /** Parses trail files on the thread (it needs no setup for that). */
  parse(files: readonly string[], cwd: string): Promise<Parsed> {
    if (this.stopped !== undefined) return Promise.reject(new Error(`the run thread ${this.stopped}`));
    const id = this.#nextParse++;
    return new Promise((resolve, reject) => {
      this.#parses.set(id, { resolve, reject });
      this.worker.postMessage({ t: "parse", id, files: [...files], cwd } satisfies ToRunThread);
    });
  }

  /**
   * The reports of the thread's trails under way, then no call starts there. A thread that does not
   * answer at once is busy in a guest (a call the interrupt is to cut): its QuickJS guests are
   * halted, and it answers then; one still silent after that is reported from what it told so far.
   */
  async interrupt(reason: string): Promise<Map<number, TrailReport>> {
    const fromEvents = () => new Map([...this.jobs].map(([index, pending]) => [index, stoppedReport(pending.job, reason, pending)]));
    if (this.stopped !== undefined) return fromEvents();
    const reply = new Promise<Snapshot>((resolve) => {
      this.#snapshots.push(resolve);
      this.post({ t: "interrupt", reason });
    });
    let answer: Snapshot | "silent" = "silent";
    for (const [ms, halt] of [
      [INTERRUPT_GRACE_MS, false],
      [HALTED_GRACE_MS, true],
    ] as const) {
      if (halt) this.halt();
      const timer = after(ms, "silent" as const);
      answer = await Promise.race([reply, timer.promise]);
      timer.cancel();
      if (answer !== "silent") break;
    }
    // Every trail under way is in the report: as the thread gave it, else as its events showed it.
    const reports = fromEvents();
    if (answer !== "silent") for (const [index, report] of answer.reports) reports.set(index, report);
    return reports;
  }

  /** Cuts the QuickJS guests running on the thread now and from now on (its sessions then fail). */
  halt(): void {
    Atomics.store(new Int32Array(this.haltWord), 0, 1);
  }

  /** Closes the thread's sessions and browser, then ends it; idempotent. Guests still running are halted. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.halt();
      // A thread never set up has no session: it just ends.
      if (this.stopped === undefined && this.#queued === undefined) {
        const closed = new Promise<void>((resolve) => (this.#closed = resolve));
        this.post({ t: "close" });
        await closed;
      }
      this.stopped ??= "closed";
      await this.worker.terminate();
      this.#settleAll("the run was closed while this trail ran");
    })();
    return this.#closing;
  }

  #received(message: FromRunThread): void {
    const { lane } = this;
    switch (message.t) {
      case "output":
        lane.output(message.stream, message.text);
        return;
      case "secret":
        lane.secret(this, message.key, message.value);
        return;
      case "parsed":
        this.#parses.get(message.id)?.resolve({ trails: message.trails, problems: message.problems });
        this.#parses.delete(message.id);
        return;
      case "parse-failed":
        this.#parses.get(message.id)?.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
        this.#parses.delete(message.id);
        return;
      case "trail-begin": {
        const pending = this.jobs.get(message.index);
        if (pending && !this.#snapshotTaken) void lane.observer.onTrailBegin?.(pending.info);
        return;
      }
      case "step-end": {
        const pending = this.jobs.get(message.index);
        if (!pending || this.#snapshotTaken) return;
        pending.steps.push(message.step);
        void lane.observer.onStepEnd?.(pending.info, message.step);
        return;
      }
      case "trail-end": {
        lane.screens.adopt(message.screens);
        const pending = this.jobs.get(message.index);
        if (!pending) return;
        this.jobs.delete(message.index);
        if (!this.#snapshotTaken) void lane.observer.onTrailEnd?.(pending.info, message.report);
        pending.resolve(message.report);
        return;
      }
      case "snapshot":
        lane.screens.adopt(message.screens);
        this.#snapshotTaken = true;
        this.#snapshots.shift()?.(message);
        return;
      case "setup-failed":
        this.#stop(`the run thread could not set up: ${message.error.message}`);
        return;
      case "closed":
        this.#closed?.();
        return;
    }
  }

  /** The thread is gone without being closed: its servers are killed and its trails end as errors. */
  #died(why: string): void {
    if (this.stopped !== undefined) return;
    for (const pid of readPids(this.pids)) {
      try {
        signalGroup(pid, "SIGKILL");
      } catch {
        // EPERM: not ours any more
      }
    }
    this.#stop(`the run thread that ran it ${why}`);
  }

  #stop(why: string): void {
    if (this.stopped !== undefined) return;
    this.stopped = why;
    this.#settleAll(why);
    this.#closed?.();
    this.lane.forget(this);
    void this.worker.terminate();
  }

  /** Every trail, parse and interrupt still waiting on the thread ends, saying `why`. */
  #settleAll(why: string): void {
    for (const pending of this.jobs.values()) pending.resolve(stoppedReport(pending.job, why, pending));
    this.jobs.clear();
    for (const reply of this.#snapshots.splice(0)) reply({ t: "snapshot", reports: [], screens: {} });
    for (const parse of this.#parses.values()) parse.reject(new Error(why));
    this.#parses.clear();
  }
}

export interface ThreadLaneOptions {
  threads: number;
  /**
   * What every thread is set up with, but for what each gets of its own: a promise, since the
   * threads start (and parse the trail files) before the run has read its workspace. A rejected one
   * leaves the threads to close().
   */
  setup: Promise<Omit<RunThreadSetup, "pids" | "halt" | "secrets">>;
  /** The run's reporters (a Multiplexer). */
  observer: Reporter;
  /** The run's table of screens, where the threads' steps' screens are added. */
  screens: ScreenTable;
  /** The run's secrets: a value made secret on a thread is added here and told to the other threads. */
  secrets: Secrets;
  /** The command's output (masked); what the threads print goes there. */
  io: Pick<CliIO, "stdout" | "stderr">;
  /** The threads' entry file (a test gives one that wraps it); default: run-thread.ts, precompiled when the CLI is. */
  entry?: string | URL;
}

/** The trails' sessions on worker threads (see the header). */
export class ThreadLane implements TrailLane {
  readonly observer: Reporter;
  /** The main thread's garbage (the threads' events, once reported) collected as the run grows. */
  readonly pacer = new MemoryPacer();
  readonly screens: ScreenTable;
  readonly entry: string | URL;
  readonly #options: ThreadLaneOptions;
  readonly #setup: Promise<Omit<RunThreadSetup, "pids" | "halt">>;
  #threads: RunThread[] = [];
  #closing: Promise<void> | undefined;

  constructor(options: ThreadLaneOptions) {
    this.#options = options;
    this.observer = options.observer;
    this.screens = options.screens;
    this.entry = options.entry ?? threadEntry();
    const { secrets } = options;
    // The secrets as they are when each thread is set up.
    this.#setup = options.setup.then((setup) => ({
      ...setup,
      secrets: { given: { ...secrets.given }, all: secrets.entries() },
    }));
    for (let i = 0; i < options.threads; i++) this.#threads.push(new RunThread(this, this.#setup));
  }

  /** Reads and parses trail files (trail-file.ts, readTrailFiles) in slices, one a thread, side by side; results in the order of `files`. */
  async readTrailFiles(files: readonly string[], cwd: string): Promise<Parsed> {
    const threads = this.#threads.filter((thread) => thread.stopped === undefined);
    if (threads.length === 0) throw new Error("no run thread is left to read the trail files");
    const size = Math.ceil(files.length / threads.length);
    const slices = threads.map((thread, i) => thread.parse(files.slice(i * size, (i + 1) * size), cwd));
    const parsed = await Promise.all(slices);
    return { trails: parsed.flatMap((slice) => slice.trails), problems: parsed.flatMap((slice) => slice.problems) };
  }

  run(job: TrailJob): Promise<TrailReport> {
    // A thread makes the run's agent from the flags; an entry's own (eval's models) does not cross to it.
    if (job.agent !== undefined) throw new Error("a run thread takes no agent of an entry's own: run such entries on the main thread");
    const { trail } = job;
    const info: TrailInfo = {
      file: job.file,
      id: trail.id,
      ...(trail.title !== undefined ? { title: trail.title } : {}),
      index: job.index,
    };
    if (this.#closing) return Promise.resolve(stoppedReport(job, "the run was closed before this trail started"));
    if (this.#threads.length < this.#options.threads) this.#threads.push(new RunThread(this, this.#setup));
    const thread = this.#threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
    return new Promise((resolve) => thread.run({ job, info, startedAt: new Date().toISOString(), steps: [], resolve }));
  }

  async interrupt(reason: string): Promise<Map<number, TrailReport>> {
    const replies = await Promise.all(this.#threads.map((thread) => thread.interrupt(reason)));
    return new Map(replies.flatMap((reply) => [...reply]));
  }

  /** Every thread's sessions and browser closed, and the threads ended; idempotent. */
  close(): Promise<void> {
    this.#closing ??= Promise.all(this.#threads.map((thread) => thread.close())).then(() => {});
    return this.#closing;
  }

  /** The process groups the threads' sessions run now (the reaper kills them when the process exits). */
  runningPids(): number[] {
    return this.#threads.flatMap((thread) => readPids(thread.pids));
  }

  output(stream: "stdout" | "stderr", text: string): void {
    this.#options.io[stream](text);
  }

  /** A value made secret on `from`: the run keeps it, and the other threads mask it too. */
  secret(from: RunThread, key: string, value: unknown): void {
    this.#options.secrets.add(key, value);
    for (const thread of this.#threads) if (thread !== from) thread.post({ t: "secret", key, value });
  }

  /** A thread that stopped takes no more trails. */
  forget(thread: RunThread): void {
    this.#threads = this.#threads.filter((t) => t !== thread);
  }
}
