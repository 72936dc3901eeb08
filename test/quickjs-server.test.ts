// Real author files, bundled for on-device and run in QuickJS, driven by the SDK Client over the
// in-process transport: tool listing, calls, guest globals, trailblaze.execute, sandbox escapes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { startQuickJsServer, type QuickJsServer, type QuickJsServerOptions } from "../runtime-quickjs/index.ts";

const REPO = resolve(import.meta.dir, "..");

async function bundled(fixture: string): Promise<string> {
  return (await bundleEntry(`fixtures/bundle/${fixture}`, { cwd: REPO })).code;
}

async function connect(code: string, opts: Partial<QuickJsServerOptions> = {}): Promise<{ server: QuickJsServer; client: Client }> {
  const server = await startQuickJsServer({ name: "fixture", code, ...opts });
  const client = new Client({ name: "quickjs-test", version: "1.0.0" });
  await client.connect(server.transport);
  return { server, client };
}

function text(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? `[${c.type}]`).join("|");
}

describe("a standard McpServer + zod author file in QuickJS", () => {
  let server: QuickJsServer;
  let client: Client;
  const logs: string[] = [];

  beforeAll(async () => {
    ({ server, client } = await connect(await bundled("echo-server.ts"), {
      name: "echo",
      onLog: (level, line) => logs.push(`${level} ${line}`),
    }));
  });
  afterAll(async () => {
    await client.close();
  });

  test("initialize reports the author's server info", () => {
    expect(client.getServerVersion()).toEqual({ name: "echo-fixture", version: "1.0.0" });
  });

  test("tools/list returns the JSON schemas zod v4 produces", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "whoami", "pixel", "open_url"]);
    const echo = tools[0]!;
    expect(echo.description).toBe("Echoes its text back");
    expect(echo.inputSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { text: { type: "string" }, times: { type: "integer", minimum: 1, maximum: 9007199254740991 } },
      required: ["text"],
    });
    expect(tools[3]!.inputSchema.properties).toEqual({ url: { type: "string", format: "uri" } });
  });

  test("tools/call runs the handler", async () => {
    expect(await client.callTool({ name: "echo", arguments: { text: "hi", times: 3 } })).toEqual({
      content: [{ type: "text", text: "hihihi" }],
    });
  });

  test("argument validation still rejects bad arguments", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: 5 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      "MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received number at text",
    );
  });

  test("the request's _meta reaches the handler as extra._meta", async () => {
    const result = await client.callTool({ name: "whoami", arguments: {}, _meta: { trailblaze: { device: "emulator-5554", step: 3 } } });
    expect(text(result)).toBe('{"device":"emulator-5554","step":3}');
  });

  test("image content built with atob/btoa passes the SDK's base64 validation", async () => {
    const result = await client.callTool({ name: "pixel", arguments: { label: "dot" } });
    expect(result.content).toEqual([
      {
        type: "image",
        mimeType: "image/png",
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      },
      { type: "text", text: "dot:70" },
    ]);
  });

  test("z.url() accepts URLs and rejects non-URLs; the handler can parse them", async () => {
    expect(text(await client.callTool({ name: "open_url", arguments: { url: "https://Example.com/a/../b?x=1" } }))).toBe(
      "https:|example.com|/b",
    );
    const bad = await client.callTool({ name: "open_url", arguments: { url: "not a url" } });
    expect(text(bad)).toBe("MCP error -32602: Input validation error: Invalid arguments for tool open_url: Invalid URL at url");
  });

  test("an unknown tool is an error result, as on stdio", async () => {
    const result = await client.callTool({ name: "nope", arguments: {} });
    expect(text(result)).toBe("MCP error -32602: Tool nope not found");
  });

  test("memory usage is reported", () => {
    const usage = server.memoryUsage();
    expect(usage.bytes).toBeGreaterThan(100_000);
    expect(usage.linearBytes).toBeGreaterThanOrEqual(16 * 1024 * 1024);
  });
});

describe("trailblaze.execute, timers and console", () => {
  test("execute calls onExecute and resolves with the JSON of its result; rejections become guest errors", async () => {
    const calls: [string, Record<string, unknown>][] = [];
    const { client } = await connect(await bundled("execute-server.ts"), {
      onExecute: async (name, args) => {
        calls.push([name, args]);
        if (name === "missingTool") throw new Error("no tool named missingTool");
        return { ok: true, tool: name };
      },
    });
    const login = await client.callTool({ name: "login", arguments: { user: "bob" } });
    expect(JSON.parse(text(login))).toEqual({ typed: { ok: true, tool: "inputText" }, tapped: { ok: true, tool: "tapOnElement" } });
    expect(calls).toEqual([
      ["inputText", { text: "bob" }],
      ["tapOnElement", { id: "submit" }],
    ]);
    expect(text(await client.callTool({ name: "try_missing", arguments: {} }))).toBe("caught Error: no tool named missingTool");
    await client.close();
  });

  test("without onExecute, execute rejects with a message that says so", async () => {
    const { client } = await connect(await bundled("execute-server.ts"));
    expect(text(await client.callTool({ name: "try_missing", arguments: {} }))).toBe(
      'caught Error: trailblaze.execute("missingTool") is not available: this QuickJS server was started without onExecute',
    );
    await client.close();
  });

  test("setTimeout is backed by host timers", async () => {
    const { client } = await connect(await bundled("execute-server.ts"));
    expect(text(await client.callTool({ name: "wait", arguments: { ms: 30 } }))).toBe("waited enough");
    await client.close();
  });

  test("timers are limited: past 10 000 pending the guest gets a RangeError, and a delay past 2^31 - 1 ms waits instead of firing at once", async () => {
    const { client } = await connect(await bundled("timers-server.ts"));
    expect(text(await client.callTool({ name: "flood", arguments: { count: 10_005 } }))).toBe(
      "armed 10000, then RangeError: too many pending timers (at most 10000 at once on-device); clear the ones you no longer need",
    );
    // Cleared, they free their places.
    expect(text(await client.callTool({ name: "flood", arguments: { count: 10 } }))).toBe("armed 10");
    expect(text(await client.callTool({ name: "farFuture", arguments: {} }))).toBe("the far timer is still pending");
    await client.close();
  });

  test("the author's server.close() closes the host side too", async () => {
    const { server, client } = await connect(await bundled("execute-server.ts"));
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    expect(text(await client.callTool({ name: "shutdown", arguments: {} }))).toBe("bye");
    await closed;
    expect(server.memoryUsage()).toEqual({ bytes: 0, linearBytes: 0 });
  });

  test("console output goes to onLog with its level", async () => {
    const lines: string[] = [];
    const code = `
      console.log("plain", 1, { a: [1, "x"] });
      console.warn("careful");
      console.error(new TypeError("bad"));
      console.debug("details");
      ${await bundled("echo-server.ts")}`;
    const { client } = await connect(code, { onLog: (level, line) => lines.push(`${level}: ${line}`) });
    expect(lines.slice(0, 2)).toEqual(['info: plain 1 {"a":[1,"x"]}', "warn: careful"]);
    expect(lines[2]).toStartWith("error: TypeError: bad\n    at <eval> (fixture.bundle.js:4");
    expect(lines[3]).toBe("debug: details");
    await client.close();
  });
});

describe("the sandbox has no way out", () => {
  test("process, require, fetch, Buffer, Function('return this'), dynamic import(), std/os", async () => {
    const { client } = await connect(await bundled("escape-probe.ts"));
    expect(JSON.parse(text(await client.callTool({ name: "probe", arguments: {} })))).toEqual({
      process: "ok:undefined",
      require: 'threw:Error: Dynamic require of "node:fs" is not supported',
      globalFetch: "ok:undefined",
      buffer: "ok:undefined",
      functionThisProcess: "ok:undefined",
      constructorProcess: "ok:undefined",
      processEnv: "threw:TypeError: cannot read property 'env' of undefined",
      dynamicImport: "threw:ReferenceError: could not load module 'node:fs'",
      std: "ok:undefined/undefined",
    });
    await client.close();
  });
});
