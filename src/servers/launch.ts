// The launcher contract: how a session turns one `mcp_servers:` entry into a
// connected McpConnection. One implementation per transport kind.

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerLimits } from "../config/target-config.ts";
import type { Where } from "../config/yaml-file.ts";
import type { SessionSpec } from "../session/session-spec.ts";
import type { TransportKind } from "../registry/registry.ts";
import type { McpConnection } from "./mcp-connection.ts";
import type { ToolResult } from "../dispatcher/tool-result.ts";

/** Where a server entry is written, for located messages (`targets/x.yaml:4:5 mcp_servers[1].env.TOKEN: …`). */
export interface ServerOrigin {
  where: Where;
  /** Position in `mcp_servers:` (0-based). */
  index: number;
}

/** A server entry with its paths resolved. */
export type ResolvedServer =
  | ({ kind: "script"; /** absolute */ script: string; /** absolute */ bundle?: string; display: string; origin?: ServerOrigin } & ServerLimits)
  | ({
      kind: "command";
      /** As written; `${VAR}` / `${VAR:-default}` are expanded at launch, against the session's env. */
      command: string;
      args: string[];
      env: Record<string, string>;
      /** absolute; default: the session's working directory */
      cwd?: string;
      display: string;
      origin?: ServerOrigin;
    } & ServerLimits);

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
