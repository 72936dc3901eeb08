// Runs an author's bundled MCP server inside QuickJS: one runtime per server with memory, stack
// and per-delivery time limits, exposed to the host as an SDK `Transport`. Owns fault handling:
// a handler past its deadline fails its request and the VM stays usable; running out of memory
// stops the server.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { SandboxError } from "../src/errors.ts";
import { QuickJsHostTransport } from "./host-transport.ts";
import { preludeSource } from "./prelude-source.ts";
import { loadQuickJs, type QuickJsVariant } from "./quickjs-module.ts";
import { Sandbox, isOutOfMemoryText, type GuestError, type LogLevel } from "./sandbox.ts";

export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
export const MAX_STACK_LIMIT_BYTES = 256 * 1024;
export const DEFAULT_CALL_DEADLINE_MS = 10_000;

export interface QuickJsServerOptions {
  /** Names the server in messages and stack traces (e.g. the toolset id or file name). */
  name: string;
  /** The bundle: a classic script (what `bundleEntry` produces, or any esbuild IIFE). */
  code: string;
  /** Guest heap limit in bytes. Default 64 MiB. */
  memoryLimitBytes?: number;
  /** Guest stack limit in bytes. Default and maximum 256 KiB (more breaks the host under Bun/Node). */
  stackLimitBytes?: number;
  /**
   * Longest a single entry into the guest may run, in ms (evaluating the bundle, handling one
   * message, one timer callback, resuming after one `trailblaze.execute`). Renewed for every
   * entry. Also bounds how long the bundle may take to connect its transport. Default 10 000.
   */
  callDeadlineMs?: number;
  /** Receives guest `console` output, one formatted line per call. Default: discarded. */
  onLog?: (level: LogLevel, text: string) => void;
  /**
   * Implements guest `trailblaze.execute(name, args)`: the guest gets a promise of the JSON
   * round-trip of the result; a rejection becomes a guest Error with the same message.
   * Depth capping and re-entry detection are the caller's job. Default: every call rejects.
   */
  onExecute?: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  /** `debug` runs the assertion/leak-checking QuickJS build (tests). Default `release`. */
  variant?: QuickJsVariant;
}

export interface QuickJsServer {
  /** Connect an SDK `Client` to this, as to a stdio transport. */
  readonly transport: Transport;
  /** Guest heap in use, by QuickJS's accounting; 0 once closed. */
  memoryUsage(): { bytes: number };
  /** Stops timers, fails nothing silently (the client sees the close), frees the VM. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } => "method" in m && "id" in m;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => !("method" in m) && "id" in m;

/** A reply the SDK built from QuickJS's out-of-memory exception (it catches handler errors). */
function isOutOfMemoryReply(m: JSONRPCMessage): boolean {
  if ("error" in m) return isOutOfMemoryText(m.error.message);
  if (!("result" in m)) return false;
  const result = m.result as { isError?: unknown; content?: { type?: unknown; text?: unknown }[] };
  const first = result.content?.[0];
  return result.isError === true && result.content?.length === 1 && typeof first?.text === "string" && isOutOfMemoryText(first.text);
}

class QuickJsServerImpl implements QuickJsServer {
  readonly transport: QuickJsHostTransport;
  private readonly sandbox: Sandbox;
  /** Requests delivered to the guest and not answered yet, by id → method. */
  private readonly inFlight = new Map<RequestId, string>();
  private closing: Promise<void> | undefined;
  private fatal: SandboxError | undefined;
  private readonly deadlineMs: number;
  private readonly memoryLimit: number;

  constructor(module: Awaited<ReturnType<typeof loadQuickJs>>, prelude: string, private readonly opts: QuickJsServerOptions) {
    this.deadlineMs = opts.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    this.memoryLimit = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
    this.transport = new QuickJsHostTransport({ toGuest: (m) => this.toGuest(m), close: () => this.close() });
    this.sandbox = new Sandbox(module, {
      memoryLimitBytes: this.memoryLimit,
      stackLimitBytes: opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES,
      callDeadlineMs: this.deadlineMs,
      onLog: opts.onLog ?? (() => {}),
      onExecute: opts.onExecute,
      onGuestMessage: (json) => this.fromGuest(json),
      onDetach: () => void this.close(),
      onAsyncError: (error, what) => this.onGuestError(error, what, undefined),
    });
    this.sandbox.installPrelude(prelude);
  }

  private get label(): string {
    return `QuickJS server "${this.opts.name}"`;
  }

  /** Evaluates the bundle and waits until it connects its transport. */
  async boot(): Promise<void> {
    const { sync, settled } = this.sandbox.evaluate(this.opts.code, `${this.opts.name}.bundle.js`);
    if (sync) throw this.bootError(sync);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      this.sandbox.attached.then(() => ({ error: undefined, timedOut: false })),
      settled.then((error) => ({ error, timedOut: false })),
      new Promise<{ error: undefined; timedOut: boolean }>((resolve) => {
        timer = setTimeout(() => resolve({ error: undefined, timedOut: true }), this.deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    if (outcome.error) throw this.bootError(outcome.error);
    if (!this.sandbox.isAttached) {
      const why = outcome.timedOut ? `did not connect within ${this.deadlineMs} ms` : "finished evaluating without connecting";
      throw new SandboxError(
        `${this.label} ${why}: the bundle must call server.connect(new StdioServerTransport()) (the on-device bundle swaps in the in-process transport)`,
      );
    }
    // Top-level code that fails after connecting is reported out of band.
    void settled.then((error) => error && this.transport.error(this.describe(error, "its bundle's top-level code")));
  }

  private bootError(error: GuestError): SandboxError {
    return this.describe(error, "evaluating its bundle");
  }

  private describe(error: GuestError, during: string): SandboxError {
    switch (error.kind) {
      case "interrupted":
        return new SandboxError(`${this.label}: ${during} was interrupted after ${this.deadlineMs} ms (callDeadlineMs)`);
      case "out-of-memory":
        return new SandboxError(
          `${this.label} ran out of memory while ${during}: the guest heap reached memoryLimitBytes (${this.memoryLimit} bytes); the server was stopped`,
        );
      default: {
        const stack = error.stack.trim();
        return new SandboxError(`${this.label} threw while ${during}: ${error.name}: ${error.message}${stack ? `\n${stack}` : ""}`);
      }
    }
  }

  private toGuest(message: JSONRPCMessage): void {
    if (this.fatal) throw this.fatal;
    if (this.closing || !this.sandbox.alive) throw new SandboxError(`${this.label} is closed`);
    const id = isRequest(message) ? message.id : undefined;
    if (id !== undefined) this.inFlight.set(id, (message as { method: string }).method);
    const error = this.sandbox.deliverMessage(JSON.stringify(message));
    if (error) this.onGuestError(error, id === undefined ? "handling a message" : `handling ${this.inFlight.get(id) ?? "a request"}`, id);
  }

  private fromGuest(json: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(json) as JSONRPCMessage;
    } catch (error) {
      this.transport.error(new SandboxError(`${this.label} sent a message that is not JSON: ${json.slice(0, 200)}`, { cause: error }));
      return;
    }
    if (isResponse(message) && this.inFlight.has(message.id)) {
      if (isOutOfMemoryReply(message)) {
        this.stop(this.describe({ kind: "out-of-memory", name: "InternalError", message: "out of memory", stack: "" }, `handling ${this.inFlight.get(message.id)}`));
        return;
      }
      this.inFlight.delete(message.id);
    }
    this.transport.fromGuest(message);
  }

  /** A guest error escaped a delivery (`id` = the request being delivered, if any). */
  private onGuestError(error: GuestError, during: string, id: RequestId | undefined): void {
    const described = this.describe(error, during);
    if (error.kind === "out-of-memory") {
      this.stop(described);
      return;
    }
    // The job that failed is gone, and with it any reply: answer the implicated requests here.
    const implicated = id !== undefined ? (this.inFlight.has(id) ? [id] : []) : [...this.inFlight.keys()];
    const code = error.kind === "interrupted" ? ErrorCode.RequestTimeout : ErrorCode.InternalError;
    for (const requestId of implicated) this.failRequest(requestId, code, described.message);
    this.transport.error(described);
  }

  private failRequest(id: RequestId, code: number, message: string): void {
    this.inFlight.delete(id);
    this.transport.fromGuest({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /** Fatal: fails every open request with `error`, reports it, disposes the VM. */
  private stop(error: SandboxError): void {
    if (this.fatal) return;
    this.fatal = error;
    for (const id of [...this.inFlight.keys()]) this.failRequest(id, ErrorCode.ConnectionClosed, error.message);
    this.transport.error(error);
    void this.close();
  }

  memoryUsage(): { bytes: number } {
    return { bytes: this.sandbox.alive ? this.sandbox.memoryUsage() : 0 };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.sandbox.dispose();
      this.inFlight.clear();
      await this.transport.closed();
    })();
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Starts an MCP server bundle inside a fresh QuickJS runtime and returns once the bundle has
 * connected its transport. Throws SandboxError (after freeing the VM) if evaluation throws, runs
 * out of memory or time, or never connects.
 */
export async function startQuickJsServer(opts: QuickJsServerOptions): Promise<QuickJsServer> {
  const stack = opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES;
  if (stack > MAX_STACK_LIMIT_BYTES || stack <= 0) {
    throw new SandboxError(`stackLimitBytes must be between 1 and ${MAX_STACK_LIMIT_BYTES} (got ${stack}): larger QuickJS stacks break the host under Bun/Node`);
  }
  const [module, prelude] = await Promise.all([loadQuickJs(opts.variant), preludeSource()]);
  const server = new QuickJsServerImpl(module, prelude, opts);
  try {
    await server.boot();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
