// The session logs folder, in one place: `<logs>/<sessionId>/` holds a stderr log per
// subprocess, a console log per QuickJS server, the MCP log messages per server and the call log.
// Each file is created when its first line is written: a session that logs nothing leaves nothing.

import { readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

/** Default logs root, under the workspace root. */
export const DEFAULT_LOGS_ROOT = "logs";

/**
 * `<logs>/<sessionId>`: `logsRoot` as typed (relative to `cwd`), else `logs/` at the workspace
 * `root`, so every working directory inside a workspace logs to the same folder.
 */
export function sessionLogsDir(where: { root: string; cwd: string }, sessionId: string, logsRoot?: string): string {
  return logsRoot === undefined ? join(where.root, DEFAULT_LOGS_ROOT, sessionId) : resolve(where.cwd, logsRoot, sessionId);
}

/** A file-name-safe label for a server's log files (at most 100 characters: a command line can be long). */
export function logLabel(source: string): string {
  return source.replace(/\.[cm]?[jt]s$/, "").replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+/, "").slice(0, 100);
}

/** Everything a subprocess server wrote to stderr. */
export function stderrLogFile(logsDir: string, source: string): string {
  return join(logsDir, `subprocess_stderr_${logLabel(source)}.log`);
}

/** Everything a QuickJS server wrote to its `console`. */
export function consoleLogFile(logsDir: string, source: string): string {
  return join(logsDir, `quickjs_console_${logLabel(source)}.log`);
}

/** The MCP `notifications/message` a server sent, one JSON line each. */
export function serverLogFile(logsDir: string, source: string): string {
  return join(logsDir, `server_log_${logLabel(source)}.jsonl`);
}

/** One JSON line per tool call of the session. */
export function callLogFile(logsDir: string): string {
  return join(logsDir, "calls.jsonl");
}

/** A session folder the CLI named (`20261125-041500-a1b2c3`, or `<--test-name>-…`): the stamp it sorts by. */
const GENERATED_SESSION = /(?:^|-)(\d{8}-\d{6}-[0-9a-f]{6})$/;

/** Sessions kept in a logs folder unless TRAILBLAZE_KEEP_LOGS says otherwise (0 keeps all). */
export const DEFAULT_KEEP_SESSIONS = 100;

/**
 * Makes room for one more session in `logsRoot`: removes the oldest folders the CLI named there
 * beyond the newest `keep - 1` (`keep` 0 removes nothing). Folders named otherwise (a
 * `--session-id`, anything a user put there) are never touched.
 */
export function pruneSessionLogs(logsRoot: string, keep: number): void {
  if (keep <= 0) return;
  let names: string[];
  try {
    names = readdirSync(logsRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return;
  }
  const stamped = names.flatMap((name) => {
    const stamp = GENERATED_SESSION.exec(name)?.[1];
    return stamp === undefined ? [] : [{ name, stamp }];
  });
  stamped.sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0));
  for (const { name } of stamped.slice(keep - 1)) rmSync(join(logsRoot, name), { recursive: true, force: true });
}
