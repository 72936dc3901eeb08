// What a sandbox (sandbox.ts) is given and what it reports to its owner (quickjs-server.ts): its
// options (limits, deadlines, the owner's hooks), how each delivery into the guest went, and a
// guest's exception as copied out of the VM.
import type { LogLevel } from "./sandbox-bridge.ts";

/** An exception that escaped guest code, copied out of the VM. */
export interface GuestError {
  /**
   * `stuck`: the guest kept running after being interrupted; it must be stopped. `halted`: guest
   * code was cut short because the server is being stopped or closed (see `halt`).
   */
  kind: "interrupted" | "out-of-memory" | "stuck" | "halted" | "exception";
  name: string;
  message: string;
  stack: string;
}

/** How a delivery went. */
export interface Delivery {
  /** The first guest error that escaped (a failed call or job). */
  error: GuestError | undefined;
  /** Whether the deadline interrupted guest code at least once (even if the guest caught it as a rejection). */
  interrupted: boolean;
  /** How long the guest ran (the call, then its pending jobs), in ms. */
  elapsedMs: number;
}

export interface SandboxOptions {
  stackLimitBytes: number;
  /** Also given to QuickJS's own limit (it bounds single allocations); the hard cap is the instance's memory. */
  memoryLimitBytes: number;
  /**
   * The deadline of the host's own set-up deliveries (the prelude, reseeding a restored image), in
   * ms: the server's start deadline, not a call's, as the prelude is trusted code that grows with the
   * globals the guest is given, and a busy machine may take longer over it than a call is allowed.
   */
  setupDeadlineMs: number;
  /**
   * The deadline of a delivery about to run that its caller gave none (every message, timer
   * callback and resumption after trailblaze.execute), in ms. Default: setupDeadlineMs.
   */
  deliveryDeadlineMs?: () => number;
  /**
   * A word shared with another thread: once it is non-zero, guest code is interrupted at once and
   * no more of its jobs run (the server on this thread is being closed from the other one).
   */
  haltSignal?: Int32Array;
  /** The call being served (`tools/call "x"`), if any: a timer armed now is said to be armed by it. */
  callInFlight?: () => string | undefined;
  onLog: (level: LogLevel, text: string) => void;
  onExecute: ((name: string, args: Record<string, unknown>) => Promise<unknown>) | undefined;
  /**
   * Largest message the guest may send, in UTF-8 bytes: one longer than this in UTF-16 units (each
   * at least a byte) goes to onUnsentMessage as too large, without being copied out of the guest.
   */
  maxMessageBytes: number;
  /** A guest→host MCP message (JSON). Called synchronously from guest code. */
  onGuestMessage: (json: string) => void;
  /** A message the guest could not serialize (see HostBridge.unsent). Called synchronously from guest code. */
  onUnsentMessage: (reason: string, leastBytes: number, id: string | number | undefined) => void;
  /** The guest transport closed itself (the author called `server.close()`). */
  onDetach: () => void;
  /**
   * A delivery the host did not start for a message (timer, execute result) ran: `what` says it
   * for messages (`running a timer callback`), `source` for budgets (`a timer callback (setInterval)`).
   */
  onAsyncDelivery: (delivery: Delivery, what: string, source: string) => void;
}

/** QuickJS's own words for running out of memory, as a message or as an error's text. */
export function isOutOfMemoryText(text: string): boolean {
  return text === "out of memory" || text === "InternalError: out of memory";
}
