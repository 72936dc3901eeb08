// Stands in for @modelcontextprotocol/sdk/server/stdio.js inside on-device bundles: the author's
// `new StdioServerTransport()` becomes a transport whose messages cross to the QuickJS host as JSON.
// A message JSON.stringify cannot make (a 30 MB answer runs the guest out of memory there) is told
// to the host with a lower bound of its size, so its request fails at once, not at its timeout. A
// tools/call the host sent with its context once gets the context back into its arguments.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CONTEXT_ONCE, hostBridge } from "./host-bridge.ts";

export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;
  private closed = false;

  async start(): Promise<void> {
    if (this.started) {
      throw new Error("StdioServerTransport already started! If using Server class, note that connect() calls start() automatically.");
    }
    this.started = true;
    hostBridge().attach((json) => {
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(json) as JSONRPCMessage;
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.onmessage?.(withContext(message));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("StdioServerTransport is closed");
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const id = "id" in message && !("method" in message) ? message.id : undefined;
      hostBridge().unsent(reason, leastJsonBytes(message), id);
      throw error;
    }
    hostBridge().send(json);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    hostBridge().detach();
    this.onclose?.();
  }
}

/** A tools/call whose context the host sent once (CONTEXT_ONCE): the context back at the end of its arguments, the mark gone. */
function withContext(message: JSONRPCMessage): JSONRPCMessage {
  const marked = message as JSONRPCMessage & {
    [CONTEXT_ONCE]?: unknown;
    params?: { arguments?: Record<string, unknown>; _meta?: { trailblaze?: unknown } };
  };
  if (marked[CONTEXT_ONCE] !== true) return message;
  delete marked[CONTEXT_ONCE];
  const params = marked.params;
  if (params?.arguments && params._meta) params.arguments._trailblazeContext = params._meta.trailblaze;
  return message;
}

/** What JSON.stringify writes something for (it leaves out undefined, functions and symbols as object members). */
const written = (value: unknown) => value === null || ["string", "number", "boolean", "object"].includes(typeof value);

/**
 * A lower bound of the UTF-8 bytes of `value` as JSON, without making it: each string counts its
 * UTF-16 units (each at least one byte) and its quotes, each key written also its colon, each other
 * value written a byte, each object or array its brackets; an object with toJSON counts nothing.
 * Walked once per object (a cycle counts once).
 */
export function leastJsonBytes(value: unknown): number {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "string") bytes += next.length + 2;
    else if (typeof next !== "object" || next === null) bytes += written(next) ? 1 : 0;
    else if (!seen.has(next) && typeof (next as { toJSON?: unknown }).toJSON !== "function") {
      seen.add(next);
      bytes += 2;
      if (Array.isArray(next)) for (const item of next) stack.push(item);
      else
        for (const [key, member] of Object.entries(next)) {
          if (!written(member)) continue;
          bytes += key.length + 3;
          stack.push(member);
        }
    }
  }
  return bytes;
}
