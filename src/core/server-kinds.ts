// Words every layer uses for servers and sessions: how a tool is carried (transport kind),
// where the agent runs (agent mode), and a running call's progress.

/** What carries a registered tool's calls: a stdio subprocess, a QuickJS VM, or the runtime itself. */
export type TransportKind = "stdio" | "quickjs" | "builtin";

/** Where the agent runs: on the host (servers are subprocesses) or on the device (servers run in QuickJS). */
export type AgentMode = "host" | "on-device";

/** One progress update of a running tool call (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}
