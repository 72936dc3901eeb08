// A running session: owns every server it started (in parallel), the registry
// they registered into, the dispatcher, and teardown. A server that dies
// mid-session makes the session fatal unless its entry opts into `restart:`;
// tools/list_changed re-registers; `close()` cancels calls in flight and reaps
// everything exactly once.

import { join, relative } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { SessionStartError } from "../errors.ts";
import { unknownToolsetRefs } from "../config/workspace.ts";
import { formatProblem } from "../errors.ts";
import { builtinTools } from "../builtins/index.ts";
import type { EngineScreen } from "../builtins/screen-adapter.ts";
import { isSuccess, type ToolResult } from "../core/tool-result.ts";
import { Dispatcher, type CallRecord, type DispatchOptions } from "../dispatcher/dispatcher.ts";
import { ExecuteBridge } from "../dispatcher/execute-bridge.ts";
import { targetServers } from "../servers/per-file-servers.ts";
import { ToolRegistry, type RegisteredTool } from "../registry/registry.ts";
import { applyFilters, type SessionFacts } from "../registry/filters.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { describeExclusion, exclusionsOf, type Exclusion } from "./exclusions.ts";
import { registerMcpTools } from "../registry/register-mcp-tools.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import { checkToolName, firstWarning, formatNameFinding, scopingFinding, type NameFinding } from "../core/tool-names.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { skipReason, type LaunchedServer, type LauncherTable } from "../servers/launch.ts";
import { DEFAULT_LAUNCHERS } from "../servers/launchers.ts";
import type { ServerLogMessage } from "../servers/mcp-connection.ts";
import { ServerLogFiles } from "../servers/server-log-file.ts";
import { SupervisedServer } from "../servers/supervised-server.ts";
import { buildContext, resolveTargetInfo, type TargetInfo } from "../core/context.ts";
import type { Memory } from "./memory.ts";
import { Secrets } from "../core/secrets.ts";
import { initialMemory, type SessionSpec } from "./session-spec.ts";
import { loadSimulatedScreen } from "./simulated-screen.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import { navigationTools } from "./navigation-tools.ts";
import { sharedBrowser } from "../browser/chromium-browser.ts";
import { WebPage, type WebPageSnapshot } from "../browser/web-page.ts";

/** Why a per-file tool that runs as a host subprocess is not in an on-device session. */
const PER_FILE_HOST_ONLY = "a per-file tool that runs as a host subprocess (runtime: subprocess, or requiresHost: true in its spec)";

export interface SessionOptions {
  /** Launcher per server kind and agent mode. Default: DEFAULT_LAUNCHERS (stdio on the host, QuickJS on-device). */
  launchers?: LauncherTable;
  /** Built-in tools, registered before any server so collisions name them. Default: the framework tools. */
  builtins?: RegisteredTool[];
  /** Problems that do not stop the session; `kind` says what they are about. */
  onWarning?(message: string, kind: SessionWarningKind): void;
  /**
   * Advisory naming findings (convention, length, [TrailmapScopingCheck]) for each server's
   * advertised tools, every time they register. Default: each is passed to `onWarning` once
   * per process (per tool and source, or per `<targetId>@<script>`).
   */
  onNameWarning?(finding: NameFinding, source: string): void;
  /** Non-fatal notices (e.g. a server skipped in this agent mode, a server restarted). */
  onNotice?(message: string): void;
  onCall?(record: CallRecord): void;
  /**
   * Every `notifications/message` a server sends, as it arrives. They are also appended to
   * `<logsDir>/server_log_<server>.jsonl` whether or not this is set.
   */
  onServerLog?(entry: ServerLogEntry): void;
  /** A server's tools were re-registered (after tools/list_changed or a restart). */
  onToolsChanged?(source: string): void;
  /**
   * The session only lists tools and never calls a server's tool (`tools`, `types`, `check`): a
   * QuickJS server whose listing is cached is not started (servers/listing-cache.ts). Default false.
   */
  listOnly?: boolean;
  /**
   * What every output of the session masks: the run's secret values, shared by its sessions and
   * added to when a secret's key is written. Default: the spec's `secrets` alone.
   */
  secrets?: Secrets;
}

/**
 * `meta`: a wrong-typed `_meta["trailblaze/*"]` value; `name`: a naming finding (see
 * `onNameWarning`); `toolset`: a toolset entry no source registered, or a target `tool_sets:`
 * id no toolset defines; `map`: something in the simulated screen's app map that was ignored
 * (an unknown selector field in a waypoint).
 */
export type SessionWarningKind = "meta" | "name" | "toolset" | "map";

/** One MCP log message from a server (also one line of `server_log_<server>.jsonl`). */
export interface ServerLogEntry {
  time: Date;
  /** The server's display name, as tools' `source`. */
  server: string;
  /** debug, info, notice, warning, error, critical, alert or emergency. */
  level: string;
  logger?: string;
  data: unknown;
}

function targetInfo(spec: SessionSpec): TargetInfo {
  const { target } = spec;
  const platform = target.platforms[spec.driver.platform.toLowerCase() as keyof typeof target.platforms];
  // The simulated device has the platform's declared apps installed (as the built-ins are told),
  // so the resolved app id is the first declared one.
  return resolveTargetInfo(
    { id: target.id, ...(target.displayName ? { displayName: target.displayName } : {}), appIds: platform?.appIds ?? [], ...(platform?.baseUrls ? { baseUrls: platform.baseUrls } : {}) },
    { platform: spec.driver.platform },
  );
}

export class Session implements AsyncDisposable {
  readonly spec: SessionSpec;
  readonly registry = new ToolRegistry();
  readonly dispatcher: Dispatcher;
  /** The live memory: the spec's initial values, then every successful call's changes. */
  readonly memory: Memory;
  readonly #servers: SupervisedServer[] = [];
  readonly #options: SessionOptions;
  readonly #abort = new AbortController();
  /** For each top-level call in flight: the unverified checks its tool made through nested calls. */
  readonly #callsInFlight = new Set<string[]>();
  #fatal: Error | undefined;
  readonly #fatalListeners: ((error: Error) => void)[] = [];
  #closed: Promise<void> | undefined;
  readonly #closedListeners: (() => void)[] = [];
  /** What the registration filters need to know about this session. */
  readonly #facts: SessionFacts;
  readonly #exclusions: Exclusion[];
  #simulatedScreen: EngineScreen | undefined;
  /** The session's page in the real browser (spec.browser), opened by the first web_* tool that uses it. */
  readonly web: WebPage | undefined;
  /** `server_log_<server>.jsonl` of each server (capped, written in batches); none with `--no-logging`. */
  readonly #serverLogs: ServerLogFiles | undefined;

  private constructor(spec: SessionSpec, options: SessionOptions) {
    this.spec = spec;
    const { browser } = spec;
    this.web = browser
      ? new WebPage({
          browser: () => sharedBrowser(browser.executable),
          viewport: { width: spec.screen.width, height: spec.screen.height },
          baseDirs: spec.trailDir !== undefined ? [spec.trailDir] : [],
          cwd: spec.cwd,
        })
      : undefined;
    this.#options = options;
    this.#exclusions = exclusionsOf(spec);
    this.#facts = {
      driver: spec.driver.key,
      platform: spec.driver.platform,
      agent: spec.agent,
      excluded: new Map(this.#exclusions.map((e) => [e.name, describeExclusion(spec.target.id, e)])),
    };
    this.memory = initialMemory(spec, options.secrets ?? new Secrets(spec.secrets));
    this.#serverLogs = spec.logsDir === undefined ? undefined : new ServerLogFiles(spec.logsDir, { mask: (text) => this.secrets.mask(text) });
    this.dispatcher = new Dispatcher(this.registry, {
      ready: (source) => this.#servers.find((s) => s.server.display === source)?.ready(),
      context: () =>
        buildContext(
          { platform: spec.driver.platform, widthPixels: spec.screen.width, heightPixels: spec.screen.height, driverType: spec.driver.key },
          this.memory.snapshot(),
          targetInfo(spec),
        ),
      ...(options.onCall ? { onCall: options.onCall } : {}),
    });
  }

  /**
   * Starts every server of the target in parallel and registers their tools in config order.
   * On any failure everything already started is closed before the error is thrown.
   */
  /** What the simulated device shows now (its screen, and its waypoint on an app map); undefined with no screen loaded. */
  get screen(): ScreenState | undefined {
    return this.#simulatedScreen?.state;
  }

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
    const warn = (message: string) => options.onWarning?.(message, "toolset");
    // Built-ins pass the same `_meta` gates as any tool (web_* only on web, android_* only on Android…),
    // and the target's excluded_tools.
    const facts = this.#facts;
    const installedApps = this.spec.target.platforms[this.spec.driver.platform.toLowerCase() as keyof typeof this.spec.target.platforms]?.appIds ?? [];
    const screen = this.spec.simulation ? await loadSimulatedScreen(this.spec.simulation, this.spec.cwd, (message) => options.onWarning?.(message, "map")) : undefined;
    this.#simulatedScreen = screen;
    if (this.spec.browserNote) options.onNotice?.(this.spec.browserNote);
    for (const tool of options.builtins ?? builtinTools({ installedApps, ...(screen ? { screen } : {}), ...(this.web ? { web: this.web } : {}) })) {
      const decision = applyFilters(tool.meta, facts, tool.name);
      if (decision.included) this.registry.register(tool);
      else this.registry.skip({ name: tool.name, source: tool.source, reason: decision.key, detail: decision.reason });
    }
    // The map's shortcuts and trailheads, callable by their ids (collisions are loud, as for any tool).
    for (const tool of await navigationTools(this.spec, screen?.state, (name, args) => this.#nestedCall(name, args), (message) => options.onWarning?.(message, "map"))) {
      this.registry.register(tool);
    }

    if (this.spec.targetChoice) options.onNotice?.(this.spec.targetChoice);
    const launchers = options.launchers ?? DEFAULT_LAUNCHERS;
    const configured = await targetServers(this.spec.target, this.spec.root, this.spec.cwd);
    const servers = configured.filter((server) => {
      const skipped = skipReason(server, this.spec.agent, launchers);
      if (!skipped) return true;
      options.onNotice?.(`${server.display}: ${skipped.detail}`);
      if (server.kind === "script" && server.perFile?.runtime === "subprocess" && this.spec.agent === "on-device") {
        // Per-file tools are known by name without starting them: each is skipped as the host-only tool it is.
        for (const name of server.perFile.tools) {
          this.registry.skip({ name, source: server.display, reason: META_KEYS.requiresHost, detail: PER_FILE_HOST_ONLY });
        }
        return false;
      }
      // Its tools are unknown (it never starts): the whole server is listed as skipped, as "*".
      this.registry.skip({ name: "*", source: server.display, reason: skipped.reason, detail: skipped.detail });
      return false;
    });
    const bridge = new ExecuteBridge((name, args) => this.#nestedCall(name, args));
    const context = {
      signal: this.#abort.signal,
      execute: bridge.execute.bind(bridge),
      mask: (text: string) => this.secrets.mask(text),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      ...(options.listOnly ? { listOnly: true } : {}),
    };
    const started = await Promise.allSettled(
      servers.map((server) => SupervisedServer.launch(server, this.spec, launchers[server.kind][this.spec.agent]!, context).then((supervised) => {
        this.#servers.push(supervised);
        return supervised;
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

    const supervised = started.map((result) => (result as PromiseFulfilledResult<SupervisedServer>).value);
    // Config order from here on (pids(), close), not the order the launches finished in.
    this.#servers.splice(0, this.#servers.length, ...supervised);
    for (const server of supervised) this.#registerServer(server.server, server.current);
    const hooks = {
      register: (server: ResolvedServer, launched: LaunchedServer) => this.#registerServer(server, launched),
      onNotice: (message: string) => options.onNotice?.(message),
      onLog: (server: ResolvedServer, message: ServerLogMessage) => this.#serverLog(server, message),
      onFatal: (error: Error) => this.#fail(error),
      onToolsChanged: (server: ResolvedServer, _tools: Tool[]) => options.onToolsChanged?.(server.display),
    };
    for (const server of supervised) server.activate(hooks);
    this.#registerToolsets(warn);
    this.#warnUnknownToolsetRefs(warn);
    this.#warnUnusedExclusions(warn);
  }

  /** (Re-)registers a server's tool list under its source, through the filters and collision checks. */
  #registerServer(server: ResolvedServer, launched: LaunchedServer): void {
    const facts = this.#facts;
    this.registry.unregisterSource(server.display);
    try {
      registerMcpTools(this.registry, launched.connection, launched.tools, {
        source: server.display,
        transport: launched.transport,
        session: facts,
        onWarning: (message) => this.#options.onWarning?.(message, "meta"),
      });
    } catch (error) {
      // Half a tool list is worse than none: the session is failing anyway.
      this.registry.unregisterSource(server.display);
      throw error;
    }
    this.#checkNames(server, launched.tools.map((tool) => tool.name));
  }

  /** Advisory naming findings for every advertised tool (filtered ones too); built-ins are exempt. */
  #checkNames(server: ResolvedServer, names: readonly string[]): void {
    const identity = server.kind === "script" ? server.script : server.display;
    const findings = names.flatMap((name) => checkToolName(name).map((finding) => ({ finding, key: `${finding.rule}:${name}@${identity}` })));
    // Only a target's own scripts are held to its prefix: command: servers are often third-party.
    const scoping = server.kind === "script" ? scopingFinding(this.spec.target.id, names) : undefined;
    if (scoping) findings.push({ finding: scoping, key: `${this.spec.target.id}@${identity}` });
    for (const { finding, key } of findings) {
      if (this.#options.onNameWarning) this.#options.onNameWarning(finding, server.display);
      else if (firstWarning(key)) this.#options.onWarning?.(formatNameFinding(finding, server.display), "name");
    }
  }

  #serverLog(server: ResolvedServer, message: ServerLogMessage): void {
    // Secrets are masked before the message is kept anywhere: a server may log what it was given.
    const entry: ServerLogEntry = { time: new Date(), server: server.display, ...this.secrets.maskValue(message) };
    this.#serverLogs?.write(server.display, { ...entry, time: entry.time.toISOString() });
    this.#options.onServerLog?.(entry);
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

  /** An excluded_tools entry no source advertised excludes nothing: likely a misspelt name. */
  #warnUnusedExclusions(warn: (message: string) => void): void {
    for (const exclusion of this.#exclusions) {
      if (this.registry.findSkipped(exclusion.name)) continue;
      const hint = didYouMean(exclusion.name, this.registry.names());
      warn(`${describeExclusion(this.spec.target.id, exclusion, exclusion.name)}, but no source advertises a tool of that name, so it excludes nothing${hint}`);
    }
  }

  #fail(error: Error): void {
    if (this.#fatal || this.#closed) return;
    this.#fatal = error;
    for (const listener of this.#fatalListeners) listener(error);
  }

  /**
   * One tool call through the dispatcher, then its memory changes applied when it succeeded: the
   * one way trails, `trailblaze mcp` and nested `trailblaze.execute` calls reach a tool.
   * Throws ToolNotFoundError for an unknown name; every other failure is a ToolResult.
   */
  async call(name: string, args: Record<string, unknown> = {}, options: DispatchOptions = {}): Promise<ToolResult> {
    const nested: string[] = [];
    this.#callsInFlight.add(nested);
    let result: ToolResult;
    try {
      result = await this.#dispatch(name, args, options);
    } finally {
      this.#callsInFlight.delete(nested);
    }
    // A check the tool made through ctx.tools that could not be verified leaves the call unverified too.
    if (isSuccess(result) && result.unverified === undefined && nested.length > 0) result = { ...result, unverified: nested.join("; ") };
    return result;
  }

  /** A call a tool makes (ctx.tools, trailblaze.execute): as `call`, and its unverified checks count for the calls in flight. */
  async #nestedCall(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const result = await this.#dispatch(name, args);
    if (isSuccess(result) && result.unverified !== undefined) {
      for (const nested of this.#callsInFlight) nested.push(`${name} (through ctx.tools): ${result.unverified}`);
    }
    return result;
  }

  /** Dispatches one call and applies the memory changes of a success: the one place memory is written back. */
  async #dispatch(name: string, args: Record<string, unknown>, options: DispatchOptions = {}): Promise<ToolResult> {
    const result = await this.dispatcher.dispatch(name, args, options);
    if (isSuccess(result)) this.memory.apply(result.memoryDelta, result.memoryDeletions);
    return result;
  }

  /** What everything the session writes masks (secret values, as `***`). */
  get secrets(): Secrets {
    return this.memory.secrets;
  }

  /** The recent output of the server behind `source` (stderr tail, or guest console tail); empty for built-ins. */
  diagnostics(source: string): readonly string[] {
    return this.#servers.find((s) => s.server.display === source)?.current.connection.diagnostics() ?? [];
  }

  /** The simulated device's loaded screen (`--capture`, `--map`, a target's `simulation:`), if any. */
  get simulatedScreen(): EngineScreen | undefined {
    return this.#simulatedScreen;
  }

  /** The error that aborted the session (a server died), if any. */
  get fatal(): Error | undefined {
    return this.#fatal;
  }

  onFatal(listener: (error: Error) => void): void {
    this.#fatalListeners.push(listener);
  }

  /** PIDs of every subprocess the session started, restarts included (for leak checks). */
  pids(): number[] {
    return this.#servers.flatMap((s) => s.pids);
  }

  /** PIDs of the server processes running now (each leads its own process group). */
  runningPids(): number[] {
    return this.#servers.flatMap(({ current }) => (current.pid === undefined || current.connection.death ? [] : [current.pid]));
  }

  /**
   * The web page's state now (URL, title, ARIA outline, a small viewport JPEG), for a report of the
   * step just run; undefined when the session has no real page or no tool has opened it yet.
   */
  pageSnapshot(options: { screenshot?: boolean } = {}): Promise<WebPageSnapshot | undefined> {
    return this.web?.snapshot(options) ?? Promise.resolve(undefined);
  }

  /** Runs once every server of the session is closed. */
  onClosed(listener: () => void): void {
    this.#closedListeners.push(listener);
  }

  /** Closes every server in parallel; idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort();
      await Promise.allSettled([...this.#servers.map((s) => s.close()), this.web?.close()]);
      // After the servers: what they logged while stopping is written too.
      await this.#serverLogs?.close();
      for (const listener of this.#closedListeners) listener();
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
