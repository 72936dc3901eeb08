// A run thread: runs the trails `run`'s main thread sends it, each in its own session as the main
// thread would (TrailRun: session start, every call, memory, step records, the call log), so a
// trail's work is done here, where its servers' pipes or QuickJS instances are. What is the same
// for every trail is set up once: the workspace, the agent, the QuickJS module the main thread
// compiled, the builds the run verified. The reporters stay on the main thread: this thread posts
// each trail's events, then its report with the screens the main thread has not seen yet.

import { parentPort } from "node:worker_threads";
import { adoptCompiledWasm, haltServersWith } from "../../../runtime-quickjs/index.ts";
import { closeSharedBrowser, sharedBrowserPid } from "../../browser/chromium-browser.ts";
import { reusingVerifiedBuilds } from "../../bundle/build-cache.ts";
import { loadWorkspace, type Workspace } from "../../config/workspace.ts";
import { Secrets } from "../../core/secrets.ts";
import type { Reporter } from "../../run/reporter.ts";
import type { TrailJob } from "../../run/run-suite.ts";
import { TrailRun, type TrailAgent } from "../../run/run-trail.ts";
import { ScreenTable } from "../../run/screen-table.ts";
import { readTrailFiles } from "../../trail/trail-file.ts";
import { adoptSentinel } from "../../transports/stdio/group-sentinel.ts";
import type { Session } from "../../session/session.ts";
import type { SessionFlags } from "../../session/session-spec.ts";
import type { CliIO } from "../command.ts";
import { startSession } from "../open-session.ts";
import { MemoryPacer } from "./memory-pacer.ts";
import { writePids } from "./pid-table.ts";
import { toWire, type FromRunThread, type RunThreadSetup, type ToRunThread } from "./thread-protocol.ts";

const port = parentPort;
if (!port) throw new Error("src/cli/run-threads/run-thread.ts runs as a worker thread only");
const post = (message: FromRunThread) => port.postMessage(message);

/** What the thread keeps for the trails it runs. */
interface Thread {
  setup: RunThreadSetup;
  io: CliIO;
  workspace: Workspace;
  /** The run's agent (made here from the flags), or why there is none. */
  agent: { agent: TrailAgent } | { noAgent: string };
  secrets: Secrets;
  /** Aborted when the run is interrupted: no call starts from then on. */
  abort: AbortController;
  running: Map<number, TrailRun>;
  /** Each trail under way, settled once its report is posted. */
  ending: Set<Promise<void>>;
  sessions: Set<Session>;
  screens: ScreenTable;
  /** Screen ids the main thread has been sent. */
  sent: Set<string>;
}

/** The thread's garbage collected as the run grows (memory-pacer.ts). */
const pacer = new MemoryPacer();
let ready: Promise<Thread | { failed: string }> | undefined;
/** A secret value the main thread told of: added without telling it back. */
let adopting = false;

async function setUp(setup: RunThreadSetup): Promise<Thread> {
  const io: CliIO = {
    stdout: (text) => post({ t: "output", stream: "stdout", text }),
    stderr: (text) => post({ t: "output", stream: "stderr", text }),
    cwd: setup.cwd,
    env: setup.env,
    isTTY: setup.isTTY,
  };
  const secrets = new Secrets(setup.secrets.given);
  for (const [key, value] of setup.secrets.all) secrets.add(key, value);
  secrets.onAdd((key, value) => {
    if (!adopting) post({ t: "secret", key, value });
  });
  if (setup.wasm) adoptCompiledWasm(setup.wasm.key, setup.wasm.module);
  // One watcher for the process: a thread's own would outlive the thread.
  if (setup.sentinel !== undefined) adoptSentinel(setup.sentinel);
  haltServersWith(new Int32Array(setup.halt));
  // For the thread's life: the sessions use the tools as the thread first built them, as a run does.
  reusingVerifiedBuilds();
  const workspace = await loadWorkspace(setup.configDir, { cwd: setup.cwd });
  // The agent's modules load only for a run that has one, as on the main thread; else why there is none.
  const agent =
    "noAgent" in setup.agent
      ? setup.agent
      : (await import("../agent-flags.ts")).trailAgent("run", setup.flags, workspace.root, { ...io, stderr: () => {} }, secrets);
  return {
    setup,
    io,
    workspace,
    agent,
    secrets,
    abort: new AbortController(),
    running: new Map(),
    ending: new Set(),
    sessions: new Set(),
    screens: new ScreenTable(),
    sent: new Set(),
  };
}

/** The process groups the thread's sessions and browser run now, where the main thread can read them. */
function publishPids(thread: Thread): void {
  const browser = sharedBrowserPid();
  writePids(thread.setup.pids, [...[...thread.sessions].flatMap((session) => session.runningPids()), ...(browser ? [browser] : [])]);
}

/** Keeps a session of this thread known until it closes (the main thread's reaper cannot see it). */
function keep(thread: Thread, session: Session): () => void {
  thread.sessions.add(session);
  publishPids(thread);
  return () => {
    thread.sessions.delete(session);
    publishPids(thread);
  };
}

async function runTrail(thread: Thread, job: TrailJob): Promise<void> {
  const { index } = job;
  const { setup, io } = thread;
  const flags = setup.flags as SessionFlags;
  // The reporters are the main thread's: each event goes there, in order.
  const observer: Reporter = {
    onTrailBegin: () => post({ t: "trail-begin", index }),
    onStepEnd: (_trail, step) => {
      // A server restarted during the step runs under a new process group.
      publishPids(thread);
      post({ t: "step-end", index, step });
    },
  };
  const run = new TrailRun(job.file, job.trail, {
    io,
    startSession: (spec, options) => startSession(spec, io, options, { track: (session) => keep(thread, session), pruneLogs: false }),
    workspace: thread.workspace,
    flags: job.driver !== undefined ? { ...flags, driver: job.driver } : flags,
    secrets: thread.secrets,
    args: setup.args,
    signal: thread.abort.signal,
    observer,
    index,
    screens: thread.screens,
    ...(setup.recordPages ? { recordPages: true } : {}),
    ...thread.agent,
    ...(job.sessionId !== undefined ? { sessionId: job.sessionId } : {}),
  });
  thread.running.set(index, run);
  const report = await run.run();
  thread.running.delete(index);
  post({ t: "trail-end", index, report, screens: thread.screens.newSince(thread.sent) });
  pacer.trailEnded();
}

/** Closes every session (trails under way then end, and their reports are posted) and the browser. */
async function close(thread: Thread): Promise<void> {
  await Promise.allSettled([...thread.sessions].map((session) => session.close()));
  await Promise.allSettled(thread.ending);
  await closeSharedBrowser();
  publishPids(thread);
}

port.on("message", (message: ToRunThread) => {
  switch (message.t) {
    case "parse":
      readTrailFiles(message.files, message.cwd).then(
        ({ trails, problems }) => post({ t: "parsed", id: message.id, trails, problems }),
        (error: unknown) => post({ t: "parse-failed", id: message.id, error: toWire(error) }),
      );
      return;
    case "setup":
      ready = setUp(message.setup).catch((error: unknown) => {
        post({ t: "setup-failed", error: toWire(error) });
        return { failed: String(error) };
      });
      return;
    case "trail":
      void ready?.then((thread) => {
        if ("failed" in thread) return;
        const ending = runTrail(thread, message.job).finally(() => thread.ending.delete(ending));
        thread.ending.add(ending);
      });
      return;
    case "secret":
      void ready?.then((thread) => {
        if ("failed" in thread) return;
        adopting = true;
        try {
          thread.secrets.add(message.key, message.value);
        } finally {
          adopting = false;
        }
      });
      return;
    case "interrupt":
      void ready?.then((thread) => {
        if ("failed" in thread) return post({ t: "snapshot", reports: [], screens: {} });
        const reports = [...thread.running].map(([index, run]): [number, ReturnType<TrailRun["snapshot"]>] => [
          index,
          run.finished ?? run.snapshot(message.reason),
        ]);
        post({ t: "snapshot", reports, screens: thread.screens.newSince(thread.sent) });
        thread.abort.abort();
      });
      return;
    case "close":
      void (ready ?? Promise.resolve({ failed: "" })).then(async (thread) => {
        if (!("failed" in thread)) await close(thread);
        post({ t: "closed" });
      });
      return;
  }
});
