// The MCP server the runtime makes out of per-file tools: `serveTools([...])` answers tools/list
// and tools/call for each tool over stdio (in QuickJS the same transport attaches to the host).
// The runtime writes a small entry that imports the tool files and calls this; authors never do.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { callContextOf, sessionClient } from "./call-context.ts";
import { CONTEXT_KEY } from "./context.ts";
import type { TrailblazeToolMeta } from "./meta.ts";
import { withMemory } from "./result.ts";
import { isTypedTool, type TypedToolSpec } from "./trailblaze.ts";

/** One per-file tool as the runtime found it. */
export interface ServedTool {
  name: string;
  /** The module's export: a `trailblaze.tool(…)` value or a plain `async (args, ctx, client)` function. */
  value: unknown;
  /** Where it came from, for messages: `tools/myapp_login.ts`. */
  file: string;
  /** From the sidecar or the doc comment; the spec's own description wins. */
  description?: string;
  /** From the sidecar or the input type; the spec's own inputSchema wins. */
  inputSchema?: Record<string, unknown>;
  /** The JSON Schema of the structured result, from the output type. */
  outputSchema?: Record<string, unknown>;
  /** `_meta["trailblaze/*"]` keys from the sidecar; the spec's own settings win. */
  meta?: Record<string, unknown>;
}

type Handler = (args: unknown, ctx: unknown, client: unknown) => unknown;

function metaOf(spec: TypedToolSpec, tool: ServedTool): TrailblazeToolMeta {
  const meta: TrailblazeToolMeta = { ...tool.meta };
  if (spec.supportedPlatforms?.length) meta["trailblaze/supportedPlatforms"] = spec.supportedPlatforms.filter((p) => p !== "desktop");
  if (spec.supportedDrivers?.length)
    meta["trailblaze/supportedDrivers"] = spec.supportedDrivers as TrailblazeToolMeta["trailblaze/supportedDrivers"];
  if (spec.requiresHost) meta["trailblaze/requiresHost"] = true;
  if (spec.requiresContext) meta["trailblaze/requiresContext"] = true;
  if (spec.surfaceToLlm === false) meta["trailblaze/surfaceToLlm"] = false;
  if (spec.isRecordable === false) meta["trailblaze/isRecordable"] = false;
  if (spec.sensitiveArgs?.length) meta["trailblaze/sensitiveArgs"] = spec.sensitiveArgs;
  return meta;
}

const EMPTY_OBJECT = { type: "object", properties: {} };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A handler's return value as an MCP result: MCP-shaped as is, a string as text, anything else as JSON. */
export function toCallToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (isRecord(value) && Array.isArray(value.content)) return value as CallToolResult;
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  const text = JSON.stringify(value) ?? String(value);
  return { content: [{ type: "text", text }], ...(isRecord(value) ? { structuredContent: value } : {}) };
}

/** Serves `tools` over stdio until the client closes. Resolves once connected. */
export async function serveTools(
  tools: ServedTool[],
  info: { name: string; version?: string } = { name: "trailblaze-tools" },
): Promise<void> {
  const byName = new Map<string, { tool: ServedTool; listed: Tool; handler: Handler; validate: z.ZodType | undefined }>();
  for (const tool of tools) {
    if (typeof tool.value !== "function") {
      throw new TypeError(
        `${tool.file}: export ${tool.name} is ${tool.value === undefined ? "missing" : `a ${typeof tool.value}`}; export the tool as \`export const ${tool.name} = trailblaze.tool(…)\``,
      );
    }
    const spec: TypedToolSpec = isTypedTool(tool.value) ? (tool.value as never)[Symbol.for("trailblaze.typedTool")] : {};
    const inputSchema = spec.inputSchema ?? tool.inputSchema ?? EMPTY_OBJECT;
    const description = spec.description ?? tool.description;
    const meta = metaOf(spec, tool);
    const listed: Tool = {
      name: tool.name,
      ...(description ? { description } : {}),
      inputSchema: inputSchema as Tool["inputSchema"],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool["outputSchema"] } : {}),
      ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
    };
    let validate: z.ZodType | undefined;
    try {
      validate = z.fromJSONSchema(inputSchema as never);
    } catch (error) {
      console.error(
        `${tool.file}: the input schema of ${tool.name} cannot be used to check arguments (${(error as Error).message}); calls are not checked`,
      );
    }
    byName.set(tool.name, { tool, listed, handler: tool.value as Handler, validate });
  }

  // `logging`: a handler's ctx.logger sends MCP log messages (logger.ts).
  const server = new Server({ name: info.name, version: info.version ?? "0.0.0" }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...byName.values()].map((t) => t.listed) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = byName.get(request.params.name);
    if (!entry) return { isError: true, content: [{ type: "text", text: `unknown tool ${request.params.name}` }] };
    const { [CONTEXT_KEY]: _envelope, ...args } = request.params.arguments ?? {};
    if (entry.validate) {
      const checked = entry.validate.safeParse(args);
      if (!checked.success) {
        return {
          isError: true,
          content: [
            { type: "text", text: `${entry.tool.name}: invalid arguments: ${z.prettifyError(checked.error).replace(/\n/g, "; ")}` },
          ],
        };
      }
    }
    const ctx = callContextOf(request.params.arguments, extra, entry.tool.name);
    try {
      const result = toCallToolResult(await entry.handler(args, ctx, sessionClient(extra)));
      return ctx && !result.isError ? withMemory(result, ctx.memory.changes()) : result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { isError: true, content: [{ type: "text", text: message }] };
    }
  });
  await server.connect(new StdioServerTransport());
}
