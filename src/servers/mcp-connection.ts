// One connected MCP server, whatever carries its messages: the SDK Client over a
// Transport (stdio subprocess or QuickJS), with a bounded handshake, paginated
// tools/list, context injection, per-call timeouts with progress and cancellation,
// server notifications (log messages, tools/list_changed), and death detection.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ManagedTransport } from "../transports/transport.ts";
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
  type Implementation,
  type JSONRPCMessage,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { HandshakeTimeoutError, ProtocolError } from "../errors.ts";
import type { ToolProgress } from "../core/server-kinds.ts";
import { CONTEXT_KEY, type TrailblazeContext } from "../core/context.ts";
import { mapCallError, mapCallToolResult } from "../core/result-mapping.ts";
import { exceptionThrown, fatalError, resultToJson, type ToolResult } from "../core/tool-result.ts";
import { z } from "zod";
import { CallAbort, CallDeadline, DEFAULT_TOTAL_TIMEOUT_FACTOR } from "./call-deadline.ts";
import { LazyJsonSchemaValidator } from "./lazy-json-schema-validator.ts";
import { PACKAGE_VERSION } from "../core/package-version.ts";

const CLIENT_INFO = { name: "trailblaze", version: PACKAGE_VERSION } as const;

/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Log messages kept while nobody listens yet (e.g. sent during the handshake). */
const LOG_BACKLOG = 200;

/** What a server said of itself in its initialize result. */
export interface ServerHandshake {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** A `notifications/progress` update for a call in flight. */
type CallProgress = ToolProgress;

/** A `notifications/message` from the server. */
export interface ServerLogMessage {
  /** RFC 5424 level as sent: debug, info, notice, warning, error, critical, alert, emergency. */
  level: string;
  logger?: string;
  data: unknown;
}

interface CallOptions {
  /**
   * Time without an answer (or a progress notification) before the call is cancelled, in ms.
   * Default: the connection's `callTimeoutMs`.
   */
  timeoutMs?: number;
  /**
   * Bound on the whole call however much progress the server reports, in ms. Default: the
   * connection's `maxTotalTimeoutMs`, else 10 × the call timeout. Never below the call timeout.
   */
  maxTotalTimeoutMs?: number;
  /** Aborting cancels the call (`notifications/cancelled` with the abort reason). */
  signal?: AbortSignal;
  /** Receives every progress notification of this call. */
  onProgress?(progress: CallProgress): void;
}

interface McpConnectionOptions {
  /** Display name used in errors, e.g. `tools/login.ts`. */
  name: string;
  transport: ManagedTransport;
  /** Bound on initialize + every tools/list page, in ms. Default 60 000. */
  handshakeTimeoutMs?: number;
  /** Default per-call timeout in ms. Default 60 000. */
  callTimeoutMs?: number;
  /** Default overall cap per call in ms (see {@link CallOptions.maxTotalTimeoutMs}). Default 10 × `callTimeoutMs`. */
  maxTotalTimeoutMs?: number;
  /** Most tools/list pages accepted before the server is declared broken. Default 100. */
  maxPages?: number;
  /**
   * Answers the server's `trailblaze/execute` requests (a tool calling another tool, see
   * `executeTool` in @trailblaze/scripting); a rejection reaches the server as a JSON-RPC error.
   * Default: such requests fail with "Method not found".
   */
  execute?(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

/** A server's request to run another tool of the session (the author side is `executeTool`). */
const ExecuteRequestSchema = z.object({
  method: z.literal("trailblaze/execute"),
  params: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
});

export class McpConnection implements AsyncDisposable {
  readonly name: string;
  readonly #client: Client;
  readonly #transport: ManagedTransport;
  readonly #callTimeoutMs: number;
  readonly #maxTotalTimeoutMs: number | undefined;
  /** The handshake finished: a death from here on happened "during the session". */
  #started = false;
  #closing = false;
  /** A call ended by its timeout (or the overall cap) while the server may still be running its handler. */
  #abandoned = false;
  #death: Error | undefined;
  #deathSettled: Promise<void> = Promise.resolve();
  readonly #deathListeners: ((error: Error) => void)[] = [];
  #transportClosed!: () => void;
  readonly #transportClosedPromise = new Promise<void>((resolve) => (this.#transportClosed = resolve));
  readonly #inFlight = new Set<CallDeadline>();
  readonly #progress = new Map<string, (progress: CallProgress) => void>();
  #calls = 0;
  readonly #logListeners: ((message: ServerLogMessage) => void)[] = [];
  readonly #logBacklog: ServerLogMessage[] = [];
  readonly #toolsChangedListeners: (() => void)[] = [];
  #toolsChanged = false;

  private constructor(options: McpConnectionOptions, client: Client) {
    this.name = options.name;
    this.#client = client;
    this.#transport = options.transport;
    this.#callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.#maxTotalTimeoutMs = options.maxTotalTimeoutMs;
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      const { level, logger, data } = params;
      this.#log(logger === undefined ? { level, data } : { level, logger, data });
    });
    const execute = options.execute;
    if (execute) {
      client.setRequestHandler(ExecuteRequestSchema, async ({ params }) => {
        const result = await execute(params.name, params.arguments ?? {});
        return { ...resultToJson(result), content: result.content };
      });
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#toolsChanged = true;
      for (const listener of this.#toolsChangedListeners) listener();
    });
  }

  /** Connects and lists every tool. On any failure the transport is closed before the error is thrown. */
  static async open(options: McpConnectionOptions): Promise<{ connection: McpConnection; tools: Tool[] }> {
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: new LazyJsonSchemaValidator() });
    const connection = new McpConnection(options, client);
    client.onclose = () => connection.#handleClose();
    // Protocol.connect keeps this handler and calls it first, synchronously, for every message.
    // Progress is taken here: the SDK hands notifications to their handlers a microtask later,
    // after a response read in the same chunk has already retired the call's progress handler.
    options.transport.onmessage = (message) => connection.#progressFrom(message);
    const timeoutMs = options.handshakeTimeoutMs ?? 60_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new HandshakeTimeoutError(options.name, timeoutMs, options.transport.diagnostics(), options.transport.diagnosticsSource)),
        timeoutMs,
      );
    });
    try {
      const handshake = (async () => {
        await client.connect(options.transport, { timeout: timeoutMs });
        return connection.listTools(options.maxPages ?? 100, timeoutMs);
      })();
      const tools = await Promise.race([handshake, timedOut]);
      connection.#started = true;
      return { connection, tools };
    } catch (error) {
      connection.#closing = true;
      await options.transport.terminate();
      await client.close().catch(() => {});
      await connection.#deathSettled;
      throw connection.#death ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Every page of tools/list; refuses a repeated cursor or more than `maxPages` pages. */
  async listTools(maxPages = 100, timeoutMs = this.#callTimeoutMs): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw new ProtocolError(`MCP server ${this.name} returned more than ${maxPages} pages from tools/list; stopped listing`);
      }
      const result = await this.#client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
      if (seen.has(cursor)) {
        throw new ProtocolError(`MCP server ${this.name} repeated tools/list cursor ${JSON.stringify(cursor)}; stopped listing`);
      }
      seen.add(cursor);
    }
  }

  /** The server's initialize result (name and version, capabilities, instructions). */
  get handshake(): ServerHandshake {
    const instructions = this.#client.getInstructions();
    return {
      serverInfo: this.#client.getServerVersion() ?? { name: "", version: "" },
      capabilities: this.#client.getServerCapabilities() ?? {},
      ...(instructions !== undefined ? { instructions } : {}),
    };
  }

  /** A `notifications/tools/list_changed` has arrived (the tools listed at the handshake may be out of date). */
  get toolsChanged(): boolean {
    return this.#toolsChanged;
  }

  /** The server's recent output (stderr tail, or guest console tail). */
  diagnostics(): readonly string[] {
    return this.#transport.diagnostics();
  }

  /** How many lines of output the server has written so far: a mark for `outputSince`. */
  outputMark(): number {
    return this.#transport.outputMark();
  }

  /** The server's output since `mark`, once what it wrote before its last answer is in (ManagedTransport.outputSince). */
  outputSince(mark: number): Promise<readonly string[]> {
    return this.#transport.outputSince(mark);
  }

  /** Why the server is gone, once it is. */
  get death(): Error | undefined {
    return this.#death;
  }

  /** Calls sent and not yet answered, failed or cancelled. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  onDeath(listener: (error: Error) => void): void {
    this.#deathListeners.push(listener);
  }

  /** Receives the server's `notifications/message`, starting with any that arrived before a listener. */
  onLog(listener: (message: ServerLogMessage) => void): void {
    this.#logListeners.push(listener);
    for (const message of this.#logBacklog.splice(0)) listener(message);
  }

  /**
   * Called on each `notifications/tools/list_changed`; called once right away when one already
   * arrived (e.g. during the handshake, when the first tools/list may or may not reflect it).
   */
  onToolsChanged(listener: () => void): void {
    this.#toolsChangedListeners.push(listener);
    if (this.#toolsChanged) queueMicrotask(listener);
  }

  /**
   * tools/call with `_trailblazeContext` injected into the arguments and the same envelope as
   * `_meta.trailblaze` (the SDK strips undeclared argument keys, `_meta` always arrives), and a
   * `progressToken`. Progress notifications reset the timeout up to the overall cap; a timeout,
   * the cap, the caller's signal or closing the connection cancels the call with
   * `notifications/cancelled` carrying the reason.
   */
  async call(name: string, args: Record<string, unknown>, context: TrailblazeContext, options: CallOptions = {}): Promise<ToolResult> {
    if (this.#death) return fatalError(this.#death.message);
    if (this.#closing) return exceptionThrown(`cancelled: MCP server ${this.name} is closing`);
    const timeoutMs = options.timeoutMs ?? this.#callTimeoutMs;
    // The call timeout is ours, not the SDK's: reset by progress, and its cancellation says why.
    const deadline = new CallDeadline({
      timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.#maxTotalTimeoutMs ?? timeoutMs * DEFAULT_TOTAL_TIMEOUT_FACTOR,
      signal: options.signal,
    });
    const progressToken = `trailblaze-${++this.#calls}`;
    this.#progress.set(progressToken, (progress) => {
      deadline.progressed();
      options.onProgress?.(progress);
    });
    this.#inFlight.add(deadline);
    try {
      const result = await this.#client.callTool(
        { name, arguments: { ...args, [CONTEXT_KEY]: context }, _meta: { trailblaze: context, progressToken } },
        undefined,
        // The SDK's own timeout only backs ours up.
        { timeout: Math.min(deadline.capMs + 10_000, MAX_TIMER_MS), signal: deadline.signal },
      );
      return mapCallToolResult(result);
    } catch (error) {
      return await this.#callFailed(error, deadline);
    } finally {
      deadline[Symbol.dispose]();
      this.#progress.delete(progressToken);
      this.#inFlight.delete(deadline);
    }
  }

  async #callFailed(error: unknown, deadline: CallDeadline): Promise<ToolResult> {
    const aborted = deadline.aborted;
    const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
    // MCP has no answer to a cancelled request: the handler may run on, and the server is not waited for at close.
    if (aborted?.kind === "timeout" || aborted?.kind === "cap") this.#abandoned = true;
    if (aborted?.kind === "timeout") return exceptionThrown(aborted.message, ErrorCode.RequestTimeout);
    if (aborted?.kind === "cap") {
      return exceptionThrown(
        `${aborted.message} (progress notifications extend the ${deadline.timeoutMs} ms call timeout up to max_total_timeout_ms)`,
        ErrorCode.RequestTimeout,
      );
    }
    if (aborted) return exceptionThrown(`cancelled: ${aborted.message}`);
    if (!timedOut && !(error instanceof McpError && error.code !== ErrorCode.ConnectionClosed)) {
      // The transport may have failed the send before the close was seen: wait for the close so a
      // dead server is reported as such, not as a failed write.
      await waitFor(this.#transportClosedPromise, 3000);
    }
    await this.#deathSettled;
    const death = this.#death;
    return death ? fatalError(death.message) : mapCallError(error, deadline.timeoutMs);
  }

  #progressFrom(message: JSONRPCMessage): void {
    if (!("method" in message) || message.method !== "notifications/progress") return;
    const parsed = ProgressNotificationSchema.safeParse(message);
    if (!parsed.success) return;
    const { progressToken, progress, total, message: text } = parsed.data.params;
    const handler = typeof progressToken === "string" ? this.#progress.get(progressToken) : undefined;
    handler?.({ progress, ...(total !== undefined ? { total } : {}), ...(text !== undefined ? { message: text } : {}) });
  }

  #log(message: ServerLogMessage): void {
    if (this.#logListeners.length === 0) {
      this.#logBacklog.push(message);
      if (this.#logBacklog.length > LOG_BACKLOG) this.#logBacklog.shift();
      return;
    }
    for (const listener of this.#logListeners) listener(message);
  }

  #handleClose(): void {
    this.#transportClosed();
    if (this.#closing || this.#death) return;
    // The transport's failure() never rejects: this promise may be awaited much later.
    this.#deathSettled = this.#transport.failure(this.#started ? "session" : "startup").then((error) => {
      this.#death = error;
      for (const listener of this.#deathListeners) listener(error);
    });
  }

  /**
   * Cancels calls in flight (`notifications/cancelled`, so handlers can clean up during the
   * transport's grace period), then closes the client and with it the transport. A server with a
   * call that timed out is stopped without that grace (`terminate()`: SIGTERM, then SIGKILL, and
   * reaped): its handler ignored the cancellation, so waiting for it to exit politely would only
   * add the grace to the run. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const reason = new CallAbort("closing", `MCP server ${this.name} was closed while the call ran`);
    for (const deadline of this.#inFlight) deadline.abort(reason);
    if (this.#abandoned) await this.#transport.terminate().catch(() => {});
    // Client.close() closes the transport, which owns the process and its shutdown escalation. After a
    // server's death the SDK has already let go of the transport, so it is closed here too (closing
    // is idempotent): that is what waits for the server's stderr log to be written out.
    await this.#client.close().catch(() => {});
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Whether `promise` settles within `ms` (unref'd timer). */
function waitFor(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}
