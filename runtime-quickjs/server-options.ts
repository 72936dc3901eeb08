// What a QuickJS server is started with and what it gives back: its options (each with its default
// and unit), the QuickJsServer the host drives, and the check of the limits before anything starts.
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { SandboxError } from "../src/errors.ts";
import type { ManagedTransport } from "../src/transports/transport.ts";
import { MIN_MEMORY_BYTES, type QuickJsEngine, type QuickJsVariant } from "./quickjs-module.ts";
import type { LogLevel } from "./sandbox-bridge.ts";

export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
export const MAX_STACK_LIMIT_BYTES = 256 * 1024;
export const DEFAULT_CALL_DEADLINE_MS = 10_000;
/** Default for `maxMessageBytes`: the host's for a stdio server (the SDK's stdio buffer limit, 10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

export interface QuickJsServerOptions {
  /** Names the server in messages and stack traces (e.g. the toolset id or file name). */
  name: string;
  /** The bundle: a classic script (what `bundleEntry` produces, or any esbuild IIFE). */
  code: string;
  /**
   * Memory cap in bytes for the server's QuickJS instance (guest heap + QuickJS's stack and
   * static data), rounded up to 64 KiB. At least 16 MiB (the module's initial memory). Default 64 MiB.
   */
  memoryLimitBytes?: number;
  /** Guest stack limit in bytes. Default and maximum 256 KiB (more breaks the host under Bun/Node). */
  stackLimitBytes?: number;
  /**
   * Longest a single entry into the guest may run while a call (any request of the client) is in
   * flight, in ms: handling one message, one timer callback, resuming after one
   * `trailblaze.execute`. Renewed for every entry. Default 10 000.
   */
  callDeadlineMs?: number;
  /**
   * Longest a single entry into the guest may run while no call is in flight (a timer callback,
   * resuming after `trailblaze.execute`, a notification), in ms. Default 1000.
   */
  idleDeliveryMs?: number;
  /**
   * Guest time the server may use outside calls, in ms, at once; it is regained at this much per
   * `idleWindowMs` (a duty cycle: 2000 per 10 000 is 20 % of a core). Using it up stops the server
   * (the session fails), naming what used the time. Default 2000.
   */
  idleCpuMs?: number;
  /** See `idleCpuMs`, in ms. Default 10 000. */
  idleWindowMs?: number;
  /**
   * Guest time the server may use in all during its session (calls, timers, evaluating the
   * bundle), in ms. Using it up stops the server. Default 300 000 (5 min).
   */
  sessionCpuMs?: number;
  /**
   * Largest JSON-RPC message the guest may send, in bytes (UTF-8, as a stdio server's line is
   * counted). A larger one stops the server, as the host agent stops a stdio server. Default 10 MiB.
   */
  maxMessageBytes?: number;
  /**
   * A word shared with another thread (the one that runs the session's run and closes it): once it
   * is non-zero, guest code running is interrupted at once (a busy guest cannot hold a close or a
   * Ctrl-C). Default: the word haltServersWith gave this thread, if any.
   */
  haltSignal?: Int32Array;
  /**
   * Longest evaluating the bundle and connecting its transport may take, in ms (a cold start
   * parses the whole bundle). Default: the larger of callDeadlineMs and 10 000.
   */
  startDeadlineMs?: number;
  /** Receives guest `console` output, one formatted line per call. Default: discarded. */
  onLog?: (level: LogLevel, text: string) => void;
  /**
   * The session's secrets masked out of a text: applied to console lines and to what a message
   * quotes of the guest before either is cut. Default: nothing masked.
   */
  mask?: (text: string) => string;
  /**
   * Implements guest `trailblaze.execute(name, args)`: the guest gets a promise of the JSON
   * round-trip of the result; a rejection becomes a guest Error with the same name and message.
   * Depth capping and re-entry detection are the caller's job. Default: every call rejects.
   */
  onExecute?: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  /** `debug` runs the assertion/leak-checking QuickJS build without the memory cap (tests). Default `release`. */
  variant?: QuickJsVariant;
  /**
   * The bundle's v3 source map, so guest stack frames name the author's file:line:col. `shift`:
   * columns the bundle's first line has in front of what the map describes (a wrapper).
   */
  sourceMap?: { map: string; shift: number };
  /** Which QuickJS runs the bundle. Default: DEFAULT_QUICKJS_ENGINE (`$TRAILBLAZE_QUICKJS`, else `quickjs`). */
  engine?: QuickJsEngine;
  /**
   * Start from an image of an earlier session of the same server in this process (its memory
   * once its bundle was evaluated and connected) instead of evaluating the bundle again, and
   * image this session for later ones if there is none. Each session still starts from the
   * pristine server: what a session did never reaches the image. Only servers whose top-level
   * code settles without a timer, a host call or a message are imaged. A server is also imaged
   * once it answered its first session's handshake (initialize, notifications/initialized,
   * tools/list, with nothing else either way): later sessions whose client opens with the same
   * messages start from that image and get the recorded answers. Default: true, unless
   * `TRAILBLAZE_QUICKJS_IMAGES=0` is in the process's environment. Not for the `debug` variant.
   */
  images?: boolean;
  /** Also keep images in this folder (e.g. `.cache/trailblaze-images`), for the sessions of later processes. */
  imageDir?: string;
}

export interface QuickJsServer {
  /** Connect an SDK `Client` to this, as to a stdio transport. */
  readonly transport: ManagedTransport;
  /** `bytes`: live guest heap (QuickJS's accounting); `linearBytes`: the instance's memory size. 0 once closed. */
  memoryUsage(): { bytes: number; linearBytes: number };
  /** Why the server stopped on its own (out of memory, stuck), once it has; what a send then throws. */
  readonly stopped: SandboxError | undefined;
  /** Whether it started from an image of an earlier session of the same server (see `images`). */
  readonly restored: boolean;
  /**
   * Whether its client's handshake (initialize, notifications/initialized, tools/list) was answered
   * from the image it was restored from, the guest being past it already (see `images`).
   */
  readonly handshakeReplayed: boolean;
  /**
   * Stops timers, frees the VM and reports the close to the client (pending calls fail).
   * Idempotent. Rejects only if QuickJS found a leaked handle while freeing (a host bug).
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Throws SandboxError (kind `limits`) for a limit out of its range, naming it and the range. */
export function checkLimits(opts: QuickJsServerOptions): void {
  const stack = opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES;
  if (!(stack > 0 && stack <= MAX_STACK_LIMIT_BYTES)) {
    throw new SandboxError(
      `stackLimitBytes must be between 1 and ${MAX_STACK_LIMIT_BYTES} (got ${stack}): larger QuickJS stacks break the host under Bun/Node`,
      "limits",
    );
  }
  const memory = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  if (!(memory >= MIN_MEMORY_BYTES && memory <= 2 ** 31)) {
    throw new SandboxError(
      `memoryLimitBytes must be between ${MIN_MEMORY_BYTES} (the QuickJS module's initial memory) and ${2 ** 31} (got ${memory})`,
      "limits",
    );
  }
  for (const key of ["callDeadlineMs", "startDeadlineMs", "idleDeliveryMs", "idleCpuMs", "idleWindowMs", "sessionCpuMs"] as const) {
    const value = opts[key];
    if (value !== undefined && !(value > 0))
      throw new SandboxError(`${key} must be a positive number of milliseconds (got ${value})`, "limits");
  }
  const bytes = opts.maxMessageBytes;
  if (bytes !== undefined && !(Number.isInteger(bytes) && bytes > 0))
    throw new SandboxError(`maxMessageBytes must be a positive whole number of bytes (got ${bytes})`, "limits");
}
