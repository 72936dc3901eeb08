// The one way CLI commands open a session: find and load the workspace, resolve
// flags, start servers with the right launchers, route warnings to stderr, and
// keep the session known to the reaper until it is disposed.

import { dirname, relative } from "node:path";
import { configDirAbove } from "../config/config-dir.ts";
import { findConfigDir, formatWarnings, loadWorkspace, type Workspace } from "../config/workspace.ts";
import { ConfigNotFoundError } from "../errors.ts";
import { pruneSessionLogs } from "../core/log-layout.ts";
import { SCOPING_TAG } from "../core/tool-names.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import { Secrets } from "../core/secrets.ts";
import { CallLog } from "../run/call-log.ts";
import { keepLogs, resolveSessionSpec, type SessionFlags, type SessionSpec, type TrailSessionHints } from "../session/session-spec.ts";
import type { CliIO } from "./command.ts";
import { track } from "./reaper.ts";

type StartSessionOptions = Pick<
  SessionOptions,
  "builtins" | "onCall" | "onWarning" | "onNameWarning" | "onNotice" | "listOnly" | "secrets"
>;

interface OpenSessionOptions extends StartSessionOptions {
  trail?: TrailSessionHints;
}

/**
 * `trailblaze run path/to/workspace/trails` from outside the workspace: when neither
 * --config, $TRAILBLAZE_CONFIG_DIR nor the working directory leads to a config folder, the
 * config folder above the given paths (`trailblaze-config/` or `trails/config/`) is the one to use (a note says so). Paths, reports
 * and logs stay relative to the working directory, as typed; script paths resolve against that
 * workspace's root whatever the working directory. Undefined when nothing changes.
 */
export async function configAbovePaths(
  flags: { config?: string | undefined },
  paths: readonly string[],
  io: CliIO,
): Promise<string | undefined> {
  if (flags.config !== undefined || io.env.TRAILBLAZE_CONFIG_DIR || paths.length === 0) return undefined;
  try {
    await findConfigDir({ cwd: io.cwd });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigNotFoundError)) throw error;
  }
  const configDir = await configDirAbove(paths, io.cwd);
  if (configDir) io.stderr(`note: using ${relative(io.cwd, configDir)}, found above the given paths\n`);
  return configDir;
}

/** Finds and loads the workspace for `--config` / $TRAILBLAZE_CONFIG_DIR / the cwd, printing its warnings. */
export async function loadCliWorkspace(flags: { config?: string | undefined }, io: CliIO): Promise<Workspace> {
  const configDir = await findConfigDir({ flag: flags.config, env: io.env.TRAILBLAZE_CONFIG_DIR, cwd: io.cwd });
  const workspace = await loadWorkspace(configDir, { cwd: io.cwd });
  for (const warning of formatWarnings(workspace)) {
    if (namingWarningsOff(io.env) && warning.includes(SCOPING_TAG)) continue;
    io.stderr(`${warning}\n`);
  }
  return workspace;
}

/** `TRAILBLAZE_NAMING_WARNINGS=off` silences the advisory naming warnings (convention, length, [TrailmapScopingCheck]). */
function namingWarningsOff(env: Record<string, string | undefined>): boolean {
  return env.TRAILBLAZE_NAMING_WARNINGS === "off";
}

/** Logs folders this thread has pruned already (once each, before its first session there). */
const pruned = new Set<string>();

/** Prunes a logs folder (pruneSessionLogs) unless this thread did already. */
export function pruneLogsOnce(folder: string, env: Record<string, string | undefined>): void {
  if (pruned.has(folder)) return;
  pruned.add(folder);
  pruneSessionLogs(folder, keepLogs(env));
}

/** Where a session is kept known until it closes, and whether its logs folder is pruned first. */
export interface SessionKeeping {
  /** Keeps the session known until the function it returns is called; default: the reaper's `track`. */
  track: (session: Session) => () => void;
  /** Prune the logs folder before the first session there (pruneLogsOnce); a worker thread's run pruned it already. Default true. */
  pruneLogs?: boolean;
}

/** Starts a session for a resolved spec, tracked by the reaper (or `keeping.track`) until it is closed. */
export async function startSession(
  spec: SessionSpec,
  io: CliIO,
  options: StartSessionOptions = {},
  keeping: SessionKeeping = { track },
): Promise<Session> {
  if (spec.logsDir !== undefined && keeping.pruneLogs !== false) pruneLogsOnce(dirname(spec.logsDir), io.env);
  const session = await Session.start(spec, {
    ...(options.builtins ? { builtins: options.builtins } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    ...(options.onNameWarning ? { onNameWarning: options.onNameWarning } : namingWarningsOff(io.env) ? { onNameWarning: () => {} } : {}),
    onWarning: options.onWarning ?? ((message) => io.stderr(`warning: ${message}\n`)),
    onNotice: options.onNotice ?? ((message) => io.stderr(`note: ${message}\n`)),
    ...(options.listOnly ? { listOnly: true } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const untrack = keeping.track(session);
  session.onClosed(untrack);
  return session;
}

/**
 * A command's session (`tools`, `call`, `types`, `mcp`) with the workspace it came from and its call
 * log: disposing it closes the session, then writes the rest of `calls.jsonl`.
 */
interface CommandSession extends AsyncDisposable {
  session: Session;
  workspace: Workspace;
}

/**
 * Opens the session of a command that runs no trail (or, with `options.trail`, mcp's `--trail`):
 * target, driver and agent as every command resolves them, its calls logged to
 * `<logs>/<session>/calls.jsonl` as a run's are, masked with the session's secrets.
 */
export async function openCommandSession(
  flags: SessionFlags & { config?: string },
  io: CliIO,
  options: OpenSessionOptions = {},
): Promise<CommandSession> {
  const workspace = await loadCliWorkspace(flags, io);
  const spec = resolveSessionSpec(workspace, flags, { cwd: io.cwd, env: io.env, ...(options.trail ? { trail: options.trail } : {}) });
  // The run's secrets: `--secret` values (each session binds them afresh) and every value a secret's key is set to.
  const secrets = options.secrets ?? new Secrets();
  const callLog = new CallLog(spec.logsDir, secrets, {});
  const onCall = options.onCall;
  let session: Session;
  try {
    session = await startSession(options.secrets ? { ...spec, secrets: options.secrets.given } : spec, io, {
      ...options,
      secrets,
      onCall: (record) => {
        callLog.write(record);
        onCall?.(record);
      },
    });
  } catch (error) {
    await callLog.close();
    throw error;
  }
  // A session closed some other way (the reaper) still ends its log; disposing waits for the last lines.
  session.onClosed(() => void callLog.close());
  return {
    session,
    workspace,
    async [Symbol.asyncDispose]() {
      try {
        await session.close();
      } finally {
        await callLog.close();
      }
    },
  };
}

/** {@link openCommandSession}'s session alone, its call log ended when the session closes. */
export async function openSession(
  flags: SessionFlags & { config?: string },
  io: CliIO,
  options: OpenSessionOptions = {},
): Promise<Session> {
  return (await openCommandSession(flags, io, options)).session;
}
