// The one way CLI commands open a session: find and load the workspace, resolve
// flags, start servers with the right launchers, route warnings to stderr, and
// keep the session known to the reaper until it is disposed.

import { findConfigDir, formatWarnings, loadWorkspace } from "../config/workspace.ts";
import { launchStdioServer } from "../servers/stdio-launcher.ts";
import { launchQuickJsServer } from "../servers/quickjs-launcher.ts";
import { Session, type SessionOptions } from "../session/session.ts";
import { resolveSessionSpec, type SessionFlags, type TrailSessionHints } from "../session/session-spec.ts";
import type { CliIO } from "./command.ts";
import { track } from "./reaper.ts";

export interface OpenSessionOptions extends Partial<Pick<SessionOptions, "builtins" | "onCall">> {
  trail?: TrailSessionHints;
}

export type OpenedSession = Session & AsyncDisposable;

export async function openSession(
  flags: SessionFlags & { config?: string },
  io: CliIO,
  options: OpenSessionOptions = {},
): Promise<Session> {
  const configDir = await findConfigDir({ flag: flags.config, env: io.env.TRAILBLAZE_CONFIG_DIR, cwd: io.cwd });
  const workspace = await loadWorkspace(configDir, { cwd: io.cwd });
  for (const warning of formatWarnings(workspace)) io.stderr(`${warning}\n`);
  const spec = resolveSessionSpec(workspace, flags, { cwd: io.cwd, env: io.env, ...(options.trail ? { trail: options.trail } : {}) });
  const session = await Session.start(spec, {
    launchers: { host: launchStdioServer, "on-device": launchQuickJsServer },
    ...(options.builtins ? { builtins: options.builtins } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    onWarning: (message) => io.stderr(`warning: ${message}\n`),
    onNotice: (message) => io.stderr(`note: ${message}\n`),
  });
  const untrack = track(session);
  session.onClosed(untrack);
  return session;
}
