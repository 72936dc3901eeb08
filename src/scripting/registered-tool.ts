// Upstream's pure-JS tool form as a served tool: after a script has run, its
// `globalThis.__trailblazeTools[name] = { name?, spec: { description, inputSchema, _meta }, handler }`
// is checked and turned into what serveTools serves. `spec.inputSchema` is upstream's flat form
// (`{ param: { type, description } }`, every parameter required) or a JSON Schema object. The
// handler gets `(args, ctx)`, ctx with `tools` added and memory readable as properties, and
// `globalThis.__trailblazeCall(name, argsJson)` answers as upstream's in-process binding does.
// Pure: runs in QuickJS and under bun.

import type { TrailblazeClient } from "./client.ts";
import type { ServedTool } from "./serve-tools.ts";

interface Registration {
  name?: unknown;
  spec?: unknown;
  handler?: unknown;
}

const SHAPE = "expected { spec: { description, inputSchema }, handler: async (args, ctx) => ({ content: [...] }) }";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const kindOf = (value: unknown) =>
  value === undefined ? "missing" : value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;

/** Upstream's flat `{ param: {type, …} }` or a JSON Schema object, as JSON Schema (flat: every parameter required, non-object entries dropped). */
export function registeredInputSchema(inputSchema: Record<string, unknown>): Record<string, unknown> {
  if (inputSchema.type === "object" && isRecord(inputSchema.properties)) return inputSchema;
  const properties = Object.fromEntries(Object.entries(inputSchema).filter(([, schema]) => isRecord(schema)));
  const required = Object.keys(properties);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * Upstream hands a pure-JS handler memory as a plain object (`ctx.memory.email`); ours has
 * get/set too. The memory itself is the prototype, so its methods (and what `set` writes) still
 * count; each key of the snapshot that is not a method name reads through `get`.
 */
function readableMemory(memory: unknown): unknown {
  if (!isRecord(memory) || typeof memory.keys !== "function" || typeof memory.get !== "function") return memory;
  const tracked = memory as { keys(): readonly string[]; get(key: string): string | undefined };
  const readable = Object.create(memory) as Record<string, unknown>;
  for (const key of tracked.keys()) {
    if (!(key in memory)) Object.defineProperty(readable, key, { get: () => tracked.get(key), enumerable: true });
  }
  return readable;
}

/** Upstream's `__trailblazeCall(name, argsJson)`: a JSON result string, `{ isError: true, error }` for a failed tool. */
function callBinding(client: TrailblazeClient) {
  const tools = client.tools as unknown as Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
  return async (name: string, argsJson: string): Promise<string> => {
    try {
      const result = await tools[name]!(argsJson ? (JSON.parse(argsJson) as Record<string, unknown>) : {});
      return JSON.stringify(
        typeof result === "string" ? { isError: false, textContent: result } : { isError: false, structuredContent: result },
      );
    } catch (error) {
      return JSON.stringify({ isError: true, error: error instanceof Error ? error.message : String(error) });
    }
  };
}

/**
 * The tool `name` that the script `file` registered on `globalThis.__trailblazeTools` (at `at`,
 * file:line:col of its key); `meta` are sidecar `_meta` keys. Throws, naming `at` and the field,
 * when the script registered no such tool or its registration is not of upstream's shape.
 */
export function registeredTool(name: string, file: string, at: string, meta: Record<string, unknown> = {}): ServedTool {
  const registry = (globalThis as { __trailblazeTools?: unknown }).__trailblazeTools;
  if (!isRecord(registry)) {
    throw new TypeError(
      `${at}: ${file} ran but globalThis.__trailblazeTools is ${kindOf(registry)}; register tools as globalThis.__trailblazeTools["${name}"] = { spec, handler }`,
    );
  }
  const entry = registry[name] as Registration | undefined;
  if (entry === undefined) {
    const known = Object.keys(registry).sort();
    throw new TypeError(
      `${at}: ${file} registered no tool "${name}" on globalThis.__trailblazeTools when it ran (${known.length > 0 ? `it registered: ${known.join(", ")}` : "it registered none"})`,
    );
  }
  const field = (path: string, problem: string) => new TypeError(`${at}: __trailblazeTools["${name}"]${path}: ${problem}`);
  if (!isRecord(entry)) throw field("", `is ${kindOf(entry)}; ${SHAPE}`);
  if (typeof entry.handler !== "function")
    throw field(".handler", `is ${kindOf(entry.handler)}; expected a function (args, ctx) => result`);
  if (entry.name !== undefined && entry.name !== name)
    throw field(".name", `is ${JSON.stringify(entry.name)} but the tool is registered under "${name}"; make them the same`);
  if (entry.spec !== undefined && !isRecord(entry.spec))
    throw field(".spec", `is ${kindOf(entry.spec)}; expected { description?, inputSchema?, _meta? }`);
  const spec = (entry.spec ?? {}) as Record<string, unknown>;
  if (spec.description !== undefined && typeof spec.description !== "string")
    throw field(".spec.description", `is ${kindOf(spec.description)}; expected a string`);
  if (spec.inputSchema !== undefined && !isRecord(spec.inputSchema)) {
    throw field(".spec.inputSchema", `is ${kindOf(spec.inputSchema)}; expected { param: { type, description } } or a JSON Schema object`);
  }
  if (spec._meta !== undefined && !isRecord(spec._meta))
    throw field(".spec._meta", `is ${kindOf(spec._meta)}; expected an object of trailblaze/* keys`);
  const handler = entry.handler as (args: unknown, ctx: unknown) => unknown;
  return {
    name,
    file,
    value: (args: unknown, ctx: unknown, client: TrailblazeClient) => {
      (globalThis as { __trailblazeCall?: unknown }).__trailblazeCall = callBinding(client);
      return handler(args, isRecord(ctx) ? { ...ctx, memory: readableMemory(ctx.memory), tools: client.tools } : ctx);
    },
    ...(typeof spec.description === "string" ? { description: spec.description } : {}),
    inputSchema: registeredInputSchema((spec.inputSchema ?? {}) as Record<string, unknown>),
    meta: {
      ...meta,
      ...Object.fromEntries(Object.entries((spec._meta ?? {}) as Record<string, unknown>).filter(([key]) => key.startsWith("trailblaze/"))),
    },
  };
}
