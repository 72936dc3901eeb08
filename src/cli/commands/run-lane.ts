// The run threads as `trailblaze run` uses them: started as soon as the trail files are known (they
// parse them while the run loads its workspace), set up once it has, closed at the end of the run
// or when it stops before a trail starts, and on the reaper's list until then.

import { availableParallelism } from "node:os";
import { compiledQuickJsWasm, quickJsEngineFrom } from "../../../runtime-quickjs/index.ts";
import type { Workspace } from "../../config/workspace.ts";
import type { SuiteEntry } from "../../run/run-suite.ts";
import type { Reporter } from "../../run/reporter.ts";
import type { ScreenTable } from "../../run/screen-table.ts";
import type { Secrets } from "../../core/secrets.ts";
import { agentFor } from "../../session/session-spec.ts";
import { sentinelFifo } from "../../transports/stdio/group-sentinel.ts";
import type { CliIO } from "../command.ts";
import { track } from "../reaper.ts";
import { runThreadsFor, ThreadLane } from "../run-threads/run-threads.ts";
import type { RunThreadSetup } from "../run-threads/thread-protocol.ts";

type LaneSetup = Omit<RunThreadSetup, "pids" | "halt" | "secrets">;

/** The run's threads, when it has them. */
export interface RunLane {
  lane: ThreadLane | undefined;
  /** Gives the threads their setup (they wait for it before their first session). */
  setUp(setup: Promise<LaneSetup>): void;
  /** Closes the threads and takes them off the reaper's list. */
  close(): Promise<void>;
}

/**
 * The threads for `files` trail files, started now; none when one worker, one trail or one core
 * leaves nothing to share (runThreadsFor).
 */
export function startLane(options: {
  workers: number;
  files: number;
  io: CliIO;
  reporters: Reporter;
  screens: ScreenTable;
  secrets: Secrets;
}): RunLane {
  const { workers, files, io, reporters, screens, secrets } = options;
  const setup = Promise.withResolvers<LaneSetup>();
  const threads = runThreadsFor(workers, files, availableParallelism(), io.env);
  if (threads === 0) return { lane: undefined, setUp: () => {}, close: async () => {} };
  const lane = new ThreadLane({ threads, setup: setup.promise, observer: reporters, screens, secrets, io });
  // The threads' sessions are closed with the rest on an interrupt, and their servers killed on exit.
  const untrack = track(lane);
  return {
    lane,
    setUp: (given) => setup.resolve(given),
    close: async () => {
      await lane.close();
      untrack();
    },
  };
}

/** The process's group sentinel, for the run threads to share. */
function sentinel(termExitMs: number): { sentinel?: number } {
  const fd = sentinelFifo(termExitMs);
  return fd === undefined ? {} : { sentinel: fd };
}

/**
 * What every run thread is set up with: the run's flags and workspace, and, when a trail runs
 * on-device, the QuickJS module compiled here once (a module that cannot be compiled is left to
 * each session to report).
 */
export async function threadSetup(
  io: CliIO,
  workspace: Workspace,
  flags: Record<string, unknown>,
  args: Record<string, string>,
  agent: RunThreadSetup["agent"],
  recordPages: boolean,
  entries: readonly SuiteEntry[],
): Promise<LaneSetup> {
  const onDevice = entries.some((entry) => agentFor(flags.agent as string | undefined, entry.trail.agent) === "on-device");
  let wasm: RunThreadSetup["wasm"];
  if (onDevice) {
    try {
      wasm = await compiledQuickJsWasm("release", quickJsEngineFrom(io.env));
    } catch {
      wasm = undefined;
    }
  }
  return {
    cwd: io.cwd,
    env: io.env,
    isTTY: io.isTTY,
    // ProcessTransport's default SIGTERM → SIGKILL wait, as the watcher a script server starts would have.
    ...sentinel(2000),
    configDir: workspace.configDir,
    flags,
    args,
    agent,
    recordPages,
    ...(wasm ? { wasm } : {}),
  };
}
