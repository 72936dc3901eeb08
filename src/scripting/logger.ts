// `ctx.logger`: what a tool writes about its own work, as upstream's scripting SDK gives it. In a
// session each line goes two ways: to stderr as `[tool] [level] message {fields}` (the server's
// log file, and the output a failed call shows), and to the Trailblaze client as an MCP log message
// (`notifications/message`, `logger`: the tool's name), kept in `server_log_<server>.jsonl`.
// Outside a session (`fromMeta(meta)` without a logger, a unit test) it writes nothing.
// Pure: runs under bun and bundled into QuickJS, where stderr is the guest console.

/** Upstream's four levels; `warn` is MCP's `warning`. */
export type TrailblazeLogLevel = "debug" | "info" | "warn" | "error";

/** `ctx.logger.info("cache hit", { path })`: never throws, never waits. */
export interface TrailblazeLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** An MCP log message as the SDK's `sendNotification` takes it. */
export interface LogNotification {
  method: "notifications/message";
  params: { level: "debug" | "info" | "warning" | "error"; logger: string; data: unknown };
}

/** Sends one notification to the client; rejects when it cannot (the logger ignores that). */
export type SendLogNotification = (notification: LogNotification) => Promise<void>;

const MCP_LEVEL = { debug: "debug", info: "info", warn: "warning", error: "error" } as const;

/** A logger that drops every line: outside a session, and in `createMockContext`. */
export const noopLogger: TrailblazeLogger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
});

function fieldsText(fields: Record<string, unknown>): string {
  try {
    return JSON.stringify(fields);
  } catch {
    return String(fields);
  }
}

/** The logger of one call of tool `toolName`: stderr, and `send` to the client when given. */
export function callLogger(toolName: string, send?: SendLogNotification): TrailblazeLogger {
  const log = (level: TrailblazeLogLevel) => (message: string, fields?: Record<string, unknown>) => {
    console.error(`[${toolName}] [${level}] ${message}${fields ? ` ${fieldsText(fields)}` : ""}`);
    if (!send) return;
    const data = fields ? { message, fields } : message;
    try {
      send({ method: "notifications/message", params: { level: MCP_LEVEL[level], logger: toolName, data } }).catch(() => {});
    } catch {
      // A line the client cannot take is still on stderr.
    }
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
