// The host side of a QuickJS server running on a worker thread: the transport contract
// (src/transports/transport.ts, through quickjs-transport.ts) over the thread's messages, so an SDK `Client` drives it as it
// drives an in-thread server. Console lines are mirrored here for diagnostics().
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SandboxError, type TrailblazeError } from "../../src/errors.ts";
import type { ServerPhase } from "../../src/transports/transport.ts";
import { ConsoleTail } from "../console-tail.ts";
import { QuickJsTransport } from "../quickjs-transport.ts";
import type { WireError } from "./thread-protocol.ts";

/** What the transport needs from the pool that owns the thread. */
interface ThreadChannel {
  send(message: JSONRPCMessage): void;
  /** Asks the thread to close the server; settles once it reports `closed`. */
  close(): Promise<void>;
}

export function fromWire(error: WireError): Error {
  const copy = error.kind ? new SandboxError(error.message, error.kind) : new Error(error.message);
  if (!error.kind) copy.name = error.name;
  return copy;
}

export class QuickJsThreadTransport extends QuickJsTransport {
  private fatal: Error | undefined;
  private failures: Record<ServerPhase, WireError> | undefined;
  private readonly consoleTail: ConsoleTail;

  constructor(
    name: string,
    private readonly channel: ThreadChannel,
    consoleTail = new ConsoleTail(),
  ) {
    super(name, "QuickJsThreadTransport", channel, consoleTail);
    this.consoleTail = consoleTail;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.fatal) throw this.fatal;
    if (this.done) throw new SandboxError(`QuickJS server "${this.name}" is closed`, "closed");
    this.channel.send(message);
  }

  async failure(phase: ServerPhase): Promise<TrailblazeError> {
    const failure = this.failures?.[phase];
    if (failure) return fromWire(failure) as TrailblazeError;
    return new SandboxError(`QuickJS server "${this.name}" stopped unexpectedly`, "closed");
  }

  /** A console line of the guest (the pool also hands it to onLog); kept as in-thread (console-tail.ts). */
  logged(level: string, text: string): void {
    this.consoleTail.push(level, text);
  }

  fromThread(message: JSONRPCMessage): void {
    if (!this.done) this.onmessage?.(message);
  }

  /** The server closed on its thread (or the thread is gone): reports the close once. */
  closed(fatal: WireError | undefined, failures: Record<ServerPhase, WireError>): void {
    if (this.done) return;
    this.done = true;
    this.fatal = fatal && fromWire(fatal);
    this.failures = failures;
    this.onclose?.();
  }
}
