// The requests a QuickJS server's guest was handed and has not answered: what decides whether a
// delivery runs under a call's deadline or an idle one, which requests a fault fails, and what
// messages name (`tools/call "name"`, the call in flight or the last one).
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isClientRequest } from "./message-kinds.ts";

export interface Pending {
  method: string;
  /** `tools/call "name"`, for messages. */
  label: string;
}

export class InFlight {
  private readonly requests = new Map<RequestId, Pending>();
  /** The last tools/call delivered (`tools/call "name"`), for messages. */
  lastCall: string | undefined;

  /**
   * Follows a message on its way to the guest: a request is in flight from now on (its id is
   * returned); a cancellation takes the request it names out (the SDK sends no reply to it).
   */
  delivering(message: JSONRPCMessage): RequestId | undefined {
    if (isClientRequest(message)) {
      const tool = message.method === "tools/call" ? (message.params as { name?: unknown } | undefined)?.name : undefined;
      const label = typeof tool === "string" ? `${message.method} "${tool}"` : message.method;
      if (typeof tool === "string") this.lastCall = label;
      this.requests.set(message.id, { method: message.method, label });
      return message.id;
    }
    if ("method" in message && message.method === "notifications/cancelled") {
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (cancelled !== undefined) this.requests.delete(cancelled);
    }
    return undefined;
  }

  /** What delivering `message` (the request `id`, if it is one) was doing, for messages. */
  doing(message: JSONRPCMessage, id: RequestId | undefined): string {
    return id === undefined
      ? `handling ${"method" in message ? message.method : "a response"}`
      : `handling ${this.requests.get(id)?.label ?? "a request"}`;
  }

  /** The latest tools/call in flight, if any. */
  latestCall(): Pending | undefined {
    if (this.requests.size === 0) return undefined;
    return [...this.requests.values()].findLast((p) => p.method === "tools/call");
  }

  get(id: RequestId): Pending | undefined {
    return this.requests.get(id);
  }

  has(id: RequestId): boolean {
    return this.requests.has(id);
  }

  delete(id: RequestId): void {
    this.requests.delete(id);
  }

  ids(): RequestId[] {
    return [...this.requests.keys()];
  }

  get size(): number {
    return this.requests.size;
  }

  clear(): void {
    this.requests.clear();
  }
}
