// The host side of the in-process MCP transport: the transport contract (src/transports/transport.ts,
// through quickjs-transport.ts) so an SDK `Client` drives a QuickJS server exactly like a stdio one.
// Messages cross as JSON strings.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { TrailblazeError } from "../src/errors.ts";
import type { ServerPhase } from "../src/transports/transport.ts";
import type { ConsoleTail } from "./console-tail.ts";
import { QuickJsTransport } from "./quickjs-transport.ts";

/** What the transport needs from the server that owns the VM. */
interface GuestChannel {
  /** Delivers one message into the guest (synchronously runs the guest until it is idle). */
  toGuest(message: JSONRPCMessage): void;
  /** Closes the server (idempotent); calls back `closed()` on this transport. */
  close(): Promise<void>;
  /** Why the server stopped unasked (see ManagedTransport.failure). */
  failure(phase: ServerPhase): Promise<TrailblazeError>;
  /** The guest's console lines (kept for failures and for each call's output). */
  readonly console: ConsoleTail;
}

export class QuickJsHostTransport extends QuickJsTransport {
  /** Guest→host messages wait here until the guest is idle, then go out in order. */
  private readonly outbox: JSONRPCMessage[] = [];
  private flushing = false;

  constructor(
    name: string,
    private readonly channel: GuestChannel,
  ) {
    super(name, "QuickJsHostTransport", channel, channel.console);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.channel.toGuest(message);
  }

  failure(phase: ServerPhase): Promise<TrailblazeError> {
    return this.channel.failure(phase);
  }

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
