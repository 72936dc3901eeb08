// Serves one running Session as an MCP server (the SDK's low-level `Server`) over
// any SDK Transport: tools/list shows the served tools, tools/call dispatches
// through Session.call (which applies the memory a Success asks for).

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Session } from "../session/session.ts";
import { refusal, refusedResult, servedTools, toCallToolResult, toMcpTool } from "./served-tools.ts";
import { PACKAGE_VERSION } from "../core/package-version.ts";

export const SERVER_NAME = "trailblaze";
export const SERVER_VERSION = PACKAGE_VERSION;

export interface ServeOptions {
  /** Diagnostics (never the protocol stream). Default: dropped. */
  log?(line: string): void;
}

/** The SDK Server for a session; connect it to a transport with `server.connect`. */
export function createSessionServer(session: Session, options: ServeOptions = {}): Server {
  const { spec, registry } = session;
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        `Trailblaze tools of target ${spec.target.id} for one session ` +
        `(driver ${spec.driver.key}, platform ${spec.driver.platform}, agent ${spec.agent}); ` +
        "session memory persists across calls.",
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: servedTools(registry).map((tool) => toMcpTool(tool, registry)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const refused = refusal(name, registry);
    if (refused !== undefined) {
      options.log?.(`call ${name} refused: ${refused}`);
      return refusedResult(refused);
    }
    const result = await session.call(name, args, { signal: extra.signal });
    return toCallToolResult(result);
  });

  return server;
}

/**
 * Serves `session` on `transport` until the transport closes (the client hung up, or
 * `transport.close()` was called). The session is not closed here: its owner does that.
 */
export async function serveSession(session: Session, transport: Transport, options: ServeOptions = {}): Promise<void> {
  const server = createSessionServer(session, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (error) => options.log?.(`MCP protocol error: ${error.message}`);
  await server.connect(transport);
  await closed;
}
