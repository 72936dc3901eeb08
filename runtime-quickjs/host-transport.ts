// The host side of the in-process MCP transport: implements the transport contract
// (src/transports/transport.ts) so an SDK `Client` drives a QuickJS server exactly like a stdio
// one. Messages cross as JSON strings.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { TrailblazeError } from "../src/errors.ts";
import type { ManagedTransport, ServerPhase } from "../src/transports/transport.ts";

/** What the transport needs from the server that owns the VM. */
export interface GuestChannel {
  /** Delivers one message into the guest (synchronously runs the guest until it is idle). */
  toGuest(message: JSONRPCMessage): void;
  /** Closes the server (idempotent); calls back `closed()` on this transport. */
  close(): Promise<void>;
  /** Why the server stopped unasked (see ManagedTransport.failure). */
  failure(phase: ServerPhase): Promise<TrailblazeError>;
  /** The guest console tail. */
  diagnostics(): readonly string[];
}

export class QuickJsHostTransport implements ManagedTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly pid = undefined;
  private started = false;
  private done = false;
  /** Guest→host messages wait here until the guest is idle, then go out in order. */
  private readonly outbox: JSONRPCMessage[] = [];
  private flushing = false;

  constructor(
    readonly name: string,
    private readonly channel: GuestChannel,
  ) {}

  async start(): Promise<void> {
    if (this.started) {
      throw new Error("QuickJsHostTransport already started! If using Client class, note that connect() calls start() automatically.");
    }
    this.started = true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.channel.toGuest(message);
  }

  async close(): Promise<void> {
    await this.channel.close();
  }

  /** In-process there is no grace period to skip: the same as `close()`. */
  terminate(): Promise<void> {
    return this.channel.close();
  }

  failure(phase: ServerPhase): Promise<TrailblazeError> {
    return this.channel.failure(phase);
  }

  diagnostics(): readonly string[] {
    return this.channel.diagnostics();
  }

  readonly diagnosticsSource = "guest console";

  /** Queues a message for `onmessage`; delivered asynchronously so the client never re-enters the guest. */
  fromGuest(message: JSONRPCMessage): void {
    if (this.done) return;
    this.outbox.push(message);
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => {
      this.flushing = false;
      while (this.outbox.length > 0 && !this.done) this.onmessage?.(this.outbox.shift()!);
    });
  }

  error(error: Error): void {
    if (!this.done) this.onerror?.(error);
  }

  /** Called by the server once it is closed: delivers queued messages, then reports the close. */
  closed(): Promise<void> {
    if (this.done) return Promise.resolve();
    this.done = true;
    return new Promise((resolve) =>
      queueMicrotask(() => {
        for (const message of this.outbox.splice(0)) this.onmessage?.(message);
        this.onclose?.();
        resolve();
      }),
    );
  }
}
