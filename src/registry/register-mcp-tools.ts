// Registration pass for one MCP server's tools/list: read `_meta`, apply the
// filters, clean the advertised schema, register under the advertised name.

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ToolNameError } from "../errors.ts";
import { CONTEXT_KEY } from "../core/context.ts";
import type { ServerConnection } from "../servers/launch.ts";
import { applyFilters, type SessionFacts } from "./filters.ts";
import type { ToolRegistry } from "./registry.ts";
import type { TransportKind } from "../core/server-kinds.ts";
import { readToolMeta } from "./tool-meta.ts";
import { wireNameProblem } from "../core/tool-names.ts";

interface RegisterOptions {
  source: string;
  transport: Exclude<TransportKind, "builtin">;
  session: SessionFacts;
  onWarning(message: string): void;
}

/** The advertised input schema without the reserved `_trailblazeContext` property. */
function publicInputSchema(schema: Tool["inputSchema"]): Record<string, unknown> {
  const { properties, required, ...rest } = schema;
  if (!properties || !(CONTEXT_KEY in properties)) return { ...schema };
  const { [CONTEXT_KEY]: _context, ...visible } = properties;
  const cleaned: Record<string, unknown> = { ...rest, properties: visible };
  const stillRequired = required?.filter((key) => key !== CONTEXT_KEY);
  if (stillRequired && stillRequired.length > 0) cleaned.required = stillRequired;
  return cleaned;
}

/**
 * Registers every tool that passes the filters. Throws ToolNameError, before registering any,
 * when an advertised name (filtered or not) breaks the wire rule, and ToolCollisionError on a
 * taken name.
 */
export function registerMcpTools(
  registry: ToolRegistry,
  connection: Pick<ServerConnection, "call">,
  tools: Tool[],
  options: RegisterOptions,
): void {
  const badNames = tools.flatMap((tool) => wireNameProblem(tool.name) ?? []);
  if (badNames.length > 0) throw new ToolNameError(options.source, badNames);
  for (const tool of tools) {
    const rawMeta = (tool._meta ?? {}) as Record<string, unknown>;
    const { meta, warnings } = readToolMeta(rawMeta);
    for (const warning of warnings) options.onWarning(`${options.source}: tool ${tool.name}: ${warning}`);
    const decision = applyFilters(meta, options.session, tool.name);
    if (!decision.included) {
      registry.skip({ name: tool.name, source: options.source, reason: decision.key, detail: decision.reason });
      continue;
    }
    registry.register({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: publicInputSchema(tool.inputSchema),
      ...(tool.outputSchema ? { outputSchema: { ...tool.outputSchema } } : {}),
      ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
      rawMeta,
      meta,
      source: options.source,
      transport: options.transport,
      invoke: ({ args, context, ...options }) => connection.call(tool.name, args, context, options),
    });
  }
}
