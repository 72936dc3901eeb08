// A running session: owns every server it started (in parallel), the registry
// they registered into, the dispatcher, and teardown. A server that dies
// mid-session makes the session fatal; `close()` reaps everything exactly once.

import { relative } from "node:path";
import { SessionStartError } from "../errors.ts";
import { resolveTargetServers, unknownToolsetRefs } from "../config/workspace.ts";
import { formatProblem } from "../errors.ts";
import { Dispatcher, type CallRecord } from "../dispatcher/dispatcher.ts";
import { ExecuteBridge } from "../dispatcher/execute-bridge.ts";
import { ToolRegistry, type RegisteredTool } from "../registry/registry.ts";
import { registerMcpTools } from "../registry/register-mcp-tools.ts";
import type { LaunchedServer, Launcher, ResolvedServer } from "../servers/launch.ts";
import { buildContext } from "./context.ts";
import type { SessionSpec } from "./session-spec.ts";

export interface SessionOptions {
  /** Launcher per agent mode; host uses stdio subprocesses, on-device QuickJS. */
  launchers: { host: Launcher; "on-device": Launcher };
  /** Built-in tools, registered before any server so collisions name them. */
  builtins?: RegisteredTool[];
  onWarning?(message: string): void;
  /** Non-fatal notices (e.g. a server skipped in this agent mode). */
  onNotice?(message: string): void;
  onCall?(record: CallRecord): void;
}

export class Session implements AsyncDisposable {
  readonly spec: SessionSpec;
  readonly registry = new ToolRegistry();
  readonly dispatcher: Dispatcher;
  readonly #servers: LaunchedServer[] = [];
  readonly #abort = new AbortController();
  #fatal: Error | undefined;
  readonly #fatalListeners: ((error: Error) => void)[] = [];
  #closed: Promise<void> | undefined;
  readonly #closedListeners: (() => void)[] = [];

  private constructor(spec: SessionSpec, options: SessionOptions) {
    this.spec = spec;
    this.dispatcher = new Dispatcher(this.registry, {
      context: () =>
        buildContext(
          { platform: spec.driver.platform, widthPixels: spec.screen.width, heightPixels: spec.screen.height, driverType: spec.driver.key },
          spec.memory.snapshot(),
        ),
      ...(options.onCall ? { onCall: options.onCall } : {}),
    });
  }

  /**
   * Starts every server of the target in parallel and registers their tools in config order.
   * On any failure everything already started is closed before the error is thrown.
   */
  static async start(spec: SessionSpec, options: SessionOptions): Promise<Session> {
    const session = new Session(spec, options);
    try {
      await session.#start(options);
      return session;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  async #start(options: SessionOptions): Promise<void> {
    const warn = options.onWarning ?? (() => {});
    for (const tool of options.builtins ?? []) this.registry.register(tool);

    const servers = resolveTargetServers(this.spec.target, this.spec.cwd);
    const launch = options.launchers[this.spec.agent];
    const bridge = new ExecuteBridge(this.registry, this.dispatcher);
    const context = { signal: this.#abort.signal, execute: bridge.execute.bind(bridge) };
    const started = await Promise.allSettled(
      servers.map((server) => launch(server, this.spec, context).then((launched) => {
        this.#servers.push(launched);
        return launched;
      })),
    );
    // The same failure from every server (e.g. no runtime on PATH) is reported once.
    const failures = [
      ...new Map(
        started
          .filter((r): r is PromiseRejectedResult => r.status === "rejected")
          .map((r) => [r.reason instanceof Error ? r.reason.message : String(r.reason), r.reason]),
      ).values(),
    ];
    if (failures.length > 0) throw failures.length === 1 ? failures[0] : new SessionStartError(failures);

    const facts = { driver: this.spec.driver.key, platform: this.spec.driver.platform, agent: this.spec.agent };
    started.forEach((result, index) => {
      const launched = (result as PromiseFulfilledResult<LaunchedServer>).value;
      const server: ResolvedServer = servers[index]!;
      registerMcpTools(this.registry, launched.connection, launched.tools, {
        source: server.display,
        transport: launched.transport,
        session: facts,
        onWarning: warn,
      });
      launched.connection.onDeath((error) => this.#fail(error));
    });
    this.#registerToolsets(warn);
    this.#warnUnknownToolsetRefs(warn);
  }

  #registerToolsets(warn: (message: string) => void): void {
    const platformKey = this.spec.driver.platform.toLowerCase() as "android" | "ios" | "web";
    const enabled = new Set(this.spec.target.platforms[platformKey]?.toolSets ?? []);
    for (const toolset of this.spec.toolsets) {
      let inactiveReason: string | undefined;
      if (toolset.platforms?.length && !toolset.platforms.includes(this.spec.driver.platform)) {
        inactiveReason = `platforms [${toolset.platforms.join(", ")}] exclude ${this.spec.driver.platform}`;
      } else if (toolset.drivers?.length && !toolset.drivers.includes(this.spec.driver.key)) {
        inactiveReason = `drivers [${toolset.drivers.join(", ")}] exclude ${this.spec.driver.key}`;
      } else if (!toolset.alwaysEnabled && !enabled.has(toolset.id)) {
        inactiveReason = `not listed in target ${this.spec.target.id} platforms.${platformKey}.tool_sets and not always_enabled`;
      }
      this.registry.addToolset({
        id: toolset.id,
        description: toolset.description,
        tools: toolset.tools,
        origin: relative(this.spec.cwd, toolset.file) || toolset.file,
        active: inactiveReason === undefined,
        ...(inactiveReason ? { inactiveReason } : {}),
      });
      if (inactiveReason !== undefined) continue;
      for (const name of toolset.tools) {
        if (!this.registry.has(name) && !this.registry.findSkipped(name)) {
          warn(`toolset ${toolset.id} (${relative(this.spec.cwd, toolset.file)}) lists tool ${name}, which no source registered`);
        }
      }
    }
  }

  #warnUnknownToolsetRefs(warn: (message: string) => void): void {
    const known = new Set(this.registry.toolsets().map((t) => t.id));
    for (const problem of unknownToolsetRefs([this.spec.target], known)) {
      warn(formatProblem(problem));
    }
  }

  #fail(error: Error): void {
    if (this.#fatal || this.#closed) return;
    this.#fatal = error;
    for (const listener of this.#fatalListeners) listener(error);
  }

  /** The error that aborted the session (a server died), if any. */
  get fatal(): Error | undefined {
    return this.#fatal;
  }

  onFatal(listener: (error: Error) => void): void {
    this.#fatalListeners.push(listener);
  }

  /** PIDs of every subprocess the session started (for leak checks). */
  pids(): number[] {
    return this.#servers.flatMap((s) => (s.pid === undefined ? [] : [s.pid]));
  }

  /** Runs once every server of the session is closed. */
  onClosed(listener: () => void): void {
    this.#closedListeners.push(listener);
  }

  /** Closes every server in parallel; idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort();
      await Promise.allSettled(this.#servers.map((s) => s.connection.close()));
      for (const listener of this.#closedListeners) listener();
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
