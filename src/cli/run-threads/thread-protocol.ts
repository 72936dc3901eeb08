// The messages between `run`'s main thread and a run thread (run-threads.ts ↔ run-thread.ts). A
// run thread runs whole trails, each in its own session (its servers, registry, dispatcher,
// memory, calls, step records), and tells the main thread what its reporters are to hear, in the
// order they would hear it from a trail run on the main thread.

import type { Workspace } from "../../config/workspace.ts";
import type { ConfigProblem } from "../../errors.ts";
import type { Trail } from "../../trail/trail-types.ts";
import type { BuildKey } from "../../../runtime-quickjs/quickjs-module.ts";
import type { StepReport, TrailReport } from "../../run/run-types.ts";
import type { TrailJob } from "../../run/run-suite.ts";
import type { WireframeScreen } from "../../screen/wireframe.ts";

/** What every trail of the run shares: set up once per thread. */
export interface RunThreadSetup {
  cwd: string;
  env: Record<string, string | undefined>;
  isTTY: boolean;
  /** The workspace's config folder, loaded again by the thread (its warnings were printed by the main thread). */
  configDir: Workspace["configDir"];
  /** The command's flags: session flags for every trail, and the agent's. */
  flags: Record<string, unknown>;
  /** `--arg` values. */
  args: Record<string, string>;
  /** The run's secrets so far: those `--secret` gave, then every other value made secret. */
  secrets: { given: Record<string, string>; all: [key: string, value: unknown][] };
  /** The built-in agent: the thread makes its own from `flags` (`make`), or there is none, and this says why. */
  agent: { make: true } | { noAgent: string };
  recordPages: boolean;
  /** The QuickJS module, compiled once by the main thread, for threads whose trails run on-device. */
  wasm?: { key: BuildKey; module: WebAssembly.Module };
  /** Where the thread writes the process groups its sessions run (pid-table.ts). */
  pids: SharedArrayBuffer;
  /** Set to non-zero by the main thread as it closes the thread: QuickJS guests still running stop at once. */
  halt: SharedArrayBuffer;
  /** The process's group sentinel (transports/stdio/group-sentinel.ts), which the thread tells of the servers it starts. */
  sentinel?: number;
}

/** An error copied across threads. */
export interface WireError {
  name: string;
  message: string;
}

export type ToRunThread =
  /** Read and parse these trail files (needs no setup: the run has not read its workspace yet). */
  | { t: "parse"; id: number; files: string[]; cwd: string }
  | { t: "setup"; setup: RunThreadSetup }
  | { t: "trail"; job: TrailJob }
  /** A value made secret elsewhere in the run (the main thread, another thread). */
  | { t: "secret"; key: string; value: unknown }
  /** The trails under way as they stand (answered by `snapshot`), then no call starts: they end at their next one. */
  | { t: "interrupt"; reason: string }
  /** Close every session the thread still has, and its browser; answered by `closed`. */
  | { t: "close" };

export type FromRunThread =
  | { t: "parsed"; id: number; trails: Trail[]; problems: ConfigProblem[] }
  /** Parsing threw something other than the files' problems (a bug): the run stops with it. */
  | { t: "parse-failed"; id: number; error: WireError }
  /** Setting up failed (the workspace no longer loads): every trail sent to the thread ends as an error saying so. */
  | { t: "setup-failed"; error: WireError }
  | { t: "output"; stream: "stdout" | "stderr"; text: string }
  | { t: "secret"; key: string; value: unknown }
  | { t: "trail-begin"; index: number }
  | { t: "step-end"; index: number; step: StepReport }
  /** `screens`: the screens of the thread's table the main thread has not been sent yet. */
  | { t: "trail-end"; index: number; report: TrailReport; screens: Record<string, WireframeScreen> }
  | { t: "snapshot"; reports: [index: number, report: TrailReport][]; screens: Record<string, WireframeScreen> }
  | { t: "closed" };

export function toWire(error: unknown): WireError {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: "Error", message: String(error) };
}
