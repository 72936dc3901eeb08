// `executeTool(extra, name, args)`: a tool calls another tool of its session (a framework tool,
// or one of another server) and gets its result. The same call works in both modes: it is a
// `trailblaze/execute` request from the server to the Trailblaze client over the connection the
// tool was called on (stdio in a subprocess, the in-process transport in QuickJS), answered by the
// session with the same depth cap and memory handling as any call.

import { z } from "zod";
import type { ToolExtra } from "./register.ts";

/** The JSON-RPC method of the server → client request. */
export const EXECUTE_METHOD = "trailblaze/execute";

const executedResultSchema = z.looseObject({
  status: z.enum(["success", "error"]),
  variant: z.string(),
  message: z.string(),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  code: z.number().optional(),
  content: z.array(z.looseObject({ type: z.string() })),
});

/** What the called tool returned, as the session mapped it. */
export type ExecutedResult = z.infer<typeof executedResultSchema>;

/**
 * Runs tool `name` with `args` in the session that called this tool; resolves with its result
 * (a failed tool is `status: "error"`, not a rejection). Rejects when the session refuses the call
 * (an unknown tool, more than 16 trailblaze.execute calls in flight at once) with its reason. A tool of the caller's own server may be called.
 */
export async function executeTool(extra: ToolExtra, name: string, args: Record<string, unknown> = {}): Promise<ExecutedResult> {
  try {
    return await extra.sendRequest({ method: EXECUTE_METHOD, params: { name, arguments: args } } as never, executedResultSchema);
  } catch (error) {
    // Say what the session said, without the SDK's `MCP error <code>: ` wrapping.
    const message = error instanceof Error ? error.message.replace(/^MCP error -?\d+: /, "") : String(error);
    throw new Error(message, { cause: error });
  }
}
