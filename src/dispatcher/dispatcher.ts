// One `dispatch(name, args)` for every transport: looks the tool up, builds the
// `_trailblazeContext` envelope, invokes, and never lets a tool failure escape
// as anything but a ToolResult. Runtime-neutral: no Bun or process APIs here.

import { ToolNotFoundError } from "../errors.ts";
import { closest } from "../config/did-you-mean.ts";
import type { TrailblazeContext } from "../session/context.ts";
import type { ToolRegistry } from "../registry/registry.ts";
import { exceptionThrown, type ToolResult } from "./tool-result.ts";

export interface DispatchOptions {
  /** Per-call timeout in ms (default: the tool source's own). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  result: ToolResult;
  startedAt: Date;
  durationMs: number;
}

export interface DispatcherOptions {
  /** Builds the envelope for the next call (memory changes between calls). */
  context(): TrailblazeContext;
  /** Observes every finished call (session log, reporters). */
  onCall?(record: CallRecord): void;
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
    const tool = this.#registry.get(name);
    if (!tool) throw new ToolNotFoundError(name, closest(name, this.#registry.names()), this.#registry.names().length);
    const startedAt = new Date();
    const start = performance.now();
    let result: ToolResult;
    try {
      result = await tool.invoke({ args, context: this.#options.context(), ...options });
    } catch (error) {
      result = exceptionThrown(error instanceof Error ? error.message : String(error));
    }
    this.#options.onCall?.({ tool: name, args, result, startedAt, durationMs: performance.now() - start });
    return result;
  }
}
