// A running session: the registry its tools are in, the live memory, and `call`, the one way a
// tool is reached. Starting it loads the simulated screen, assembles the tools
// (tool-assembly.ts) and starts the target's servers (server-fleet.ts); a server that dies
// mid-session makes the session fatal unless its entry opts into `restart:`. `close()` cancels
// calls in flight and closes everything exactly once.

import { builtinTools } from "../builtins/index.ts";
import type { EngineScreen, ScreenActivity } from "../builtins/screen-adapter.ts";
import { isSuccess, type ToolResult } from "../core/tool-result.ts";
import { Dispatcher, type CallRecord, type DispatchOptions } from "../dispatcher/dispatcher.ts";
import { ExecuteBridge } from "../dispatcher/execute-bridge.ts";
import { ToolRegistry, type RegisteredTool } from "../registry/registry.ts";
import type { LauncherTable } from "../servers/launch.ts";
import { DEFAULT_LAUNCHERS } from "../servers/launchers.ts";
import { buildContext, resolveTargetInfo, type TargetInfo } from "../core/context.ts";
import { Secrets } from "../core/secrets.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import { sharedBrowser } from "../browser/chromium-browser.ts";
import { WebPage, type WebPageSnapshot } from "../browser/web-page.ts";
import type { Memory } from "./memory.ts";
import { NestedChecks } from "./nested-checks.ts";
import { navigationTools } from "./navigation-tools.ts";
import { planFleet, ServerFleet } from "./server-fleet.ts";
import { ServerLog, type ServerLogEntry } from "./server-log.ts";
import { initialMemory, type SessionSpec } from "./session-spec.ts";
import { loadSimulatedScreen } from "./simulated-screen.ts";
import { ToolAssembly, type ToolAssemblyOptions } from "./tool-assembly.ts";

export interface SessionOptions extends ToolAssemblyOptions {
  /** Launcher per server kind and agent mode. Default: DEFAULT_LAUNCHERS (stdio on the host, QuickJS on-device). */
  launchers?: LauncherTable;
  /** Built-in tools, registered before any server so collisions name them. Default: the framework tools. */
  builtins?: RegisteredTool[];
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

/** What a call left behind besides its result, taken as it ended (`Session.callWithEvidence`). */
export interface CallEvidence {
  /** What it did on the simulated screen: nodes resolved or acted on, moves, waypoint checks, selectors that missed. None without a simulated screen. */
  screen?: ScreenActivity;
  /**
   * A failed call of a server's tool: the lines that server wrote while the call ran (stderr, or
   * the guest console), in as the transport's `outputSince` says; none when it wrote nothing.
   * Calls to one server at the same time share its lines.
   */
  output?: { source: string; lines: readonly string[] };
}

function targetInfo(spec: SessionSpec): TargetInfo {
  const { target } = spec;
  const platform = target.platforms[spec.driver.platform.toLowerCase() as keyof typeof target.platforms];
  // The simulated device has the platform's declared apps installed (as the built-ins are told),
  // so the resolved app id is the first declared one.
  return resolveTargetInfo(
    {
      id: target.id,
      ...(target.displayName ? { displayName: target.displayName } : {}),
      appIds: platform?.appIds ?? [],
      ...(platform?.baseUrls ? { baseUrls: platform.baseUrls } : {}),
    },
    { platform: spec.driver.platform },
  );
}

export class Session implements AsyncDisposable {
  readonly spec: SessionSpec;
  readonly registry = new ToolRegistry();
  readonly dispatcher: Dispatcher;
  /** The live memory: the spec's initial values, then every successful call's changes. */
  readonly memory: Memory;
  /** The session's page in the real browser (spec.browser), opened by the first web_* tool that uses it. */
  readonly web: WebPage | undefined;
  readonly #options: SessionOptions;
  readonly #tools: ToolAssembly;
  readonly #serverLog: ServerLog;
  /** Started once the tools before them are registered; undefined until then. */
  #fleet: ServerFleet | undefined;
  readonly #abort = new AbortController();
  /** For each call in flight (top-level and nested): what the calls its tool made through ctx.tools checked. */
  readonly #callsInFlight = new Set<NestedChecks>();
  #fatal: Error | undefined;
  readonly #fatalListeners: ((error: Error) => void)[] = [];
  #closed: Promise<void> | undefined;
  readonly #closedListeners: (() => void)[] = [];
  #simulatedScreen: EngineScreen | undefined;

  private constructor(spec: SessionSpec, options: SessionOptions) {
    this.spec = spec;
    this.#options = options;
    const { browser } = spec;
    this.web = browser
      ? new WebPage({
          browser: () => sharedBrowser(browser.executable),
          viewport: { width: spec.screen.width, height: spec.screen.height },
          baseDirs: spec.trailDir !== undefined ? [spec.trailDir] : [],
          cwd: spec.cwd,
        })
      : undefined;
    this.memory = initialMemory(spec, options.secrets ?? new Secrets(spec.secrets));
    this.#tools = new ToolAssembly(this.registry, spec, options);
    this.#serverLog = new ServerLog(spec.logsDir, this.memory.secrets, options.onServerLog);
    this.dispatcher = new Dispatcher(this.registry, {
      ready: (source) => this.#fleet?.ready(source),
      context: (invocationId) =>
        buildContext(
          { sessionId: spec.id, invocationId },
          { platform: spec.driver.platform, widthPixels: spec.screen.width, heightPixels: spec.screen.height, driverType: spec.driver.key },
          this.memory.snapshot(),
          targetInfo(spec),
        ),
      mask: (text) => this.secrets.mask(text),
      // The one place memory is written back: before the call is logged, so the log masks what it made secret.
      settle: (result) => {
        if (isSuccess(result)) this.memory.apply(result.memoryDelta, result.memoryDeletions);
      },
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
      await session.#start();
      return session;
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  async #start(): Promise<void> {
    const { spec } = this;
    const options = this.#options;
    const screen = spec.simulation
      ? await loadSimulatedScreen(spec.simulation, spec.cwd, (message) => options.onWarning?.(message, "map"))
      : undefined;
    this.#simulatedScreen = screen;
    if (spec.browserNote) options.onNotice?.(spec.browserNote);
    const installedApps = spec.target.platforms[spec.driver.platform.toLowerCase() as keyof typeof spec.target.platforms]?.appIds ?? [];
    this.#tools.addBuiltins(
      options.builtins ?? builtinTools({ installedApps, ...(screen ? { screen } : {}), ...(this.web ? { web: this.web } : {}) }),
    );
    this.#tools.addNavigation(
      await navigationTools(
        spec,
        screen?.state,
        (name, args) => this.#nestedCall(name, args),
        (message) => options.onWarning?.(message, "map"),
      ),
    );

    if (spec.targetChoice) options.onNotice?.(spec.targetChoice);
    const launchers = options.launchers ?? DEFAULT_LAUNCHERS;
    const plan = await planFleet(spec, launchers);
    this.#tools.addSkipped(plan.skipped);
    const bridge = new ExecuteBridge((name, args) => this.#nestedCall(name, args));
    const fleet = await ServerFleet.launch(plan.start, spec, launchers, {
      signal: this.#abort.signal,
      execute: bridge.execute.bind(bridge),
      mask: (text: string) => this.secrets.mask(text),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      ...(options.listOnly ? { listOnly: true } : {}),
    });
    this.#fleet = fleet;
    for (const { server, current } of fleet.servers) this.#tools.addServer(server, current);
    fleet.activate({
      register: (server, launched) => this.#tools.addServer(server, launched),
      onNotice: (message) => options.onNotice?.(message),
      onLog: (server, message) => this.#serverLog.write(server.display, message),
      onFatal: (error) => this.#fail(error),
      onToolsChanged: (server) => options.onToolsChanged?.(server.display),
    });
    this.#tools.finish();
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
    const result = await this.#call(name, args, options);
    // What it did on the screen is its own, not the next call's.
    this.#simulatedScreen?.takeActivity();
    return result;
  }

  /** As `call`, with what the call left behind (CallEvidence): a run's report records it beside the result. */
  async callWithEvidence(
    name: string,
    args: Record<string, unknown> = {},
    options: DispatchOptions = {},
  ): Promise<{ result: ToolResult; evidence: CallEvidence }> {
    const tool = this.registry.get(name);
    const output = tool && tool.transport !== "builtin" ? this.#fleet?.watchOutput(tool.source) : undefined;
    // What the screen saw outside any call (a server's trailblaze.execute of its own accord) is not this call's.
    this.#simulatedScreen?.takeActivity();
    const result = await this.#call(name, args, options);
    const evidence: CallEvidence = {};
    const screen = this.#simulatedScreen?.takeActivity();
    if (screen) evidence.screen = screen;
    if (output && !isSuccess(result)) {
      const lines = await output();
      if (lines.length > 0) evidence.output = { source: tool!.source, lines };
    }
    return { result, evidence };
  }

  /** A top-level call: what its nested calls checked decides what it did (nested-checks.ts). */
  async #call(name: string, args: Record<string, unknown>, options: DispatchOptions): Promise<ToolResult> {
    const nested = new NestedChecks();
    this.#callsInFlight.add(nested);
    try {
      return nested.apply(await this.#dispatch(name, args, options));
    } finally {
      this.#callsInFlight.delete(nested);
    }
  }

  /**
   * A call a tool makes (ctx.tools, trailblaze.execute): as `call`, and what it checked counts for
   * the calls in flight; a tool that made calls of its own counts through them (they were noted).
   */
  async #nestedCall(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const own = new NestedChecks();
    this.#callsInFlight.add(own);
    let result: ToolResult;
    try {
      result = await this.#dispatch(name, args);
    } finally {
      this.#callsInFlight.delete(own);
    }
    if (!own.noted) for (const nested of this.#callsInFlight) nested.note(name, result);
    return own.apply(result);
  }

  /** Dispatches one call; a success's memory changes are applied as it settles (see the constructor), before it is logged. */
  #dispatch(name: string, args: Record<string, unknown>, options: DispatchOptions = {}): Promise<ToolResult> {
    return this.dispatcher.dispatch(name, args, options);
  }

  /** What everything the session writes masks (secret values, as `***`). */
  get secrets(): Secrets {
    return this.memory.secrets;
  }

  /**
   * What the simulated device shows now (`--capture`, `--map`, a target's `simulation:`): its
   * screen, and its waypoint on an app map; undefined with no screen loaded.
   */
  get screen(): ScreenState | undefined {
    return this.#simulatedScreen?.state;
  }

  /** The recent output of the server behind `source` (stderr tail, or guest console tail); empty for built-ins. */
  diagnostics(source: string): readonly string[] {
    return this.#fleet?.diagnostics(source) ?? [];
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
    return this.#fleet?.pids() ?? [];
  }

  /** PIDs of the server processes running now (each leads its own process group). */
  runningPids(): number[] {
    return this.#fleet?.runningPids() ?? [];
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

  /** Closes every server and the page in parallel, then the server logs; idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#abort.abort();
      await Promise.allSettled([this.#fleet?.close(), this.web?.close()]);
      // After the servers: what they logged while stopping is written too.
      await this.#serverLog.close();
      for (const listener of this.#closedListeners) listener();
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
