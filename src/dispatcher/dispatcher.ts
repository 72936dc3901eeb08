// One `dispatch(name, args)` for every transport: looks the tool up, builds the
// `_trailblazeContext` envelope with a fresh invocation id, invokes, and never lets a tool
// failure escape as anything but a ToolResult. Runtime-neutral: no Bun or process APIs here
// (`crypto.randomUUID` is a web global, in Bun and Node alike).

import { ToolNotFoundError } from "../errors.ts";
import { closest } from "../core/did-you-mean.ts";
import type { TrailblazeContext } from "../core/context.ts";
import type { RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import type { ToolProgress } from "../core/server-kinds.ts";
import { exceptionThrown, type ToolResult } from "../core/tool-result.ts";

export interface DispatchOptions {
  /**
   * Per-call timeout in ms: how long without an answer or a progress notification before the call
   * is cancelled. Default: the server's `timeout_ms`, else the session's (60 000 ms).
   */
  timeoutMs?: number;
  /**
   * Overall cap in ms, however much progress the tool reports. Default: the server's
   * `max_total_timeout_ms`, else 10 × the per-call timeout.
   */
  maxTotalTimeoutMs?: number;
  /** Aborting it cancels the call (the server gets `notifications/cancelled`); the result is ExceptionThrown "cancelled: …". */
  signal?: AbortSignal;
  /** Progress the tool reports while it runs (MCP `notifications/progress`), for live display. */
  onProgress?(progress: ToolProgress): void;
}

export interface CallRecord {
  tool: string;
  /** The call's id, as its envelope carried it. */
  invocationId: string;
  args: Record<string, unknown>;
  result: ToolResult;
  startedAt: Date;
  durationMs: number;
}

interface DispatcherOptions {
  /** Builds the envelope for the next call, whose id is `invocationId` (memory changes between calls). */
  context(invocationId: string): TrailblazeContext;
  /** A new id for each call, unique in the session. Default: a random UUID, as upstream's invocation ids are. */
  invocationId?(): string;
  /** The session's secrets masked out of a text, handed to each tool in process (see ToolInvocation.mask). */
  mask?(text: string): string;
  /**
   * Takes in a finished call's result before anything observes it (the session applies a
   * success's memory changes here, so a value a call writes into a secret's key is already secret
   * when onCall logs the call).
   */
  settle?(result: ToolResult): void;
  /** Observes every finished call (session log, reporters), once `settle` has run. */
  onCall?(record: CallRecord): void;
  /**
   * For a tool's source that cannot take calls right now (a server being restarted or re-listing
   * its tools), a promise that settles when it can; the tool is then looked up again.
   */
  ready?(source: string): Promise<void> | undefined;
}

export class Dispatcher {
  readonly #registry: ToolRegistry;
  readonly #options: DispatcherOptions;

  constructor(registry: ToolRegistry, options: DispatcherOptions) {
    this.#registry = registry;
    this.#options = options;
  }

  /** Throws ToolNotFoundError for a name the registry does not have; every other failure is a ToolResult. */
  async dispatch(name: string, args: Record<string, unknown> = {}, options: DispatchOptions = {}): Promise<ToolResult> {
    let tool = this.#lookup(name);
    const waiting = this.#options.ready?.(tool.source);
    if (waiting) {
      await waiting;
      tool = this.#lookup(name);
    }
    const invocationId = this.#options.invocationId?.() ?? crypto.randomUUID();
    const startedAt = new Date();
    const start = performance.now();
    let result: ToolResult;
    try {
      const { mask } = this.#options;
      result = await tool.invoke({ args, context: this.#options.context(invocationId), ...options, ...(mask ? { mask } : {}) });
    } catch (error) {
      result = exceptionThrown(error instanceof Error ? error.message : String(error));
    }
    this.#options.settle?.(result);
    this.#options.onCall?.({ tool: name, invocationId, args, result, startedAt, durationMs: performance.now() - start });
    return result;
  }

  #lookup(name: string): RegisteredTool {
    const tool = this.#registry.get(name);
    if (!tool) throw new ToolNotFoundError(name, closest(name, this.#registry.names()), this.#registry.names().length);
    return tool;
  }
}
