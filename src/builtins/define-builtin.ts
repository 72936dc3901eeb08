// Built-in (framework) tools: defined with a zod shape, registered into the same
// registry as every MCP tool (transport "builtin"), so collisions name them.

import { z } from "zod";
import type { RegisteredTool } from "../registry/registry.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import type { TrailblazeContext } from "../core/context.ts";
import { exceptionThrown, missingRequiredArgs, type ToolResult } from "../core/tool-result.ts";

export const BUILTIN_SOURCE = "builtin";

export interface BuiltinDefinition<S extends z.ZodRawShape> {
  name: string;
  description: string;
  args: S;
  /** `_meta["trailblaze/*"]` keys, as an MCP server would advertise them. */
  meta?: Record<string, unknown>;
  run(args: z.infer<z.ZodObject<S>>, context: TrailblazeContext): Promise<ToolResult> | ToolResult;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
}

/**
 * Compiled schemas by tool name. Every session builds its own built-ins (they keep per-session
 * state), but a built-in's arguments are fixed in code, so the zod object and its JSON Schema
 * (~5 ms for all of them) are built once per process.
 */
const compiled = new Map<string, { schema: z.ZodObject; inputSchema: Record<string, unknown> }>();

function compile<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): { schema: z.ZodObject<S>; inputSchema: Record<string, unknown> } {
  let entry = compiled.get(def.name);
  if (!entry) {
    const schema = z.object(def.args).strict();
    const { $schema: _, ...inputSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
    entry = { schema, inputSchema };
    compiled.set(def.name, entry);
  }
  // A name always comes with the same arguments (they are written in code), so the shape is S.
  return entry as { schema: z.ZodObject<S>; inputSchema: Record<string, unknown> };
}

export function defineBuiltin<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): RegisteredTool {
  const { schema, inputSchema } = compile(def);
  const rawMeta = def.meta ?? {};
  return {
    name: def.name,
    description: def.description,
    inputSchema,
    rawMeta,
    meta: readToolMeta(rawMeta).meta,
    source: BUILTIN_SOURCE,
    transport: "builtin",
    async invoke({ args, context }) {
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        const missing = parsed.error.issues.filter((i) => i.code === "invalid_type" && i.input === undefined);
        const message = `${def.name}: invalid arguments: ${describeIssues(parsed.error)}`;
        return missing.length > 0 ? missingRequiredArgs(message) : exceptionThrown(message);
      }
      return def.run(parsed.data, context);
    },
  };
}
