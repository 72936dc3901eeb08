// The launcher contract and table: how a session turns one resolved `mcp_servers:` entry into
// a connected McpConnection, chosen by (server kind, agent mode).

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ResolvedServer } from "../config/script-paths.ts";
import type { DriverInfo } from "../core/drivers.ts";
import type { AgentMode, TransportKind } from "../core/server-kinds.ts";
import type { ToolResult } from "../core/tool-result.ts";
import type { McpConnection } from "./mcp-connection.ts";

/**
 * What a session uses of a started server: its McpConnection, or for a session that only lists
 * tools, a ListedConnection standing in with a listing from the cache (listed-connection.ts).
 */
export type ServerConnection = Pick<
  McpConnection,
  | "name"
  | "handshake"
  | "call"
  | "listTools"
  | "diagnostics"
  | "outputMark"
  | "outputSince"
  | "death"
  | "inFlight"
  | "onDeath"
  | "onLog"
  | "onToolsChanged"
  | "close"
>;

export interface LaunchedServer {
  connection: ServerConnection;
  tools: Tool[];
  transport: Exclude<TransportKind, "builtin">;
  /** Process id, when the server is a subprocess. */
  pid?: number | undefined;
}

/** What a launcher needs of the session it starts a server for (a SessionSpec is one). */
export interface LaunchSpec {
  id: string;
  cwd: string;
  /** The workspace root: build caches live in its `.cache/`. */
  root: string;
  env: Record<string, string | undefined>;
  driver: DriverInfo;
  screen: { width: number; height: number };
  /** `<logs>/<id>`: server logs go here; undefined: none are written. */
  logsDir?: string;
  handshakeTimeoutMs: number;
  callTimeoutMs: number;
}

/** What a launcher may use of the session that starts it. */
export interface LaunchContext {
  /** Aborted when the session closes. */
  signal: AbortSignal;
  /** `trailblaze.execute` from a tool of the server (see ExecuteBridge). */
  execute(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** News that does not stop the server (e.g. it runs from source because precompiling failed). */
  onNotice?(message: string): void;
  /** The session's secrets masked out of `text`: applied to every log line as it is written. */
  mask?(text: string): string;
  /**
   * The session only lists tools and never calls them (`tools`, `types`, `check`): a launcher may
   * answer from a listing cached by an earlier session instead of running the server.
   */
  listOnly?: boolean;
}

export type Launcher = (server: ResolvedServer, spec: LaunchSpec, context: LaunchContext) => Promise<LaunchedServer>;

/** Launchers per server kind and agent mode; a missing one means the kind does not run in that mode. */
export type LauncherTable = Record<ResolvedServer["kind"], Partial<Record<AgentMode, Launcher>>>;

/** A server a session does not start, and why (the entry field that decided it). */
export interface SkippedServer {
  /** `requiresHost` (the entry says so), `runtime` (per-file subprocess tools) or `command` (its kind has no launcher in this mode). */
  reason: string;
  detail: string;
}

/** Why a server is not started in this agent mode, or undefined when it is. */
export function skipReason(server: ResolvedServer, agent: AgentMode, table: LauncherTable): SkippedServer | undefined {
  if (server.kind === "script" && server.perFile?.runtime === "subprocess" && agent === "on-device") {
    return {
      reason: "runtime",
      detail: `per-file tools that run as a host subprocess (runtime: subprocess, or requiresHost: true in the spec): ${server.perFile.tools.join(", ")}; skipped in this on-device session`,
    };
  }
  if (server.kind === "script" && server.requiresHost && agent === "on-device") {
    return { reason: "requiresHost", detail: "host-only script (requiresHost: true); skipped without bundling in this on-device session" };
  }
  if (table[server.kind][agent]) return undefined;
  const other = agent === "on-device" ? "host" : "on-device";
  return { reason: server.kind, detail: `${server.kind}: servers run only with the ${other} agent; skipped in this ${agent} session` };
}
