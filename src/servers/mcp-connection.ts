// One connected MCP server, whatever carries its messages: the SDK Client over a
// Transport (stdio subprocess or QuickJS), with a bounded handshake, paginated
// tools/list, context injection on every call, and death detection.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { HandshakeTimeoutError, ProtocolError } from "../errors.ts";
import { CONTEXT_KEY, type TrailblazeContext } from "../session/context.ts";
import { mapCallError, mapCallToolResult } from "../dispatcher/result-mapping.ts";
import { fatalError, type ToolResult } from "../dispatcher/tool-result.ts";

export const CLIENT_INFO = { name: "trailblaze", version: "0.1.0" } as const;

export interface McpConnectionOptions {
  /** Display name used in errors, e.g. `tools/login.ts`. */
  name: string;
  transport: Transport;
  /** Bound on initialize + every tools/list page, in ms. Default 60 000. */
  handshakeTimeoutMs?: number;
  /** Default per-call timeout in ms. Default 60 000. */
  callTimeoutMs?: number;
  /** Most tools/list pages accepted before the server is declared broken. Default 100. */
  maxPages?: number;
  /** Stops the server without a grace period; used when the handshake fails. Default: `transport.close()`. */
  terminate?: () => Promise<void>;
  /** Stderr tail (or similar) to attach to handshake errors. */
  diagnostics?: () => readonly string[];
  /**
   * Explains why the connection closed when nobody asked it to (e.g. exit code,
   * signal and stderr tail of a dead child). Awaited before `onDeath` fires.
   */
  explainClose?: () => Promise<Error>;
}

export class McpConnection implements AsyncDisposable {
  readonly name: string;
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #callTimeoutMs: number;
  readonly #explainClose: () => Promise<Error>;
  #closing = false;
  #death: Error | undefined;
  #deathSettled: Promise<void> = Promise.resolve();
  readonly #deathListeners: ((error: Error) => void)[] = [];

  private constructor(options: McpConnectionOptions, client: Client) {
    this.name = options.name;
    this.#client = client;
    this.#transport = options.transport;
    this.#callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.#explainClose =
      options.explainClose ?? (async () => new Error(`MCP server ${options.name} closed its connection unexpectedly`));
  }

  /** Connects and lists every tool. On any failure the transport is closed before the error is thrown. */
  static async open(options: McpConnectionOptions): Promise<{ connection: McpConnection; tools: Tool[] }> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const connection = new McpConnection(options, client);
    client.onclose = () => connection.#handleClose();
    const timeoutMs = options.handshakeTimeoutMs ?? 60_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HandshakeTimeoutError(options.name, timeoutMs, options.diagnostics?.() ?? [])),
        timeoutMs,
      );
    });
    try {
      const handshake = (async () => {
        await client.connect(options.transport, { timeout: timeoutMs });
        return connection.listTools(options.maxPages ?? 100, timeoutMs);
      })();
      const tools = await Promise.race([handshake, timedOut]);
      return { connection, tools };
    } catch (error) {
      connection.#closing = true;
      await (options.terminate ?? (() => options.transport.close()))();
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

  /** Why the server is gone, once it is. */
  get death(): Error | undefined {
    return this.#death;
  }

  onDeath(listener: (error: Error) => void): void {
    this.#deathListeners.push(listener);
  }

  /**
   * tools/call with `_trailblazeContext` injected into the arguments and the same
   * envelope as `_meta.trailblaze` (the SDK strips undeclared argument keys, `_meta` always arrives).
   */
  async call(name: string, args: Record<string, unknown>, context: TrailblazeContext, timeoutMs?: number, signal?: AbortSignal): Promise<ToolResult> {
    if (this.#death) return fatalError(this.#death.message);
    const timeout = timeoutMs ?? this.#callTimeoutMs;
    try {
      const result = await this.#client.callTool(
        { name, arguments: { ...args, [CONTEXT_KEY]: context }, _meta: { trailblaze: context } },
        undefined,
        signal ? { timeout, signal } : { timeout },
      );
      return mapCallToolResult(result);
    } catch (error) {
      await this.#deathSettled;
      const death = this.death;
      return death ? fatalError(death.message) : mapCallError(error, timeout);
    }
  }

  #handleClose(): void {
    if (this.#closing || this.#death) return;
    this.#deathSettled = this.#explainClose().then((error) => {
      this.#death = error;
      for (const listener of this.#deathListeners) listener(error);
    });
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    // Client.close() closes the transport, which owns the process and its shutdown escalation.
    await this.#client.close().catch(() => this.#transport.close());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
