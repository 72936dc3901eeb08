// The session's one flat tool registry: every source (built-in, stdio, QuickJS)
// registers here under the exact advertised name; a second claim is an error.
// Also tracks toolsets (from YAML and pushed via `_meta["trailblaze/toolset"]`)
// and every tool a filter skipped, with the key that skipped it.

import { ToolCollisionError, ToolNameError } from "../errors.ts";
import type { TrailblazeContext } from "../core/context.ts";
import type { ToolResult } from "../core/tool-result.ts";
import type { TrailblazeToolMeta } from "./tool-meta.ts";
import { wireNameProblem } from "../core/tool-names.ts";
import type { ToolProgress, TransportKind } from "../core/server-kinds.ts";

export type ArgPath = readonly (string | number)[];

/** One way the arguments break the schema: where, and what the schema says. */
export interface ArgIssue {
  path: ArgPath;
  message: string;
}

interface ToolInvocation {
  args: Record<string, unknown>;
  context: TrailblazeContext;
  /** Per-call timeout override in ms. */
  timeoutMs?: number;
  /** Overall cap override in ms, however much progress the tool reports. */
  maxTotalTimeoutMs?: number;
  signal?: AbortSignal;
  /** Progress the tool reports while it runs (MCP `notifications/progress`). */
  onProgress?(progress: ToolProgress): void;
  /** The run's secrets masked out of a text: what a tool in process (a built-in) masks a value with before its message quotes and cuts it. */
  mask?(text: string): string;
}

export interface RegisteredTool {
  name: string;
  description: string;
  /** JSON Schema as advertised, minus `_trailblazeContext`. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of the tool's `structuredContent`, when it advertises one. */
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** The tool's `_meta` as advertised. */
  rawMeta: Record<string, unknown>;
  meta: TrailblazeToolMeta;
  /** Who contributed it: a script path relative to the working directory, or `builtin`. */
  source: string;
  transport: TransportKind;
  invoke(call: ToolInvocation): Promise<ToolResult>;
  /**
   * The tool's own check of arguments (built-ins: the schema they run with, which reads enums
   * in any case); absent, its `inputSchema` is used. See `registry/recorded-args.ts`.
   */
  checkArgs?(args: Record<string, unknown>): ArgIssue[];
}

export interface SkippedTool {
  name: string;
  source: string;
  /** The `_meta` key that excluded the tool, `excluded_tools` (the target's opt-out), or why a whole server (`*`) did not start. */
  reason: string;
  detail: string;
}

interface ToolsetRecord {
  id: string;
  description: string;
  tools: Set<string>;
  /** Where it came from: a toolset YAML path, or `_meta push` when only tools created it. */
  origin: string;
  /** Whether its platform/driver gates let it apply to this session. */
  active: boolean;
  inactiveReason?: string;
}

export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #skipped: SkippedTool[] = [];
  readonly #toolsets = new Map<string, ToolsetRecord>();
  #changes = 0;

  /** Throws ToolNameError for a name that breaks the wire rule, ToolCollisionError for a taken one. */
  register(tool: RegisteredTool): void {
    const badName = wireNameProblem(tool.name);
    if (badName) throw new ToolNameError(tool.source, [badName]);
    const existing = this.#tools.get(tool.name);
    if (existing) throw new ToolCollisionError(tool.name, existing.source, tool.source);
    this.#tools.set(tool.name, tool);
    this.#changes++;
    if (tool.meta.toolset) this.#pushIntoToolset(tool.meta.toolset, tool.name);
  }

  /** Removes every tool of a source (used when a source re-lists its tools). */
  unregisterSource(source: string): void {
    for (const [name, tool] of this.#tools) if (tool.source === source) this.#tools.delete(name);
    this.#changes++;
    for (let i = this.#skipped.length - 1; i >= 0; i--) if (this.#skipped[i]!.source === source) this.#skipped.splice(i, 1);
  }

  skip(skipped: SkippedTool): void {
    this.#skipped.push(skipped);
  }

  addToolset(record: Omit<ToolsetRecord, "tools"> & { tools: Iterable<string> }): void {
    const existing = this.#toolsets.get(record.id);
    const tools = new Set([...(existing?.tools ?? []), ...record.tools]);
    this.#toolsets.set(record.id, { ...record, tools });
    this.#changes++;
  }

  #pushIntoToolset(id: string, tool: string): void {
    const existing = this.#toolsets.get(id);
    if (existing) existing.tools.add(tool);
    else this.#toolsets.set(id, { id, description: "", tools: new Set([tool]), origin: "_meta push", active: true });
  }

  /** How many times the tools or toolsets changed: what was derived from them at an earlier count is stale. */
  get changes(): number {
    return this.#changes;
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#tools.size;
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Registered tools in registration order. */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  skipped(): readonly SkippedTool[] {
    return this.#skipped;
  }

  /** Skipped tool by name, e.g. to explain why a trail's tool is missing. */
  findSkipped(name: string): SkippedTool | undefined {
    return this.#skipped.find((s) => s.name === name);
  }

  toolsets(): ToolsetRecord[] {
    return [...this.#toolsets.values()];
  }

  /** Ids of the toolsets that contain a tool, pushed/active ones first. */
  toolsetsOf(name: string): string[] {
    return this.toolsets()
      .filter((t) => t.tools.has(name))
      .sort((a, b) => Number(b.active) - Number(a.active))
      .map((t) => t.id);
  }
}
