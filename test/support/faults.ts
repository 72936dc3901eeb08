// Sessions over the fault fixtures (fixtures/faults), with everything they report collected,
// and the leak check every fault test ends with: no process of the test survives, whole groups
// and helpers that left them included.

import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../../src/config/workspace.ts";
import { STDIO_IN_BOTH_MODES } from "./launchers.ts";
import { resolveSessionSpec, type SessionFlags } from "../../src/session/session-spec.ts";
import { Session, type SessionOptions } from "../../src/session/session.ts";
import type { ServerLogEntry } from "../../src/session/server-log.ts";
import { formatNameFinding } from "../../src/core/tool-names.ts";
import { descendants, groupAlive, identityAlive, type ProcessIdentity } from "../../src/transports/stdio/process-group.ts";
import { processAlive } from "./process-alive.ts";
import { procCmdline, procPids } from "../../src/transports/stdio/proc.ts";
import { REPO, TEST_PATH, tempDir } from "./cli.ts";

export const FAULTS = join(REPO, "fixtures/faults");
export const faultLogs = tempDir("fault-logs");

export interface Reported {
  notices: string[];
  warnings: string[];
  /** Naming findings, every time (the default is once per process, which depends on test order). */
  names: string[];
  logs: ServerLogEntry[];
  toolsChanged: string[];
  fatal: Error[];
}

export interface FaultSession {
  session: Session;
  reported: Reported;
}

const opened: Session[] = [];

/** Starts a host session on a fault target; `fatal` collects what aborts it. */
export async function startFaultSession(
  target: string,
  flags: SessionFlags = {},
  env: Record<string, string> = {},
  options: Partial<SessionOptions> = {},
): Promise<FaultSession> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: FAULTS }), { cwd: FAULTS });
  const spec = resolveSessionSpec(
    workspace,
    { logs: faultLogs, target, ...flags },
    {
      cwd: FAULTS,
      env: { ...process.env, PATH: TEST_PATH, ...env },
    },
  );
  const reported: Reported = { notices: [], warnings: [], names: [], logs: [], toolsChanged: [], fatal: [] };
  const session = await Session.start(spec, {
    launchers: STDIO_IN_BOTH_MODES,
    builtins: [],
    onNotice: (message) => reported.notices.push(message),
    onWarning: (message) => reported.warnings.push(message),
    onNameWarning: (finding, source) => reported.names.push(formatNameFinding(finding, source)),
    onServerLog: (entry) => reported.logs.push(entry),
    onToolsChanged: (source) => reported.toolsChanged.push(source),
    ...options,
  });
  session.onFatal((error) => reported.fatal.push(error));
  opened.push(session);
  return { session, reported };
}

/** Closes every session a test file opened (call from afterAll). */
export async function closeFaultSessions(): Promise<void> {
  await Promise.all(opened.map((s) => s.close()));
}

/** Every live process under the given roots (themselves included), for a later leak check. */
export function treeOf(pids: readonly number[]): ProcessIdentity[] {
  return pids.flatMap((pid) => {
    const self = descendants(process.pid).find((p) => p.pid === pid);
    return [...(self ? [self] : []), ...descendants(pid)];
  });
}

/**
 * What is still running of `pids` (each a group leader: its whole group counts) and of `tree`
 * (processes seen earlier, matched by start time). Waits up to `ms` for stragglers to go.
 */
export async function survivors(pids: readonly number[], tree: readonly ProcessIdentity[] = [], ms = 3000): Promise<string[]> {
  const check = () => [
    ...pids.filter((pid) => processAlive(pid) || groupAlive(pid)).map((pid) => `group ${pid}`),
    ...tree.filter(identityAlive).map((p) => `pid ${p.pid}`),
  ];
  const deadline = Date.now() + ms;
  while (check().length > 0 && Date.now() < deadline) await Bun.sleep(50);
  return check();
}

/** Text of a result's first content block. */
export function firstText(result: { content: { type: string; text?: unknown }[] }): string {
  const text = result.content[0]?.text;
  return typeof text === "string" ? text : "";
}

/**
 * Live processes whose command line mentions `fragment` (e.g. a fixture's file name), wherever
 * they were re-parented: the check for servers that never got a session object.
 */
export function processesMentioning(fragment: string): number[] {
  return procPids().filter((pid) => pid !== process.pid && procCmdline(pid)?.includes(fragment) && processAlive(pid));
}
