// The one transport contract: the MCP SDK's `Transport` (start/send/close + onmessage/onclose/
// onerror, so the SDK `Client` drives it) plus what a session needs of a server it manages.
// Implemented by the stdio subprocess transport (stdio/process-transport.ts) and the QuickJS
// in-process transport (runtime-quickjs/host-transport.ts); McpConnection takes either.

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { TrailblazeError } from "../errors.ts";

/** When a server stopped: before its handshake (initialize + tools/list) finished, or after. */
export type ServerPhase = "startup" | "session";

export interface ManagedTransport extends Transport {
  /** The server's display name, e.g. `tools/login.ts`. */
  readonly name: string;
  /** Process id (and process group id) of a subprocess server; undefined in-process or before start. */
  readonly pid?: number | undefined;
  /**
   * Why the server stopped when nobody asked it to, as a typed error (exit code and signal, a
   * broken limit, the VM running out of memory…) with `diagnostics()` attached. Called after the
   * transport closed on its own; settles once the cause is known and never rejects.
   */
  failure(phase: ServerPhase): Promise<TrailblazeError>;
  /** The server's recent output for messages: the stderr tail, or the guest console tail. */
  diagnostics(): readonly string[];
  /** What `diagnostics()` holds, for messages: `stderr` or `guest console`. */
  readonly diagnosticsSource: string;
  /** How many lines of output (what `diagnostics()` holds) the server has written so far: a mark for `outputSince`. */
  outputMark(): number;
  /**
   * The lines of output written since `mark` (no more than `diagnostics()` keeps), once those the
   * server wrote before the message just received are in: called when a call's answer came, it
   * gives what the server wrote while the call ran. Each transport says how it knows.
   */
  outputSince(mark: number): Promise<readonly string[]>;
  /** Stops the server now, without the graceful close's grace period. Idempotent. */
  terminate(): Promise<void>;
}
