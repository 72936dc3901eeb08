// Maps what an MCP server answered (a CallToolResult or a JSON-RPC error) onto
// ToolResult (docs/writing-tools.md "Results").

import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ContentBlock, Success, ToolResult } from "./tool-result.ts";
import { exceptionThrown } from "./tool-result.ts";

/** What `tools/call` answered (the SDK's CallToolResult; its legacy `toolResult` form carries no content). */
type CallToolResultLike = Partial<Pick<CallToolResult, "content" | "isError" | "structuredContent" | "_meta">>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstText(content: ContentBlock[]): string | undefined {
  for (const block of content) if (block.type === "text" && typeof block.text === "string") return block.text;
  return undefined;
}

/** `_meta.trailblaze` of a result, when it is an object. */
function trailblazeMeta(result: CallToolResultLike): Record<string, unknown> {
  const meta = isRecord(result._meta) ? result._meta.trailblaze : undefined;
  return isRecord(meta) ? meta : {};
}

/**
 * `isError: false` → Success (first text block, structuredContent, memory changes);
 * `isError: true` → ExceptionThrown; `_meta.trailblaze.variant` names another error variant.
 * A variant that contradicts `isError` is ignored (the boolean is what every MCP client sees).
 */
export function mapCallToolResult(result: CallToolResultLike): ToolResult {
  const content = Array.isArray(result.content) ? (result.content.filter(isRecord) as ContentBlock[]) : [];
  const structuredContent = isRecord(result.structuredContent) ? result.structuredContent : undefined;
  const meta = trailblazeMeta(result);
  const text = firstText(content);
  const base = structuredContent === undefined ? { content } : { content, structuredContent };

  if (result.isError !== true) {
    const mapped: Success = { variant: "Success", message: text ?? "", ...base };
    if (isRecord(meta.memoryDelta)) mapped.memoryDelta = meta.memoryDelta;
    if (Array.isArray(meta.memoryDeletions)) {
      mapped.memoryDeletions = meta.memoryDeletions.filter((k): k is string => typeof k === "string");
    }
    return mapped;
  }
  const variant = typeof meta.variant === "string" && meta.variant !== "" && meta.variant !== "Success" ? meta.variant : "ExceptionThrown";
  return { variant, message: text ?? "the tool reported an error without a message", ...base } as ToolResult;
}

/** A request that failed at the protocol level: JSON-RPC error, timeout, closed connection. */
export function mapCallError(error: unknown, timeoutMs: number): ToolResult {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      // The SDK's own timeout carries `data.timeout`; a server that reports a timeout of its own
      // (QuickJS's per-delivery deadline) says what happened in its message: pass that on as sent.
      const local = typeof (error.data as { timeout?: unknown } | undefined)?.timeout === "number";
      return exceptionThrown(local ? `timed out after ${timeoutMs} ms` : sentMessage(error), error.code);
    }
    return exceptionThrown(error.message, error.code);
  }
  return exceptionThrown(error instanceof Error ? error.message : String(error));
}

/** An McpError's message as the server sent it, without the client's `MCP error <code>: ` prefix. */
function sentMessage(error: McpError): string {
  const prefix = `MCP error ${error.code}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
