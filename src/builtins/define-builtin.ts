// Built-in (framework) tools: each defined once, as data (`BuiltinSpec`: description, zod
// argument shape, `_meta`) in a module-level table keyed by name, and run by a backend (the
// simulated device, the real browser) that `bindBuiltins` attaches per session. They register
// into the same registry as every MCP tool (transport "builtin"), so collisions name them. The
// shape both advertises the JSON Schema and checks arguments, at dispatch and when
// `check`/`run` validate recordings (`checkArgs`).

import { z } from "zod";
import type { RegisteredTool } from "../registry/registry.ts";
import { formatArgIssues, unknownParameterMessage, type ArgIssue } from "../registry/recorded-args.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import { addDefaults } from "./arg-types.ts";
import type { BuiltinName } from "../core/builtin-tools.ts";
import type { TrailblazeContext } from "../core/context.ts";
import { describeExpected, describeValue, valueAt } from "../core/describe.ts";
import { exceptionThrown, missingRequiredArgs, type ToolResult } from "../core/tool-result.ts";

const BUILTIN_SOURCE = "builtin";

/** What a built-in is, whichever backend runs it: the same listing with or without a browser. */
export interface BuiltinSpec<S extends z.ZodRawShape = z.ZodRawShape> {
  description: string;
  /**
   * The arguments' zod shape, built when first needed and then kept for the process (a session
   * makes all ~95 built-ins; building their shapes anew each time was ~5 ms of every session).
   */
  args: () => S;
  /** `_meta["trailblaze/*"]` keys, as an MCP server would advertise them. */
  meta?: Record<string, unknown>;
}

/** A table of built-ins by name: every name is one of `BUILTIN_TOOLS` (core/builtin-tools.ts). */
export type BuiltinTable = { readonly [name in BuiltinName]?: BuiltinSpec };

/** The arguments a spec's run receives: checked, defaults filled in. */
export type ArgsOf<D extends BuiltinSpec> = z.infer<z.ZodObject<ReturnType<D["args"]>>>;

/** How backend `B` (the simulated device, the session's page) answers a call of a built-in. */
export type BuiltinRun<A, B> = (backend: B, args: A, context: TrailblazeContext, tool: string) => Promise<ToolResult> | ToolResult;

/** A backend's runs for the tools of `table` it implements. */
export type BuiltinRuns<T extends BuiltinTable, B> = {
  readonly [K in keyof T]: T[K] extends BuiltinSpec ? BuiltinRun<ArgsOf<T[K]>, B> : never;
};

interface BuiltinDefinition<S extends z.ZodRawShape> extends BuiltinSpec<S> {
  name: string;
  run(args: z.infer<z.ZodObject<S>>, context: TrailblazeContext): Promise<ToolResult> | ToolResult;
}

interface Compiled {
  schema: z.ZodObject;
  /** Built on first use: only listings (`tools`, `types`, `mcp`) and messages about unknown keys read it. */
  inputSchema?: Record<string, unknown>;
}

/**
 * Compiled schemas by tool name. Every session builds its own built-ins (they keep per-session
 * state), but a built-in's arguments are fixed in code, so its zod object and JSON Schema are built
 * once per process, and each only when first needed: turning all ~95 into JSON Schema costs a
 * fresh process ~50 ms, which a `run` never needs to pay.
 */
const compiled = new Map<string, Compiled>();

/** zod writes ±MAX_SAFE_INTEGER bounds on every integer; they say nothing to a reader. */
function dropSafeIntegerBounds(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  for (const value of Object.values(record)) dropSafeIntegerBounds(value);
}

function compile<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): Compiled & { schema: z.ZodObject<S> } {
  let entry = compiled.get(def.name);
  if (!entry) {
    entry = { schema: z.object(def.args()).strict() };
    compiled.set(def.name, entry);
  }
  // A name always comes with the same arguments (they are written in code), so the shape is S.
  return entry as Compiled & { schema: z.ZodObject<S> };
}

function inputSchemaOf<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): Record<string, unknown> {
  const entry = compile(def);
  if (!entry.inputSchema) {
    // "input": what a caller writes (defaults make a parameter optional), not what run() receives.
    const { $schema: _, ...inputSchema } = z.toJSONSchema(entry.schema, { io: "input" }) as Record<string, unknown>;
    dropSafeIntegerBounds(inputSchema);
    addDefaults(entry.schema.shape, inputSchema);
    entry.inputSchema = inputSchema;
  }
  return entry.inputSchema;
}

/** zod's issues in the words of `registry/recorded-args.ts` (same text as a JSON Schema check). */
function zodArgIssues(
  tool: string,
  error: z.ZodError,
  args: Record<string, unknown>,
  inputSchema: Record<string, unknown>,
  mask?: (text: string) => string,
): ArgIssue[] {
  return error.issues.flatMap((issue): ArgIssue[] => {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const value = valueAt(args, path);
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          path: [...path, key],
          message: path.length === 0 ? unknownParameterMessage(tool, inputSchema) : `not a key of ${path.join(".")}`,
        }));
      case "invalid_type":
        return [
          {
            path,
            message:
              value === undefined
                ? `required (${describeExpected(issue.expected)}), missing`
                : `expected ${describeExpected(issue.expected)}, got ${describeValue(value, mask)}`,
          },
        ];
      case "invalid_value":
        return [
          {
            path,
            message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")} (any case), got ${describeValue(value, mask)}`,
          },
        ];
      default:
        return [{ path, message: issue.message }];
    }
  });
}

export function defineBuiltin<S extends z.ZodRawShape>(def: BuiltinDefinition<S>): RegisteredTool {
  const rawMeta = def.meta ?? {};
  // At dispatch, a value shown in an issue is masked before it is cut (describeValue): arguments carry secrets filled in.
  const check = (args: Record<string, unknown>, mask?: (text: string) => string) => {
    const parsed = compile(def).schema.safeParse(args);
    return parsed.success ? { data: parsed.data } : { issues: zodArgIssues(def.name, parsed.error, args, inputSchemaOf(def), mask) };
  };
  return {
    name: def.name,
    description: def.description,
    get inputSchema() {
      return inputSchemaOf(def);
    },
    rawMeta,
    meta: readToolMeta(rawMeta).meta,
    source: BUILTIN_SOURCE,
    transport: "builtin",
    checkArgs: (args) => check(args).issues ?? [],
    async invoke({ args, context, mask }) {
      const checked = check(args, mask);
      if (checked.issues) {
        const message = `${def.name}: invalid arguments: ${formatArgIssues(def.name, checked.issues).slice(def.name.length + 2)}`;
        return checked.issues.some((i) => i.message.startsWith("required")) ? missingRequiredArgs(message) : exceptionThrown(message);
      }
      return def.run(checked.data, context);
    },
  };
}

/** One spec of a table, run by `run` on `backend`. */
export function bindBuiltin<S extends z.ZodRawShape, B>(
  name: string,
  spec: BuiltinSpec<S>,
  run: BuiltinRun<z.infer<z.ZodObject<S>>, B>,
  backend: B,
): RegisteredTool {
  return defineBuiltin({ name, ...spec, run: (args, context) => run(backend, args, context, name) });
}

/** Every tool of `table`, in its order, each run by `runs` on `backend`. */
export function bindBuiltins<T extends BuiltinTable, B>(table: T, runs: BuiltinRuns<T, B>, backend: B): RegisteredTool[] {
  return Object.entries(table).map(([name, spec]) =>
    bindBuiltin(name, spec as BuiltinSpec, runs[name as keyof T] as BuiltinRun<unknown, B>, backend),
  );
}
