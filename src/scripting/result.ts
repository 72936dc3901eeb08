// Result helpers (docs/writing-tools.md "Results"): each returns a plain MCP CallToolResult that any MCP client
// understands; Trailblaze also reads `_meta.trailblaze` for the result variant and memory changes.
// No runtime imports: usable from any MCP server, on any runtime.

import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/** The variants Trailblaze maps; any other `…Error` name is passed through as its own variant. */
export type KnownErrorVariant = "ExceptionThrown" | "FatalError" | "MissingRequiredArgs";

/** What a result carries in `_meta.trailblaze`. */
export interface TrailblazeResultMeta {
  /** Error variant name; absent = `ExceptionThrown` for `isError: true`. */
  variant?: string;
  /** Keys to set in session memory. Applied on success only. */
  memoryDelta?: Record<string, unknown>;
  /** Keys to remove from session memory. Applied on success only. */
  memoryDeletions?: string[];
}

/** Session memory changes a successful tool asks for. */
export interface MemoryChanges {
  /** Keys to set (values must survive JSON). */
  memoryDelta?: Record<string, unknown>;
  /** Keys to remove. */
  memoryDeletions?: readonly string[];
}

export interface ResultOptions {
  /** Machine-readable result, shown to MCP clients as `structuredContent`. */
  structuredContent?: Record<string, unknown>;
  /** More content blocks after the text block (images, resource links …). */
  content?: ContentBlock[];
}

export interface SuccessOptions extends ResultOptions, MemoryChanges {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function build(text: string, options: ResultOptions, isError: boolean, meta: TrailblazeResultMeta): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text }, ...(options.content ?? [])] };
  if (isError) result.isError = true;
  if (options.structuredContent !== undefined) result.structuredContent = options.structuredContent;
  if (Object.keys(meta).length > 0) result._meta = { trailblaze: meta };
  return result;
}

function memoryMeta(changes: MemoryChanges): TrailblazeResultMeta {
  const meta: TrailblazeResultMeta = {};
  if (changes.memoryDelta && Object.keys(changes.memoryDelta).length > 0) meta.memoryDelta = { ...changes.memoryDelta };
  if (changes.memoryDeletions && changes.memoryDeletions.length > 0) meta.memoryDeletions = [...changes.memoryDeletions];
  return meta;
}

/** `Success`: `text` becomes the message; memory changes ride in `_meta.trailblaze`. */
export function success(text: string, options: SuccessOptions = {}): CallToolResult {
  return build(text, options, false, memoryMeta(options));
}

/** `ExceptionThrown`: a plain MCP error (`isError: true`), what any failed tool returns. */
export function error(text: string, options: ResultOptions = {}): CallToolResult {
  return build(text, options, true, {});
}

/** `FatalError`: nothing more can work (device gone, app crashed); Trailblaze aborts the trail. */
export function fatalError(text: string, options: ResultOptions = {}): CallToolResult {
  return build(text, options, true, { variant: "FatalError" });
}

/** `MissingRequiredArgs`: the call lacked something the tool needs; the text says what. */
export function missingRequiredArgs(text: string, options: ResultOptions = {}): CallToolResult {
  return build(text, options, true, { variant: "MissingRequiredArgs" });
}

/**
 * Any other error variant by name, e.g. `variant("MaestroValidationError", "selector matched nothing")`.
 * Plain MCP clients see `isError: true` and the text. `"Success"` is refused: use `success()`.
 */
export function variant<const N extends string>(
  name: N extends "Success" | "" ? never : N,
  text: string,
  options: ResultOptions = {},
): CallToolResult {
  if ((name as string) === "Success" || (name as string) === "") {
    throw new TypeError(`variant(${JSON.stringify(name)}): name an error variant such as "FatalError"; use success() for a success`);
  }
  return build(text, options, true, { variant: name });
}

/**
 * Adds memory changes to a successful result (keeps its other `_meta`). Throws for an error result:
 * Trailblaze applies memory changes only on success.
 */
export function withMemory(result: CallToolResult, changes: MemoryChanges): CallToolResult {
  if (result.isError === true) {
    throw new TypeError("withMemory: memory changes apply only to successful results (Trailblaze ignores them when isError is true)");
  }
  const added = memoryMeta(changes);
  if (Object.keys(added).length === 0) return result;
  const meta = result._meta ?? {};
  const previous = (isRecord(meta.trailblaze) ? meta.trailblaze : {}) as TrailblazeResultMeta;
  const trailblaze: TrailblazeResultMeta = { ...previous };
  if (added.memoryDelta) trailblaze.memoryDelta = { ...(isRecord(previous.memoryDelta) ? previous.memoryDelta : {}), ...added.memoryDelta };
  if (added.memoryDeletions) {
    const before = Array.isArray(previous.memoryDeletions) ? previous.memoryDeletions : [];
    trailblaze.memoryDeletions = [...new Set([...before, ...added.memoryDeletions])];
  }
  return { ...result, _meta: { ...meta, trailblaze } };
}

/** The error a tier-2 tool returns when called without the Trailblaze context (a plain MCP client). */
export function contextRequired(tool: string): CallToolResult {
  return error(`${tool} needs the Trailblaze context (device and memory); call it from a Trailblaze session`);
}
