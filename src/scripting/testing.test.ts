import { describe, expect, test } from "bun:test";
import { createClient, unwrapToolResult } from "./client.ts";
import { createMockClient, createMockContext, createQueuedFindMatchesClient } from "./testing.ts";
import { trailblaze } from "./trailblaze.ts";

/** `client.tools` with any name, as a test without a generated client sees it. */
type AnyTools = Record<string, (args?: unknown, ...rest: unknown[]) => Promise<unknown>>;
const toolsOf = (client: { tools: unknown }) => client.tools as AnyTools;

describe("createMockClient", () => {
  test("records each call in order with its arguments; a tool with no stub answers empty text", async () => {
    const client = createMockClient();
    expect(await toolsOf(client).web_navigate!({ url: "https://shop.example" })).toBe("");
    await toolsOf(client).tapOnElementWithText!({ text: "Buy" });
    await toolsOf(client).pressBack!();
    expect(client.calls).toEqual([
      { tool: "web_navigate", args: { url: "https://shop.example" } },
      { tool: "tapOnElementWithText", args: { text: "Buy" } },
      { tool: "pressBack", args: {} },
    ]);
  });

  test("a stub answers with its structured result when it has one (falsy ones too), else its text", async () => {
    const client = createMockClient();
    const answers: [unknown, unknown][] = [
      [{ total: 3 }, { total: 3 }],
      [0, 0],
      [false, false],
      ["", ""],
      [null, "the text"],
      [undefined, "the text"],
    ];
    for (const [structuredContent, expected] of answers) {
      client.stub("cart_total", { textContent: "the text", structuredContent });
      expect(await toolsOf(client).cart_total!({})).toEqual(expected);
      // What the real client unwraps is the same.
      expect(unwrapToolResult({ success: true, textContent: "the text", errorMessage: "", structuredContent })).toEqual(expected);
    }
  });

  test("a stub with an error message rejects as a failed tool does in a session; reset forgets stubs and calls alike", async () => {
    const client = createMockClient();
    const calls = client.calls;
    client.stub("assertVisibleWithText", { textContent: "", errorMessage: "no element with text Pay" });
    await expect(toolsOf(client).assertVisibleWithText!({ text: "Pay" })).rejects.toThrow(
      "ctx.tools.assertVisibleWithText: tool failed: no element with text Pay",
    );
    client.reset();
    expect(calls).toEqual([]);
    expect(client.calls).toBe(calls);
    expect(await toolsOf(client).assertVisibleWithText!({ text: "Pay" })).toBe("");
  });

  test("a blank tool name is refused where it is written: stub(), and reading tools[name]", () => {
    const client = createMockClient();
    expect(() => client.stub(" \t", { textContent: "" })).toThrow(
      'createMockClient: stub(" \\t"): a tool name must not be empty or whitespace-only',
    );
    expect(() => toolsOf(client)[""]).toThrow('ctx.tools[""]: a tool name must not be empty or whitespace-only');
    expect(() => toolsOf(client)["  "]).toThrow('ctx.tools["  "]: a tool name must not be empty or whitespace-only');
    expect(client.calls).toEqual([]);
  });

  test("names a promise library or a serializer probes are no tools, and awaiting `tools` records nothing", async () => {
    const client = createMockClient();
    const probed = ["then", "catch", "finally", "constructor", "prototype", "__proto__", "toString", "valueOf", "toJSON"];
    expect(probed.map((name) => toolsOf(client)[name])).toEqual(probed.map(() => undefined));
    expect((client.tools as unknown as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
    expect(await client.tools).toBe(client.tools);
    expect(client.calls).toEqual([]);
  });

  test("web_evaluate takes a function and its arguments as a script, as in a session", async () => {
    const client = createMockClient();
    await toolsOf(client).web_evaluate!((a: number, b: number) => a + b, 1, 2);
    expect(client.calls).toEqual([{ tool: "web_evaluate", args: { script: "((a, b) => a + b).apply(null, [1,2])" } }]);
  });

  test("the real client refuses a blank name alike", () => {
    const client = createClient(async () => ({ success: true, textContent: "", errorMessage: "" }));
    expect(() => toolsOf(client)[""]).toThrow('ctx.tools[""]: a tool name must not be empty or whitespace-only');
    expect(() => toolsOf(createQueuedFindMatchesClient())[" "]).toThrow('ctx.tools[" "]: a tool name must not be empty');
  });
});

describe("createMockContext", () => {
  test("only the platform is needed: the rest has defaults, and nothing unset is present", () => {
    const ctx = createMockContext({ platform: "ios" });
    const { memory, logger, ...rest } = ctx;
    expect(rest).toEqual({
      sessionId: "mock-session",
      invocationId: "mock-invocation",
      device: { platform: "ios", widthPixels: 1080, heightPixels: 2400, driverType: "mock-driver" },
    });
    expect(Object.keys(rest.device)).toEqual(["platform", "widthPixels", "heightPixels", "driverType"]);
    expect(memory.keys()).toEqual([]);
    expect(Object.keys(logger)).toEqual(["debug", "info", "warn", "error"]);
  });

  test("what a test gives wins: ids, baseUrl, device, memory", () => {
    const ctx = createMockContext({
      platform: "web",
      sessionId: "s-9",
      invocationId: "call-3",
      baseUrl: "http://localhost:52525",
      device: { widthPixels: 1280, heightPixels: 800, driverType: "playwright-native", instanceId: "tab-1" },
      memory: { email: "ada@example.com" },
    });
    expect(ctx).toMatchObject({ sessionId: "s-9", invocationId: "call-3", baseUrl: "http://localhost:52525" });
    expect(ctx.device).toEqual({
      platform: "web",
      widthPixels: 1280,
      heightPixels: 800,
      driverType: "playwright-native",
      instanceId: "tab-1",
    });
    expect(ctx.memory.get("email")).toBe("ada@example.com");
  });

  test("upstream's old device.driver is kept and read as the driverType, unless one is given", () => {
    expect(createMockContext({ platform: "android", device: { driver: "android-ondevice-accessibility" } }).device).toEqual({
      platform: "android",
      widthPixels: 1080,
      heightPixels: 2400,
      driverType: "android-ondevice-accessibility",
      driver: "android-ondevice-accessibility",
    });
    expect(createMockContext({ platform: "android", device: { driver: "old", driverType: "android-test" } }).device.driverType).toBe(
      "android-test",
    );
  });

  test("runtime: 'ondevice' is kept; 'host' is left out, as a host's envelope has none", () => {
    expect(createMockContext({ platform: "android", runtime: "ondevice" }).runtime).toBe("ondevice");
    expect("runtime" in createMockContext({ platform: "android", runtime: "host" })).toBe(false);
  });

  test("the logger takes every level, with or without fields, and writes nothing", () => {
    const { logger } = createMockContext({ platform: "android" });
    const written: unknown[] = [];
    const [log, error] = [console.log, console.error];
    console.log = console.error = (...args: unknown[]) => void written.push(args);
    try {
      logger.debug("d");
      logger.info("i", { n: 1 });
      logger.warn("w");
      logger.error("e", { cause: "x" });
    } finally {
      [console.log, console.error] = [log, error];
    }
    expect(written).toEqual([]);
  });

  test("a per-file tool given a context with only upstream's device.driver reads it as ctx.device.driverType", async () => {
    const whichDriver = trailblaze.tool(async (_input, ctx) => ctx.device?.driverType);
    const ctx = createMockContext({ platform: "android" });
    const oldShape = {
      ...ctx,
      device: { platform: "android" as const, widthPixels: 1, heightPixels: 1, driverType: "", driver: "android-test" },
    };
    expect(await whichDriver({}, oldShape)).toBe("android-test");
    expect(await whichDriver({}, ctx)).toBe("mock-driver");
  });
});
