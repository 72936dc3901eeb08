// The one result type every tool call ends in, whatever its transport: a
// discriminated union on `variant`, named after upstream TrailblazeToolResult.

import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";

export type { ContentBlock };

interface ResultBase {
  /** Human-readable text: the first text content block, or the error message. */
  message: string;
  /** MCP content as the server returned it (empty for local failures). */
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

export interface Success extends ResultBase {
  variant: "Success";
  /** Memory writes the tool asked for (`_meta.trailblaze.memoryDelta`). */
  memoryDelta?: Record<string, unknown>;
  /** Memory keys the tool asked to delete (`_meta.trailblaze.memoryDeletions`). */
  memoryDeletions?: string[];
  /**
   * Set when the call did not fail but could not check what it is for (a screen check on a
   * simulated device with no screen loaded): why. The step is `unverified`, not passed.
   */
  unverified?: string;
  /**
   * The call a recording keeps instead of this one (upstream's delegating tools): a tool that acted
   * by snapshot ref (`tap` on `n12`) names its node durably, as `tapOnElementBySelector` with the
   * node's selector, so the recording finds it when ids move. Absent: the call is recorded as made.
   */
  recordAs?: { tool: string; args: Record<string, unknown> };
  /**
   * Set when the call did what it does with nothing to check it against (an action on a simulated
   * device with no screen loaded, a tool whose calls through ctx.tools were all such actions): why.
   * It neither passes nor fails a step; a step none of whose calls checked anything is `unverified`.
   */
  unchecked?: string;
}

export interface ExceptionThrown extends ResultBase {
  variant: "ExceptionThrown";
  /** JSON-RPC error code when the failure was a protocol error rather than `isError: true`. */
  code?: number;
}

/** Abort-the-trail failure: a dead server, or a tool that says nothing more can work. */
export interface FatalError extends ResultBase {
  variant: "FatalError";
}

export interface MissingRequiredArgs extends ResultBase {
  variant: "MissingRequiredArgs";
}

/** Any other variant a tool names in `_meta.trailblaze.variant` (e.g. `MaestroValidationError`). */
interface OtherError extends ResultBase {
  variant: `${string}Error` | (string & {});
}

export type ToolResult = Success | ExceptionThrown | FatalError | MissingRequiredArgs | OtherError;

export function isSuccess(result: ToolResult): result is Success {
  return result.variant === "Success";
}

/**
 * What a call that did not fail checked: something for real (a check against a screen or a real
 * page, a tool's own result, an assertion on memory), nothing (`unchecked`: it only acted), or a
 * check it could not make (`unverified`); with why for the last two.
 */
export type CallCheck = { kind: "checked" } | { kind: "unchecked" | "unverified"; reason: string };

export function callCheck(result: Success): CallCheck {
  if (result.unverified !== undefined) return { kind: "unverified", reason: result.unverified };
  if (result.unchecked !== undefined) return { kind: "unchecked", reason: result.unchecked };
  return { kind: "checked" };
}

export function resultStatus(result: ToolResult): "success" | "error" {
  return isSuccess(result) ? "success" : "error";
}

export function exceptionThrown(message: string, code?: number): ExceptionThrown {
  return code === undefined
    ? { variant: "ExceptionThrown", message, content: [] }
    : { variant: "ExceptionThrown", message, content: [], code };
}

export function fatalError(message: string): FatalError {
  return { variant: "FatalError", message, content: [] };
}

export function missingRequiredArgs(message: string): MissingRequiredArgs {
  return { variant: "MissingRequiredArgs", message, content: [] };
}

export function success(message: string, extra: Partial<Omit<Success, "variant" | "message">> = {}): Success {
  return { variant: "Success", message, content: [{ type: "text", text: message }], ...extra };
}

/** The stable JSON form (`call --json` → `result`: docs/formats.md "JSON documents"). */
export function resultToJson(result: ToolResult): Record<string, unknown> {
  const json: Record<string, unknown> = {
    status: resultStatus(result),
    variant: result.variant,
    message: result.message,
  };
  if (result.structuredContent !== undefined) json.structuredContent = result.structuredContent;
  if ("unverified" in result && result.unverified !== undefined) json.unverified = result.unverified;
  if ("unchecked" in result && result.unchecked !== undefined) json.unchecked = result.unchecked;
  if ("code" in result && result.code !== undefined) json.code = result.code;
  return json;
}
