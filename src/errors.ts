// Local error hierarchy: one small class per failure, each with a stable `code`
// and the exit code the CLI uses for it (1 = a step/call/check failed,
// 2 = usage, configuration or environment). Errors that cross the MCP wire are
// not here: they are mapped into ToolResult variants by the dispatcher.

type ExitCode = 1 | 2;

export class TrailblazeError extends Error {
  readonly code: string = "TRAILBLAZE_ERROR";
  readonly exitCode: ExitCode = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The base of one kind of error: its stable `code` and its exit code, so that a class reads
 * `class UsageError extends errorKind("USAGE", 2) {}`. A class whose exit code depends on the case
 * (ServerExitedError, SandboxError, SessionStartError, LlmError) sets it in its constructor.
 */
function errorKind<Code extends string>(code: Code, exitCode: ExitCode) {
  return class extends TrailblazeError {
    override readonly code: Code = code;
    override readonly exitCode: ExitCode = exitCode;
  };
}

/** One problem at a place in a YAML (or other text) file. */
export interface ConfigProblem {
  file: string;
  /** 1-based; 0 when the problem has no position (e.g. the file is missing). */
  line: number;
  col: number;
  /** Field path such as `mcp_servers[0].script`; empty for the whole document. */
  path: string;
  message: string;
}

export function formatProblem(p: ConfigProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.col}` : p.file;
  return p.path ? `${where} ${p.path}: ${p.message}` : `${where}: ${p.message}`;
}

/** Configuration is invalid; carries every problem found, not just the first. */
export class ConfigError extends errorKind("CONFIG_INVALID", 2) {
  readonly problems: readonly ConfigProblem[];
  constructor(problems: readonly ConfigProblem[], options?: { cause?: unknown }) {
    const lines = problems.map(formatProblem);
    super(lines.length === 1 ? lines[0]! : `${lines.length} configuration problems:\n  ${lines.join("\n  ")}`, options);
    this.problems = problems;
  }
}

/** Bad command-line input. */
export class UsageError extends errorKind("USAGE", 2) {}

/** Neither bun nor node+tsx could be found to run a TypeScript server. */
export class RuntimeNotFoundError extends errorKind("RUNTIME_NOT_FOUND", 2) {}

/** No Chromium to run the real browser on: the message says what to install or set. */
export class BrowserNotFoundError extends errorKind("BROWSER_NOT_FOUND", 2) {}

/** Chromium was found but did not start (or the browser went away); the message carries Chromium's words. */
export class BrowserLaunchError extends errorKind("BROWSER_LAUNCH", 1) {}

/** Facts about a finished (or killed) child process. */
export interface ProcessExit {
  exitCode: number | null;
  signal: string | null;
}

function describeExit(exit: ProcessExit): string {
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.exitCode}`;
}

/** `message` followed by a server's last output lines (`what`: stderr, or the guest console). */
export function withTail(message: string, tail: readonly string[], what = "stderr"): string {
  if (tail.length === 0) return `${message} (no ${what} output)`;
  return `${message}\n--- last ${tail.length} ${what} line(s) ---\n${tail.join("\n")}`;
}

/** The process could not be started at all (ENOENT, EACCES...). */
export class SpawnError extends errorKind("SPAWN_FAILED", 2) {}

/** What a server that never connected its MCP transport is told to do, on either agent. */
const CONNECT_FIX = "make sure it calls server.connect(new StdioServerTransport())";

/**
 * A server's process ended while the session still needed it. Exit 1 (it crashed), except a server
 * that ended cleanly (code 0) during startup without writing one MCP message: it never answered
 * the handshake, which is exit 2 on both agents (`neverConnected`; on-device: SandboxError
 * `not-connected`).
 */
export class ServerExitedError extends errorKind("SERVER_EXITED", 1) {
  override readonly exitCode: ExitCode;
  /** One line, for reporters. */
  readonly shortMessage: string;
  /** It exited cleanly at startup having written no MCP message: it never connected its transport. */
  readonly neverConnected: boolean;
  constructor(
    readonly server: string,
    readonly exit: ProcessExit,
    readonly stderrTail: readonly string[],
    during: string,
    hint?: string,
    options?: { neverConnected?: boolean },
  ) {
    const neverConnected = options?.neverConnected ?? false;
    const short = `MCP server ${server} ${describeExit(exit)} ${during}`;
    const why = neverConnected ? `it wrote no MCP message, so it never answered the handshake: ${CONNECT_FIX}` : undefined;
    const advice = [why, hint].filter((part) => part !== undefined).join("; ");
    super(withTail(advice ? `${short}; ${advice}` : short, stderrTail));
    this.shortMessage = short;
    this.neverConnected = neverConnected;
    this.exitCode = neverConnected ? 2 : 1;
  }
}

/** A server did not finish the MCP handshake (initialize + tools/list) in time. */
export class HandshakeTimeoutError extends errorKind("HANDSHAKE_TIMEOUT", 2) {
  /** @param what what the tail holds: `stderr` (default) or `guest console` */
  constructor(
    server: string,
    timeoutMs: number,
    readonly stderrTail: readonly string[],
    what = "stderr",
  ) {
    super(
      withTail(
        `MCP server ${server} did not complete initialize + tools/list within ${timeoutMs} ms; it was stopped. ` +
          `Make sure it calls server.connect(new StdioServerTransport()) and writes nothing else to stdout.`,
        stderrTail,
        what,
      ),
    );
  }
}

/** A server started but broke the protocol (bad tools/list, endless pagination...). */
export class ProtocolError extends errorKind("PROTOCOL", 2) {}

/** A tool name was asked for that the session does not have. */
export class ToolNotFoundError extends errorKind("TOOL_NOT_FOUND", 2) {
  constructor(
    readonly tool: string,
    readonly suggestions: readonly string[],
    registeredCount: number,
  ) {
    const hint = suggestions.length
      ? `did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
      : `run \`trailblaze tools\` to list the ${registeredCount} registered tool(s)`;
    super(`Unknown tool "${tool}": no registered tool has that name; ${hint}`);
  }
}

/** Two sources advertise the same tool name. */
export class ToolCollisionError extends errorKind("TOOL_COLLISION", 2) {
  readonly sources: readonly [string, string];
  constructor(
    readonly tool: string,
    first: string,
    second: string,
  ) {
    super(
      `Tool name collision: "${tool}" is advertised by both ${first} and ${second}. ` +
        `Tool names are global and registered exactly as advertised; rename the tool in one of the sources.`,
    );
    this.sources = [first, second];
  }
}

/** A source advertises tool names no LLM or MCP client accepts; every bad name of the source is listed. */
export class ToolNameError extends errorKind("TOOL_NAME", 2) {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(
      problems.length === 1
        ? `${source}: ${problems[0]}`
        : `${source} advertises ${problems.length} invalid tool names:\n  ${problems.join("\n  ")}`,
    );
  }
}

/**
 * What went wrong in a QuickJS server: `out-of-memory` and `stuck` (kept running after an
 * interrupt) stop it; `interrupted` (a delivery past its deadline) and `threw` fail one request or
 * its start; `not-connected` (the bundle never called connect), `closed` (used after close or
 * stopped unasked), `limits` (bad options), `leak` (a handle outlived the VM: a host bug), `thread` (the worker
 * thread running it died).
 */
/**
 * `cpu-budget`: the server used more guest time than its budgets allow (outside calls, or in all);
 * `message-too-large`: it wrote a message over max_message_bytes; `limits`: a limit set wrongly.
 */
export type SandboxFailureKind =
  | "out-of-memory"
  | "stuck"
  | "interrupted"
  | "threw"
  | "not-connected"
  | "closed"
  | "limits"
  | "leak"
  | "thread"
  | "cpu-budget"
  | "message-too-large"
  /** quickjs-emscripten is not the release runtime-quickjs/quickjs-internals.ts was written for. */
  | "internals";

/**
 * Something went wrong inside the QuickJS sandbox itself (not in a tool). Exit 1, except
 * `not-connected`: a server that never answered the handshake is exit 2, as on the host.
 */
export class SandboxError extends errorKind("SANDBOX", 1) {
  override readonly exitCode: ExitCode;
  constructor(
    message: string,
    readonly kind: SandboxFailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.exitCode = kind === "not-connected" ? 2 : 1;
  }
}

/** esbuild failed, or a bundle uses something the on-device runtime cannot provide. */
export class BundleError extends errorKind("BUNDLE", 1) {
  /** Every problem is a Node built-in or API the host has: the code runs as a host subprocess. */
  readonly hostOnly: boolean;
  constructor(message: string, options?: ErrorOptions & { hostOnly?: boolean }) {
    super(message, options);
    this.hostOnly = options?.hostOnly ?? (options?.cause instanceof BundleError && options.cause.hostOnly);
  }
}

/** Several servers of one session failed to start; each failure is kept. */
export class SessionStartError extends errorKind("SESSION_START", 1) {
  override readonly exitCode: ExitCode;
  constructor(readonly errors: readonly unknown[]) {
    const lines = errors.map((e) => (e instanceof Error ? e.message : String(e)).replaceAll("\n", "\n    "));
    super(`${errors.length} MCP servers failed to start:\n  - ${lines.join("\n  - ")}`);
    this.exitCode = errors.some((e) => exitCodeOf(e) === 2) ? 2 : 1;
  }
}

/** The exit code for any thrown value: 2 for configuration/usage/environment, else 1. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof TrailblazeError ? error.exitCode : 1;
}

/** No config folder was given or found, or the one given does not exist. */
export class ConfigNotFoundError extends errorKind("CONFIG_NOT_FOUND", 2) {}

/** A `{{key}}` / `${key}` placeholder in a recorded argument names a key memory does not have. */
export class InterpolationError extends errorKind("UNKNOWN_PLACEHOLDER", 1) {
  constructor(
    message: string,
    readonly key: string,
    /** Known keys, closest to `key` first. */
    readonly known: readonly string[],
  ) {
    super(message);
  }
}

/**
 * The runtime stopped a server that broke a limit (e.g. a message over `max_message_bytes`), or
 * gave up restarting it. The session treats it like a server that exited.
 */
export class ServerFailedError extends errorKind("SERVER_FAILED", 1) {
  constructor(
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `init-tool` would overwrite or duplicate something that already exists; nothing was written. */
export class ScaffoldError extends errorKind("SCAFFOLD_EXISTS", 2) {}

/** A screen capture (TrailblazeNode tree, legacy view hierarchy or waypoint capture) is not valid JSON or has the wrong shape. */
export class CaptureError extends errorKind("CAPTURE_INVALID", 2) {
  constructor(
    readonly file: string,
    /** JSON path of the offending value, such as `$.trailblazeNodeTree.children[2].bounds.left`; `$` for the whole document, "" for the file itself (not found, unreadable). */
    readonly jsonPath: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(jsonPath === "" ? `${file}: ${problem}` : `${file}: ${jsonPath}: ${problem}`, options);
  }
}

/** A selector (from `--selector`, a waypoint, a shortcut or a recorded tool call) has the wrong shape. */
export class SelectorError extends errorKind("SELECTOR_INVALID", 2) {
  constructor(
    /** Where the selector came from (`--selector #1`, a waypoint file...). */
    readonly source: string,
    /** The message without the source: `$.androidAccessibility.textRegx: unknown … field`. */
    readonly problem: string,
  ) {
    super(`${source}: ${problem}`);
  }
}

/** A file given to `merge-reports` is not a `run --reporter json` report. */
export class ReportFileError extends errorKind("REPORT_INVALID", 2) {
  constructor(
    readonly file: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${problem}`, options);
  }
}

/** A reporter given by its path (`--reporter ./my-reporter.ts`) that cannot be used: missing, not loading, no default-exported class. */
export class ReporterLoadError extends errorKind("REPORTER_LOAD", 2) {
  constructor(
    /** The path as given. */
    readonly file: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`reporter ${file}: ${problem}`, options);
  }
}

/**
 * The built-in agent's model could not be used: no key, an unknown provider or model, a key the
 * provider refused (exit 2: fix the configuration), or a provider that kept failing or a model
 * that never finished (exit 1). The message names the provider and model, never the key.
 */
export class LlmError extends errorKind("LLM", 1) {
  override readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}
