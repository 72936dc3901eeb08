// `trailblaze mcp`: a tools/call for a tool the session does not have, but another target of the
// workspace does, is answered here with which target has it and how to serve it, instead of
// reaching the session's server as an unknown name. Every other message passes through unchanged.

import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { refusedResult } from "../mcp-serve/served-tools.ts";

/**
 * `transport` with tools/call requests answered by `refusal(name)` when it gives a message (an
 * error result, as the server's own refusals are); `refusal` returns undefined to let a call through.
 */
export function answeringUnknownTools(transport: Transport, refusal: (name: string) => string | undefined): Transport {
  const wrapped: Transport = {
    async start() {
      transport.onclose = () => wrapped.onclose?.();
      transport.onerror = (error) => wrapped.onerror?.(error);
      transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
        const refused = isJSONRPCRequest(message) && message.method === "tools/call" ? refusal(String(message.params?.name)) : undefined;
        if (refused === undefined || !isJSONRPCRequest(message)) return wrapped.onmessage?.(message, extra);
        transport
          .send({ jsonrpc: "2.0", id: message.id, result: refusedResult(refused) })
          .catch((error: unknown) => wrapped.onerror?.(error as Error));
      };
      await transport.start();
    },
    send: (message: JSONRPCMessage, options?: TransportSendOptions) => transport.send(message, options),
    close: () => transport.close(),
  };
  return wrapped;
}
