// The host side of a QuickJS server, but for delivery (host-transport.ts): the transport contract
// (src/transports/transport.ts) over a server the host owns, where starting only marks the
// transport started, closing and terminating both close the server (there is no process to
// signal, so no grace period to skip), nothing is reported once the server closed, and the
// server's output is its guest console.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { TrailblazeError } from "../src/errors.ts";
import type { ManagedTransport, ServerPhase } from "../src/transports/transport.ts";
import type { ConsoleTail } from "./console-tail.ts";

export abstract class QuickJsTransport implements ManagedTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly pid = undefined;
  readonly diagnosticsSource = "guest console";
  #started = false;
  /** The server closed: nothing more goes to `onmessage` or `onerror`. */
  protected done = false;

  constructor(
    readonly name: string,
    /** The class's name for the SDK's "already started" message (kept as text: bundles may rename classes). */
    private readonly kind: string,
    private readonly server: { close(): Promise<void> },
    /** The guest's console lines, as the host has them. */
    private readonly console: ConsoleTail,
  ) {}

  async start(): Promise<void> {
    if (this.#started)
      throw new Error(`${this.kind} already started! If using Client class, note that connect() calls start() automatically.`);
    this.#started = true;
  }

  abstract send(message: JSONRPCMessage): Promise<void>;

  /** Closes the server (idempotent); it reports the close back (`onclose`). */
  close(): Promise<void> {
    return this.server.close();
  }

  /** No grace period to skip: the same as `close()`. */
  terminate(): Promise<void> {
    return this.server.close();
  }

  abstract failure(phase: ServerPhase): Promise<TrailblazeError>;

  diagnostics(): readonly string[] {
    return this.console.snapshot();
  }

  outputMark(): number {
    return this.console.mark();
  }

  /**
   * Nothing to wait for: a console line reaches the host before any message the guest sends after
   * it (in this thread the guest logs as it runs, before its messages are delivered; from a worker
   * thread lines and messages come in order on one port).
   */
  async outputSince(mark: number): Promise<readonly string[]> {
    return this.console.since(mark);
  }

  error(error: Error): void {
    if (!this.done) this.onerror?.(error);
  }
}
