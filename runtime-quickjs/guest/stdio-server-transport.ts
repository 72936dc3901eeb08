// Stands in for @modelcontextprotocol/sdk/server/stdio.js inside on-device bundles: the author's
// `new StdioServerTransport()` becomes a transport whose messages cross to the QuickJS host as JSON.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { hostBridge } from "./host-bridge.ts";

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
      this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("StdioServerTransport is closed");
    hostBridge().send(JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    hostBridge().detach();
    this.onclose?.();
  }
}
