// A pure-JS registration as the served tool: upstream's spec shapes, the checks that name
// file:line:col and the field, and the ctx and __trailblazeCall its handler gets.

import { afterEach, describe, expect, test } from "bun:test";
import { createClient } from "./client.ts";
import { createMemory } from "./memory.ts";
import { registeredInputSchema, registeredTool } from "./registered-tool.ts";

const AT = "tools/pure.js:3:9";
const globals = globalThis as { __trailblazeTools?: unknown; __trailblazeCall?: unknown };
afterEach(() => {
  delete globals.__trailblazeTools;
  delete globals.__trailblazeCall;
});

describe("registeredInputSchema", () => {
  test("upstream's flat form: every parameter required, non-object entries dropped; a JSON Schema object as is", () => {
    expect(registeredInputSchema({ a: { type: "number" }, note: "x" })).toEqual({
      type: "object",
      properties: { a: { type: "number" } },
      required: ["a"],
    });
    expect(registeredInputSchema({})).toEqual({ type: "object", properties: {} });
    const schema = { type: "object", properties: { q: { type: "string" } } };
    expect(registeredInputSchema(schema)).toBe(schema);
  });
});

describe("registeredTool", () => {
  test("serves the spec's description, schema and trailblaze/* _meta; the handler gets ctx with tools and memory readable as properties", async () => {
    let seen: Record<string, unknown> = {};
    globals.__trailblazeTools = {
      app_echo: {
        spec: { description: "Echoes.", inputSchema: { text: { type: "string" } }, _meta: { "trailblaze/requiresHost": true, other: 1 } },
        handler: async (args: { text: string }, ctx: Record<string, unknown>) => {
          seen = ctx;
          const memory = ctx.memory as { user: string; set(k: string, v: string): void };
          memory.set("last", args.text);
          const reply = JSON.parse(
            await (globals.__trailblazeCall as (n: string, a: string) => Promise<string>)("app_other", JSON.stringify({ n: 1 })),
          );
          return { content: [{ type: "text", text: `${args.text} ${memory.user} ${reply.textContent}` }] };
        },
      },
    };
    const served = registeredTool("app_echo", "tools/pure.js", AT, { "trailblaze/toolset": "app" });
    expect({ description: served.description, inputSchema: served.inputSchema, meta: served.meta }).toEqual({
      description: "Echoes.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      meta: { "trailblaze/toolset": "app", "trailblaze/requiresHost": true },
    });
    const client = createClient(async (name, args) => ({
      success: true,
      textContent: `${name}(${JSON.stringify(args)})`,
      errorMessage: "",
    }));
    const memory = createMemory({ user: "ann" });
    const result = await (served.value as (a: unknown, c: unknown, cl: unknown) => Promise<{ content: { text: string }[] }>)(
      { text: "hi" },
      { memory, device: { platform: "android" } },
      client,
    );
    expect(result.content[0]!.text).toBe('hi ann app_other({"n":1})');
    expect(seen.tools).toBe(client.tools);
    expect(memory.changes()).toEqual({ memoryDelta: { last: "hi" }, memoryDeletions: [] });
  });

  test("a failed call through __trailblazeCall is { isError: true, error }", async () => {
    globals.__trailblazeTools = {
      app_x: { handler: async () => await (globals.__trailblazeCall as (n: string, a: string) => Promise<string>)("app_y", "{}") },
    };
    const client = createClient(async () => ({ success: false, textContent: "", errorMessage: "no such screen" }));
    const answer = await (registeredTool("app_x", "tools/pure.js", AT).value as (a: unknown, c: unknown, cl: unknown) => Promise<string>)(
      {},
      undefined,
      client,
    );
    expect(JSON.parse(answer)).toEqual({ isError: true, error: "ctx.tools.app_y: tool failed: no such screen" });
  });

  test("a missing or malformed registration names file:line:col and the field", () => {
    const problem = (tools: unknown, name = "app_x") => {
      globals.__trailblazeTools = tools;
      try {
        registeredTool(name, "tools/pure.js", AT);
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    };
    expect(problem(undefined)).toBe(
      `${AT}: tools/pure.js ran but globalThis.__trailblazeTools is missing; register tools as globalThis.__trailblazeTools["app_x"] = { spec, handler }`,
    );
    expect(problem({ app_a: {}, app_b: {} })).toBe(
      `${AT}: tools/pure.js registered no tool "app_x" on globalThis.__trailblazeTools when it ran (it registered: app_a, app_b)`,
    );
    expect(problem({ app_x: () => {} })).toBe(
      `${AT}: __trailblazeTools["app_x"]: is a function; expected { spec: { description, inputSchema }, handler: async (args, ctx) => ({ content: [...] }) }`,
    );
    expect(problem({ app_x: { handler: "run" } })).toBe(
      `${AT}: __trailblazeTools["app_x"].handler: is a string; expected a function (args, ctx) => result`,
    );
    expect(problem({ app_x: { name: "app_y", handler() {} } })).toBe(
      `${AT}: __trailblazeTools["app_x"].name: is "app_y" but the tool is registered under "app_x"; make them the same`,
    );
    expect(problem({ app_x: { handler() {}, spec: { inputSchema: [] } } })).toBe(
      `${AT}: __trailblazeTools["app_x"].spec.inputSchema: is an array; expected { param: { type, description } } or a JSON Schema object`,
    );
    expect(problem({ app_x: { handler() {}, spec: { description: 3 } } })).toBe(
      `${AT}: __trailblazeTools["app_x"].spec.description: is a number; expected a string`,
    );
  });
});
