// The one way CLI commands open a session: find and load the workspace, resolve
// flags, start servers with the right launchers, route warnings to stderr, and
// keep the session known to the reaper until it is disposed.

import { findConfigDir, formatWarnings, loadWorkspace, type Workspace } from "../config/workspace.ts";
import { launchStdioServer } from "../servers/stdio-launcher.ts";
import { launchQuickJsServer } from "../servers/quickjs-launcher.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import { resolveSessionSpec, type SessionFlags, type SessionSpec, type TrailSessionHints } from "../session/session-spec.ts";
import type { CliIO } from "./command.ts";
import { track } from "./reaper.ts";

export type StartSessionOptions = Partial<Pick<SessionOptions, "builtins" | "onCall" | "onWarning" | "onNameWarning" | "onNotice">>;

export interface OpenSessionOptions extends StartSessionOptions {
  trail?: TrailSessionHints;
}

export type OpenedSession = Session & AsyncDisposable;

/** Finds and loads the workspace for `--config` / $TRAILBLAZE_CONFIG_DIR / the cwd, printing its warnings. */
export async function loadCliWorkspace(flags: { config?: string | undefined }, io: CliIO): Promise<Workspace> {
  const configDir = await findConfigDir({ flag: flags.config, env: io.env.TRAILBLAZE_CONFIG_DIR, cwd: io.cwd });
  const workspace = await loadWorkspace(configDir, { cwd: io.cwd });
  for (const warning of formatWarnings(workspace)) io.stderr(`${warning}\n`);
  return workspace;
}

/** Starts a session for a resolved spec, tracked by the reaper until it is closed. */
export async function startSession(spec: SessionSpec, io: CliIO, options: StartSessionOptions = {}): Promise<Session> {
  const session = await Session.start(spec, {
    launchers: { host: launchStdioServer, "on-device": launchQuickJsServer },
    ...(options.builtins ? { builtins: options.builtins } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    ...(options.onNameWarning ? { onNameWarning: options.onNameWarning } : {}),
    onWarning: options.onWarning ?? ((message) => io.stderr(`warning: ${message}\n`)),
    onNotice: options.onNotice ?? ((message) => io.stderr(`note: ${message}\n`)),
  });
  const untrack = track(session);
  session.onClosed(untrack);
  return session;
}

export async function openSession(
  flags: SessionFlags & { config?: string },
  io: CliIO,
  options: OpenSessionOptions = {},
): Promise<Session> {
  const workspace = await loadCliWorkspace(flags, io);
  const spec = resolveSessionSpec(workspace, flags, { cwd: io.cwd, env: io.env, ...(options.trail ? { trail: options.trail } : {}) });
  return startSession(spec, io, options);
}
