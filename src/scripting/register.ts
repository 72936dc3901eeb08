// `registerTrailblazeTool`: an optional, typed front for `McpServer.registerTool`. It checks `_meta`
// against TrailblazeToolMeta and hands the handler `args._trailblazeContext` whatever the input
// schema (read from `_meta.trailblaze` when the SDK stripped it). The tool it registers is a
// standard MCP tool; `server.registerTool` stays the canonical form.

import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ShapeOutput, ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { CONTEXT_KEY, contextOf, type WithTrailblazeContext } from "./context.ts";
import type { TrailblazeToolMeta } from "./meta.ts";

/** The `extra` every tool handler receives from the SDK. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface TrailblazeToolConfig<Shape extends ZodRawShapeCompat> {
  title?: string;
  /** What the tool does, for the LLM. */
  description?: string;
  /** A zod raw shape (`{ email: z.email() }`); omit for a tool without arguments. */
  inputSchema?: Shape;
  outputSchema?: ZodRawShapeCompat;
  /** Standard MCP hints (`readOnlyHint` …). */
  annotations?: ToolAnnotations;
  _meta?: TrailblazeToolMeta;
}

/** Handler arguments: the validated input plus `_trailblazeContext` (undefined under a plain MCP client). */
export type TrailblazeToolArgs<Shape extends ZodRawShapeCompat> = WithTrailblazeContext<ShapeOutput<Shape>>;

export type TrailblazeToolHandler<Shape extends ZodRawShapeCompat> = (
  args: TrailblazeToolArgs<Shape>,
  extra: ToolExtra,
) => CallToolResult | Promise<CallToolResult>;

/**
 * Registers a tool on `server` exactly as `server.registerTool(name, config, handler)` would, with
 * a typed `_meta` and the context always available as `args._trailblazeContext`.
 */
export function registerTrailblazeTool<Shape extends ZodRawShapeCompat = Record<never, never>>(
  server: McpServer,
  name: string,
  config: TrailblazeToolConfig<Shape>,
  handler: TrailblazeToolHandler<Shape>,
): RegisteredTool {
  const run = (args: Record<string, unknown>, extra: ToolExtra) => {
    const context = contextOf(args, extra);
    const withContext = context ? { ...args, [CONTEXT_KEY]: context } : args;
    return handler(withContext as TrailblazeToolArgs<Shape>, extra);
  };
  const { inputSchema, ...rest } = config;
  if (inputSchema === undefined) return server.registerTool(name, rest, (extra) => run({}, extra));
  return server.registerTool(name, { ...rest, inputSchema }, ((args: Record<string, unknown>, extra: ToolExtra) =>
    run(args, extra)) as never);
}
