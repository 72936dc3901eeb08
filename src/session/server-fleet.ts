// The servers of one session: which of the target's servers it starts (and why the others are
// skipped in its agent mode), starting them in parallel, then keeping them in config order for
// the rest of the session: supervised (restart, re-listing, death), asked when a source can take
// calls, and closed together. What their tools become in the session is tool-assembly.ts's.

import { SessionStartError } from "../errors.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { skipReason, type LaunchContext, type LauncherTable, type SkippedServer } from "../servers/launch.ts";
import { targetServers } from "../servers/per-file-servers.ts";
import { SupervisedServer, type SupervisorHooks } from "../servers/supervised-server.ts";
import type { SessionSpec } from "./session-spec.ts";

/** The target's servers for one session: those it starts, and those it skips with why. */
export interface FleetPlan {
  start: ResolvedServer[];
  skipped: { server: ResolvedServer; why: SkippedServer }[];
}

/** Splits the target's `mcp_servers:` into those this agent mode starts and those it skips. */
export async function planFleet(spec: SessionSpec, launchers: LauncherTable): Promise<FleetPlan> {
  const plan: FleetPlan = { start: [], skipped: [] };
  for (const server of await targetServers(spec.target, spec.root, spec.cwd)) {
    const why = skipReason(server, spec.agent, launchers);
    if (why) plan.skipped.push({ server, why });
    else plan.start.push(server);
  }
  return plan;
}

export class ServerFleet implements AsyncDisposable {
  /** In config order, not the order the launches finished in. */
  readonly servers: readonly SupervisedServer[];

  private constructor(servers: SupervisedServer[]) {
    this.servers = servers;
  }

  /**
   * Starts every server in parallel. When any fails, those that started are closed and the
   * failure is thrown; the same failure from every server (e.g. no runtime on PATH) once.
   */
  static async launch(
    servers: readonly ResolvedServer[],
    spec: SessionSpec,
    launchers: LauncherTable,
    context: LaunchContext,
  ): Promise<ServerFleet> {
    const started = await Promise.allSettled(
      servers.map((server) => SupervisedServer.launch(server, spec, launchers[server.kind][spec.agent]!, context)),
    );
    const failures = [
      ...new Map(
        started
          .filter((r): r is PromiseRejectedResult => r.status === "rejected")
          .map((r) => [r.reason instanceof Error ? r.reason.message : String(r.reason), r.reason]),
      ).values(),
    ];
    const running = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    if (failures.length > 0) {
      await Promise.allSettled(running.map((server) => server.close()));
      throw failures.length === 1 ? failures[0] : new SessionStartError(failures);
    }
    return new ServerFleet(running);
  }

  /** Starts watching every server (deaths, tools/list_changed, log messages), once their first tool lists are registered. */
  activate(hooks: SupervisorHooks): void {
    for (const server of this.servers) server.activate(hooks);
  }

  /** For a source being restarted (or re-listed), a promise that settles once it can take calls; undefined when it can now. */
  ready(source: string): Promise<void> | undefined {
    return this.#find(source)?.ready();
  }

  /** The recent output of the server behind `source` (stderr tail, or guest console tail); empty for a built-in. */
  diagnostics(source: string): readonly string[] {
    return this.#find(source)?.current.connection.diagnostics() ?? [];
  }

  /**
   * Marks where the output (stderr, or the guest console) of the server behind `source` is now;
   * the function returned gives what it wrote from there, once what it wrote before its last
   * answer is in. Undefined for a source that is no server (a built-in).
   */
  watchOutput(source: string): (() => Promise<readonly string[]>) | undefined {
    const connection = this.#find(source)?.current.connection;
    if (!connection) return undefined;
    const mark = connection.outputMark();
    return () => connection.outputSince(mark);
  }

  /** PIDs of every subprocess started, restarts included (for leak checks). */
  pids(): number[] {
    return this.servers.flatMap((s) => s.pids);
  }

  /** PIDs of the server processes running now (each leads its own process group). */
  runningPids(): number[] {
    return this.servers.flatMap(({ current }) => (current.pid === undefined || current.connection.death ? [] : [current.pid]));
  }

  /** Closes every server in parallel (calls in flight are cancelled first); idempotent. */
  async close(): Promise<void> {
    await Promise.allSettled(this.servers.map((s) => s.close()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #find(source: string): SupervisedServer | undefined {
    return this.servers.find((s) => s.server.display === source);
  }
}
