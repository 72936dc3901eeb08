// The session logs folder, in one place: `<logs>/<sessionId>/` holds a stderr log per
// subprocess, a console log per QuickJS server, the MCP log messages per server and the call log.
// Each file is created when its first line is written: a session that logs nothing leaves nothing.
// The folder is one safe name (`--session-id`) and is checked on its real path before use.

import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { escapesTo } from "./real-path.ts";

/** Default logs root, under the workspace root. */
const DEFAULT_LOGS_ROOT = "logs";

/**
 * A session id names one folder of a logs folder: a single path segment, never `.` or `..`
 * (`--session-id ..` would put calls.jsonl in the workspace root, `a/b` a folder elsewhere).
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Refuses a session id that is not one safe folder name, saying what is allowed (UsageError, exit 2). */
export const isSessionId = (id: string): boolean => SESSION_ID.test(id);

export function checkSessionId(id: string): void {
  if (!isSessionId(id)) {
    throw new UsageError(
      `--session-id must be 1 to 128 letters, digits, ".", "_" and "-", starting with a letter or digit (it names the session's logs folder, e.g. nightly-42); got "${id}"`,
    );
  }
}

/** The names the CLI writes in a session folder (the builders below). */
const LOG_FILE = /^(?:calls\.jsonl|subprocess_stderr_.*\.log|quickjs_console_.*\.log|server_log_.*\.jsonl)$/;

/** The folder session folders go in: `logsRoot` as typed (relative to `cwd`), else `logs/` at the workspace `root`. */
export function logsFolder(where: { root: string; cwd: string }, logsRoot?: string): string {
  return logsRoot === undefined ? join(where.root, DEFAULT_LOGS_ROOT) : resolve(where.cwd, logsRoot);
}

/**
 * `<logs>/<sessionId>`: `logsRoot` as typed (relative to `cwd`), else `logs/` at the workspace
 * `root`, so every working directory inside a workspace logs to the same folder. Checked on the
 * real path, links followed: the session folder stays inside the logs folder (and the default
 * one inside the workspace), and a log file it already holds is not a link to elsewhere; else a
 * UsageError says where it would lead.
 */
export function sessionLogsDir(where: { root: string; cwd: string }, sessionId: string, logsRoot?: string): string {
  checkSessionId(sessionId);
  const folder = logsFolder(where, logsRoot);
  const dir = join(folder, sessionId);
  const bound = logsRoot === undefined ? where.root : folder;
  const escape = escapesTo(bound, dir);
  if (escape !== undefined) {
    const inside = logsRoot === undefined ? `the workspace root ${where.root}` : `the logs folder ${folder}`;
    throw new UsageError(
      `the session's logs folder ${dir} leads outside ${inside} (to ${escape}, through a symbolic link); ` +
        `logs are only written inside it: remove the link, or give another folder with --logs DIR`,
    );
  }
  const linked = linkedLogFiles(dir);
  if (linked.length > 0) {
    throw new UsageError(
      `${join(dir, linked[0]!)} is a symbolic link; the CLI does not write its logs through one. Remove it, or use another --session-id`,
    );
  }
  return dir;
}

/** The log files of an existing session folder that are links (none when it does not exist yet). */
function linkedLogFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => LOG_FILE.test(name) && isLink(join(dir, name)));
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A file-name-safe label for a server's log files (at most 100 characters: a command line can be long). */
function logLabel(source: string): string {
  return source
    .replace(/\.[cm]?[jt]s$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^_+/, "")
    .slice(0, 100);
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
    names = readdirSync(logsRoot, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
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
