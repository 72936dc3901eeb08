// The launcher contract: how a session turns one `mcp_servers:` entry into a
// connected McpConnection. One implementation per transport kind.

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SessionSpec } from "../session/session-spec.ts";
import type { TransportKind } from "../registry/registry.ts";
import type { McpConnection } from "./mcp-connection.ts";
import type { ToolResult } from "../dispatcher/tool-result.ts";

/** A server entry with its paths resolved. */
export type ResolvedServer =
  | { kind: "script"; /** absolute */ script: string; /** absolute */ bundle?: string; display: string; timeoutMs?: number }
  | { kind: "command"; command: string; args: string[]; env: Record<string, string>; cwd?: string; display: string; timeoutMs?: number };

export interface LaunchedServer {
  connection: McpConnection;
  tools: Tool[];
  transport: Exclude<TransportKind, "builtin">;
  /** Process id, when the server is a subprocess. */
  pid?: number;
}

/** What a launcher may use of the session that starts it. */
export interface LaunchContext {
  /** Aborted when the session closes. */
  signal: AbortSignal;
  /** `trailblaze.execute` from a tool of the server `callerSource` (see ExecuteBridge). */
  execute(callerSource: string, name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export type Launcher = (server: ResolvedServer, spec: SessionSpec, context: LaunchContext) => Promise<LaunchedServer>;
