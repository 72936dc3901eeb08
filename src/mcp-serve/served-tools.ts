// What a session shows an outside MCP client: which registered tools are served,
// how each becomes an MCP Tool, and how a ToolResult becomes a CallToolResult.
// Runtime-neutral (no Bun or process APIs).

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { closest } from "../core/did-you-mean.ts";
import { ToolNotFoundError } from "../errors.ts";
import { isSuccess, type ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import { EXCLUDED_TOOLS_REASON } from "../registry/filters.ts";

/** `_meta` keys the served tool list adds next to the tool's own `trailblaze/*` keys. */
export const SERVED_META_KEYS = { source: "trailblaze/source", toolset: "trailblaze/toolset" } as const;

/** A tool is served unless it opted out of LLM tool surfaces (`_meta["trailblaze/isForLlm"]: false`). */
function isServed(tool: RegisteredTool): boolean {
  return tool.meta.isForLlm !== false;
}

/** Served tools in registration order. */
export function servedTools(registry: ToolRegistry): RegisteredTool[] {
  return registry.list().filter(isServed);
}

/**
 * The MCP Tool for a registered tool: name as registered, input schema as advertised (the
 * registry already removed `_trailblazeContext`), description and annotations passed through,
 * `_meta` = the tool's `trailblaze/*` keys + `trailblaze/source` + `trailblaze/toolset` (the first
 * toolset that contains it, when any does).
 */
export function toMcpTool(tool: RegisteredTool, registry: ToolRegistry): Tool {
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tool.rawMeta)) if (key.startsWith("trailblaze/")) meta[key] = value;
  meta[SERVED_META_KEYS.source] = tool.source;
  const toolset = registry.toolsetsOf(tool.name)[0];
  if (toolset !== undefined) meta[SERVED_META_KEYS.toolset] = toolset;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    _meta: meta,
  };
}

/** The result of a call, as MCP: content (the message when a local failure has none), `isError`, the variant in `_meta.trailblaze`. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const content = result.content.length > 0 ? result.content : [{ type: "text", text: result.message }];
  return {
    content: content as CallToolResult["content"],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    isError: !isSuccess(result),
    _meta: { trailblaze: { variant: result.variant } },
  };
}

/**
 * Why `name` cannot be called through the served surface, or undefined when it can: an unknown
 * name (with did-you-mean over the served names), a tool skipped for this session (with the `_meta`
 * key that excluded it), or a tool hidden from LLM surfaces.
 */
export function refusal(name: string, registry: ToolRegistry): string | undefined {
  const tool = registry.get(name);
  if (tool && isServed(tool)) return undefined;
  if (tool) {
    return `Tool "${name}" is not served to MCP clients: it sets _meta["${META_KEYS.isForLlm}"] to false (internal primitive)`;
  }
  const skipped = registry.findSkipped(name);
  if (skipped?.reason === EXCLUDED_TOOLS_REASON)
    return `Tool "${name}" (${skipped.source}) is not available in this session: ${skipped.detail}`;
  if (skipped) {
    return `Tool "${name}" (${skipped.source}) is not available in this session: excluded by _meta["${skipped.reason}"] (${skipped.detail})`;
  }
  const names = servedTools(registry).map((t) => t.name);
  return new ToolNotFoundError(name, closest(name, names), names.length).message;
}

/** An error result for a call that never reached a tool. */
export function refusedResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true, _meta: { trailblaze: { variant: "ExceptionThrown" } } };
}
