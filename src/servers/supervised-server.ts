// One server of a session across its whole life: the first launch, re-listing its tools on
// tools/list_changed, the opt-in restart after a crash, and the wait calls make while a
// restart is under way. What "register" means is the session's business (hooks).

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ServerFailedError } from "../errors.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import type { LaunchContext, LaunchedServer, Launcher, LaunchSpec, ServerConnection } from "./launch.ts";
import type { ServerLogMessage } from "./mcp-connection.ts";

export interface SupervisorHooks {
  /** Replaces the server's tools in the session (filters and collision checks); throws to fail the server. */
  register(server: ResolvedServer, launched: LaunchedServer): void;
  /** Non-fatal news: a restart. */
  onNotice(message: string): void;
  onLog(server: ResolvedServer, message: ServerLogMessage): void;
  /** The server is gone for good (no restart configured, attempts used up, or its tools could not be registered). */
  onFatal(error: Error): void;
  /** Its tools were re-listed and re-registered (after tools/list_changed or a restart). */
  onToolsChanged(server: ResolvedServer, tools: Tool[]): void;
}

export class SupervisedServer {
  readonly server: ResolvedServer;
  readonly #spec: LaunchSpec;
  readonly #launch: Launcher;
  readonly #context: LaunchContext;
  #launched: LaunchedServer;
  #hooks: SupervisorHooks | undefined;
  readonly #pids: number[] = [];
  #restarts = 0;
  #restarting: Promise<void> | undefined;
  #refreshing: Promise<void> = Promise.resolve();
  #refreshQueued = false;
  #closed = false;

  private constructor(server: ResolvedServer, spec: LaunchSpec, launch: Launcher, context: LaunchContext, launched: LaunchedServer) {
    this.server = server;
    this.#spec = spec;
    this.#launch = launch;
    this.#context = context;
    this.#launched = launched;
    this.#track(launched);
  }

  /** Launches the server once; rejects with the launcher's error. */
  static async launch(server: ResolvedServer, spec: LaunchSpec, launch: Launcher, context: LaunchContext): Promise<SupervisedServer> {
    return new SupervisedServer(server, spec, launch, context, await launch(server, spec, context));
  }

  /** The server as currently running (a new one after each restart). */
  get current(): LaunchedServer {
    return this.#launched;
  }

  /** Every process id this server has had, restarts included. */
  get pids(): readonly number[] {
    return this.#pids;
  }

  /**
   * Starts watching the running server, once the session has registered its first tool list:
   * deaths (restart or fatal), tools/list_changed (re-list and re-register), log messages.
   */
  activate(hooks: SupervisorHooks): void {
    this.#hooks = hooks;
    this.#watch(this.#launched.connection);
  }

  /** While a restart is under way, settles when it is over; undefined when calls can go ahead. */
  ready(): Promise<void> | undefined {
    return this.#restarting;
  }

  /** Stops the server (and a restart in progress); in-flight calls are cancelled first. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#restarting;
    await this.#launched.connection.close();
  }

  #track(launched: LaunchedServer): void {
    if (launched.pid !== undefined) this.#pids.push(launched.pid);
  }

  #watch(connection: ServerConnection): void {
    const hooks = this.#hooks!;
    connection.onLog((message) => hooks.onLog(this.server, message));
    connection.onToolsChanged(() => this.#refresh(connection));
    connection.onDeath((error) => this.#died(connection, error));
    // Died between its launch and now (onDeath only reports later deaths).
    if (connection.death) this.#died(connection, connection.death);
  }

  #died(connection: ServerConnection, error: Error): void {
    if (this.#closed || connection !== this.#launched.connection) return;
    const max = this.server.restart?.maxAttempts ?? 0;
    if (max === 0) {
      this.#hooks!.onFatal(error);
      return;
    }
    if (this.#restarts >= max) {
      this.#hooks!.onFatal(withNote(this.server.display, error, `not restarted: restart.max_attempts (${max}) used up`));
      return;
    }
    // Calls in flight at the crash have failed with it; they are never sent again.
    const when = connection.inFlight > 0 ? "the call in flight failed and is not retried" : "no call was in flight";
    const restarting = this.#restart(error, when, max);
    this.#restarting = restarting;
    void restarting.finally(() => {
      if (this.#restarting === restarting) this.#restarting = undefined;
    });
  }

  async #restart(death: Error, when: string, max: number): Promise<void> {
    let last = death;
    while (this.#restarts < max) {
      this.#restarts++;
      this.#hooks!.onNotice(`${firstLine(last.message)}; restarting it (restart ${this.#restarts} of ${max}; ${when})`);
      let launched: LaunchedServer;
      try {
        launched = await this.#launch(this.server, this.#spec, this.#context);
      } catch (error) {
        last = error instanceof Error ? error : new Error(String(error));
        if (this.#closed) return;
        when = "the previous restart failed";
        continue;
      }
      this.#track(launched);
      if (this.#closed) {
        await launched.connection.close();
        return;
      }
      this.#launched = launched;
      try {
        this.#hooks!.register(this.server, launched);
      } catch (error) {
        this.#hooks!.onFatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.#hooks!.onToolsChanged(this.server, launched.tools);
      this.#watch(launched.connection);
      return;
    }
    this.#hooks!.onFatal(withNote(this.server.display, last, `not restarted: restart.max_attempts (${max}) used up`));
  }

  /** Re-lists and re-registers; notifications that arrive meanwhile cause one more pass. */
  #refresh(connection: ServerConnection): void {
    if (this.#refreshQueued) return;
    this.#refreshQueued = true;
    this.#refreshing = this.#refreshing.then(async () => {
      this.#refreshQueued = false;
      if (this.#closed || connection !== this.#launched.connection || connection.death) return;
      let tools: Tool[];
      try {
        tools = await connection.listTools();
      } catch (error) {
        // A server that died while listing is handled by its death; anything else breaks the protocol.
        if (this.#closed || connection.death || connection !== this.#launched.connection) return;
        this.#hooks!.onFatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (this.#closed || connection !== this.#launched.connection) return;
      this.#launched = { ...this.#launched, tools };
      try {
        this.#hooks!.register(this.server, this.#launched);
      } catch (error) {
        this.#hooks!.onFatal(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.#hooks!.onToolsChanged(this.server, tools);
    });
  }
}

function firstLine(message: string): string {
  const end = message.indexOf("\n");
  return end === -1 ? message : message.slice(0, end);
}

/** The same failure with `; note` added to its first line (the stderr tail, if any, stays below). */
function withNote(server: string, error: Error, note: string): ServerFailedError {
  const head = firstLine(error.message);
  return new ServerFailedError(server, `${head}; ${note}${error.message.slice(head.length)}`, { cause: error });
}
