// Built-in (framework) tools: defined with a zod shape, registered into the same
// registry as every MCP tool (transport "builtin"), so collisions name them.

import { z } from "zod";
import type { RegisteredTool } from "../registry/registry.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import type { TrailblazeContext } from "../session/context.ts";
import { exceptionThrown, missingRequiredArgs, type ToolResult } from "../dispatcher/tool-result.ts";

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

export function defineBuiltin<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): RegisteredTool {
  const schema = z.object(def.args).strict();
  const rawMeta = def.meta ?? {};
  const { $schema: _, ...inputSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
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
