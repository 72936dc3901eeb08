// `trailblaze.tool`: the per-file way to write a tool.
//
//   export const myapp_openSettings = trailblaze.tool<{ section?: string }>(
//     { supportedPlatforms: ["android"] },
//     async (input, ctx) => { await ctx.tools.tapOnElementWithText({ text: "Settings" }); return "opened"; },
//   );
//
// The export's name is the tool's name; the runtime finds it through a target's `tools:` list and
// serves it (see serve-tools.ts). The value is also a plain async function, so a unit test calls
// it directly: `await myapp_openSettings({}, createMockContext({ platform: "android" }), client)`.
//
// The imperative form `trailblaze.tool(name, spec, handler)` + `await trailblaze.run()` makes a
// whole MCP server in one file, for a `script:` entry of `mcp_servers:`.

import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createClient, type TrailblazeClient } from "./client.ts";
import { createMemory, type TrailblazeMemory } from "./memory.ts";
import type { DevicePlatform, ToolContext, ToolDevice, TrailblazeCallContext } from "./tool-context.ts";

export type { DevicePlatform, ToolContext, ToolDevice, ToolTarget, TrailblazeCallContext } from "./tool-context.ts";

export type SupportedPlatform = DevicePlatform | "desktop";

/** Registration settings of a per-file tool; each maps to a `_meta["trailblaze/*"]` key. */
export interface TypedToolSpec {
  /** For the LLM. Default: the doc comment above the `export const`. */
  description?: string;
  supportedPlatforms?: readonly SupportedPlatform[];
  /** Driver yaml keys, e.g. `android-ondevice-accessibility`. */
  supportedDrivers?: readonly string[];
  /** Registered only with the host agent. */
  requiresHost?: boolean;
  /** A hint that the tool needs the session context; never a filter. */
  requiresContext?: boolean;
  /** Offered to the LLM (default true). */
  surfaceToLlm?: boolean;
  /** Written into recordings (default true). */
  isRecordable?: boolean;
  /** Arguments that carry a secret: the built-in agent may fill `{{password}}` into these and no other (default none). */
  sensitiveArgs?: readonly string[];
  /** JSON Schema of the input. Default: a `<name>.yaml` sidecar's, else derived from the input type. */
  inputSchema?: Record<string, unknown>;
}

/** Upstream's name for TypedToolSpec. */
export type TrailblazeTypedToolSpec = TypedToolSpec;

/** A tool without arguments: `trailblaze.tool<EmptyInput>(…)`. */
export type EmptyInput = Record<string, never>;

/** Marks a value made by `trailblaze.tool`; the runtime reads the spec through it. */
export const TYPED_TOOL = Symbol.for("trailblaze.typedTool");

/** A per-file tool: callable as `(input, ctx, client)`, resolving with what the handler returns. */
export type TypedToolDefinition<I = EmptyInput, O = unknown> = ((
  input: I,
  ctx?: TrailblazeCallContext,
  client?: TrailblazeClient,
) => Promise<O>) & { readonly [TYPED_TOOL]: TypedToolSpec };

type TypedHandler<I, O> = (input: I, ctx: ToolContext) => O | Promise<O>;

/** Handler of the imperative form: the MCP arguments, the call context (absent under a plain MCP client), a client. */
export type TrailblazeToolHandler = (
  args: Record<string, unknown>,
  ctx: (TrailblazeCallContext & { memory: TrailblazeMemory }) | undefined,
  client: TrailblazeClient,
) => CallToolResult | Promise<CallToolResult>;

/** Settings of the imperative form, as `server.registerTool` takes them. */
export interface TrailblazeToolSpec {
  description?: string;
  inputSchema?: ZodRawShapeCompat;
  _meta?: Record<string, unknown>;
}

const noTools: TrailblazeClient = createClient(async (name) => {
  throw new Error(
    `ctx.tools.${name}: no session to call it in; pass a client as the third argument (createMockClient() from @trailblaze/scripting/testing in a unit test)`,
  );
});

function isMemory(value: unknown): value is TrailblazeMemory {
  return typeof value === "object" && value !== null && typeof (value as TrailblazeMemory).interpolate === "function";
}

/** The device with its `driverType` read from upstream's old `driver` when it has only that (as upstream's typed tools do). */
function normalDevice(device: ToolDevice): ToolDevice {
  const hasType = typeof device.driverType === "string" && device.driverType.length > 0;
  return !hasType && typeof device.driver === "string" && device.driver.length > 0 ? { ...device, driverType: device.driver } : device;
}

/** The handler's ToolContext for a call with `ctx` (from a test or the runtime) and `client`. */
export function toolContextOf(ctx: TrailblazeCallContext | undefined, client: TrailblazeClient | undefined): ToolContext {
  const memory = isMemory(ctx?.memory) ? ctx.memory : createMemory(ctx?.memory ?? {});
  return {
    tools: (client ?? noTools).tools,
    memory,
    ...(ctx?.device ? { device: normalDevice(ctx.device) } : {}),
    ...(ctx?.target ? { target: ctx.target } : {}),
  };
}

function defineTool<I, O>(spec: TypedToolSpec, handler: TypedHandler<I, O>): TypedToolDefinition<I, O> {
  if (typeof handler !== "function") {
    throw new TypeError(
      `trailblaze.tool(spec, handler): the handler must be a function, got ${handler === null ? "null" : typeof handler}`,
    );
  }
  const run = async (input: I, ctx?: TrailblazeCallContext, client?: TrailblazeClient) =>
    handler((input ?? {}) as I, toolContextOf(ctx, client));
  return Object.defineProperty(run, TYPED_TOOL, { value: Object.freeze({ ...spec }), enumerable: false }) as TypedToolDefinition<I, O>;
}

/** Whether `value` was made by `trailblaze.tool(spec?, handler)`. */
export function isTypedTool(value: unknown): value is TypedToolDefinition<unknown, unknown> {
  return typeof value === "function" && TYPED_TOOL in value;
}

interface PendingTool {
  name: string;
  spec: TrailblazeToolSpec;
  handler: TrailblazeToolHandler;
}

const pending: PendingTool[] = [];

/**
 * `tool<I, O>(handler)` / `tool<I, O>(spec, handler)`: a per-file tool (export it under the tool's name).
 * `tool(name, spec, handler)`: adds a tool to the server `run()` starts.
 */
export function tool<I = EmptyInput, O = unknown>(handler: TypedHandler<I, O>): TypedToolDefinition<I, O>;
export function tool<I = EmptyInput, O = unknown>(spec: TypedToolSpec, handler: TypedHandler<I, O>): TypedToolDefinition<I, O>;
export function tool(name: string, spec: TrailblazeToolSpec, handler: TrailblazeToolHandler): void;
export function tool(first: unknown, second?: unknown, third?: unknown): unknown {
  if (typeof first === "string") {
    if (typeof third !== "function") throw new TypeError(`trailblaze.tool("${first}", spec, handler): the handler must be a function`);
    if (pending.some((t) => t.name === first))
      throw new Error(`trailblaze.tool("${first}"): a tool of that name is already declared in this server`);
    pending.push({ name: first, spec: (second ?? {}) as TrailblazeToolSpec, handler: third as TrailblazeToolHandler });
    return undefined;
  }
  if (typeof first === "function") return defineTool({}, first as TypedHandler<unknown, unknown>);
  return defineTool((first ?? {}) as TypedToolSpec, second as TypedHandler<unknown, unknown>);
}

/**
 * Starts an MCP server over stdio with every tool declared by `tool(name, spec, handler)` (on
 * device, the same call attaches to the runtime). Resolves once connected.
 */
export async function run(options: { name?: string; version?: string } = {}): Promise<void> {
  const [{ McpServer }, { StdioServerTransport }, { callContextOf, sessionClient }, { withMemory }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("./call-context.ts"),
    import("./result.ts"),
  ]);
  // `logging`: a handler's ctx.logger sends MCP log messages (logger.ts).
  const server = new McpServer(
    { name: options.name ?? "trailblaze-tools", version: options.version ?? "0.0.0" },
    { capabilities: { logging: {} } },
  );
  for (const { name, spec, handler } of pending.splice(0)) {
    const config = {
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      ...(spec._meta ? { _meta: spec._meta } : {}),
    };
    // As upstream: what the handler wrote to ctx.memory goes back with a result that is not an error.
    const call = async (args: Record<string, unknown>, extra: Parameters<typeof sessionClient>[0]) => {
      const ctx = callContextOf(args, extra, name);
      const result = await handler(args, ctx, sessionClient(extra));
      const ok = typeof result === "object" && result !== null && result.isError !== true;
      return ctx && ok ? withMemory(result, ctx.memory.changes()) : result;
    };
    if (spec.inputSchema) server.registerTool(name, { ...config, inputSchema: spec.inputSchema }, call as never);
    else server.registerTool(name, config, (extra) => call({}, extra));
  }
  await server.connect(new StdioServerTransport());
}

/** What tool files import as `trailblaze`. */
export const trailblaze = { tool, run };
