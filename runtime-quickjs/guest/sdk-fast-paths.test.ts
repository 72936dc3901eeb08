import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from "@modelcontextprotocol/sdk/types.js";
import { config } from "zod/v4/core";
import { sdkFastPaths, VERIFIED_SDK_VERSIONS } from "./sdk-fast-paths.ts";

const sdkPackage = new URL("../../node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url);
/** The SDK this package ships (and on-device bundles get when a workspace has none). */
const SDK_VERSION = (JSON.parse(readFileSync(sdkPackage, "utf8")) as { version: string }).version;
const fast = sdkFastPaths(SDK_VERSION);

/** Serialization including key order, plus the structure itself. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(actual).toEqual(expected);
}

const CONTEXT = { memory: { a: 1 }, device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "x" } };
const call = (params: unknown, extra: Record<string, unknown> = {}) => ({ method: "tools/call", params, jsonrpc: "2.0", id: 2, ...extra });

/** Requests as a host sends them and near misses of every member; JSON-made unless noted. */
const REQUESTS: unknown[] = [
  call({ name: "echo", arguments: { text: "hi", _trailblazeContext: CONTEXT }, _meta: { trailblaze: CONTEXT, progressToken: "t-1" } }),
  call({ _meta: { progressToken: 7, other: 1 }, name: "echo", arguments: { text: "hi" } }),
  call({ name: "echo" }),
  call({ name: "echo", arguments: {} }),
  call({ name: "echo", arguments: { "2": "b", "1": "a", z: { deep: [1, 2] } } }),
  call({ name: "echo", arguments: { text: "hi" }, extra: "stripped" }),
  call({ name: "echo", arguments: { text: "hi" } }, { extra: true }),
  call({ name: "echo", task: { ttl: 5 } }),
  call({ name: "echo", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } }),
  call({ name: "echo", _meta: { progressToken: 1.5 } }),
  call({ name: "echo", _meta: { progressToken: null } }),
  call({ name: "echo", _meta: { progressToken: 2 ** 60 } }),
  call({ name: "echo", _meta: [] }),
  call({ name: "echo", _meta: null }),
  call({ name: "echo", arguments: [] }),
  call({ name: "echo", arguments: null }),
  call({ name: "echo", arguments: "text" }),
  call({ name: 5 }),
  call({ arguments: {} }),
  call(null),
  call([]),
  call("params"),
  JSON.parse('{"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"x":1},"a":1}},"jsonrpc":"2.0","id":1}'),
  JSON.parse('{"method":"tools/call","params":{"name":"echo","_meta":{"__proto__":{"x":1}}},"jsonrpc":"2.0","id":1}'),
  JSON.parse('{"__proto__":{"x":1},"method":"tools/call","params":{"name":"echo"},"jsonrpc":"2.0","id":1}'),
  { method: "tools/call", params: { name: "echo", arguments: { [Symbol("s")]: 1, a: 1 } }, jsonrpc: "2.0", id: 1 },
  { method: "tools/call", params: Object.create({ name: "echo" }), jsonrpc: "2.0", id: 1 },
  { jsonrpc: "2.0", id: "abc", method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "ping", params: {} },
  { jsonrpc: "2.0", id: 1.5, method: "ping" },
  { jsonrpc: "2.0", id: null, method: "ping" },
  { jsonrpc: "2.0", id: true, method: "ping" },
  { jsonrpc: "2.0", id: 2 ** 60, method: "ping" },
  { jsonrpc: "2.0", id: -0, method: "ping" },
  { jsonrpc: "2.0", id: Number.MAX_SAFE_INTEGER, method: "ping" },
  { jsonrpc: "2.0", id: -Number.MAX_SAFE_INTEGER, method: "ping" },
  { jsonrpc: "2.0", id: 1e300, method: "ping" },
  { jsonrpc: "2.0", id: "", method: "" },
  { jsonrpc: "1.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 1, method: 5 },
  { jsonrpc: "2.0", id: 1, method: "ping", params: null },
  { jsonrpc: "2.0", id: 1, method: "ping", params: [] },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 1, result: { content: [] }, method: "x" },
  { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
  { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
  { jsonrpc: "2.0", id: 1, result: undefined },
  null,
  undefined,
  "text",
  42,
  [],
  [{ jsonrpc: "2.0", id: 1, method: "ping" }],
];

/** Tool results: text-only ones (the fast path) and everything a tool may return besides. */
const RESULTS: unknown[] = [
  { content: [{ type: "text", text: "echo: hi" }] },
  { content: [] },
  {
    content: [
      { type: "text", text: "a" },
      { type: "text", text: "" },
    ],
    isError: true,
  },
  { isError: false, content: [{ text: "x", type: "text" }] },
  { content: [{ type: "text", text: "a", annotations: { priority: 1 } }] },
  { content: [{ type: "text", text: "a", extra: 1 }] },
  { content: [{ type: "text", text: 5 }] },
  { content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] },
  { content: [{ type: "bogus" }] },
  { content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } },
  { content: [{ type: "text", text: "a" }], _meta: { trailblaze: { memoryDelta: { k: "v" } } } },
  { content: [{ type: "text", text: "a" }], isError: "yes" },
  { content: [{ type: "text", text: "a" }], other: 1 },
  { content: "text" },
  { content: [null] },
  { content: [{ type: "text", text: "a" }, , { type: "text", text: "b" }] }, // a hole
  {},
  { isError: true },
  null,
  "text",
  JSON.parse('{"content":[{"type":"text","text":"a","__proto__":{"x":1}}]}'),
];

describe.each([true, false])("the SDK fast paths give the schemas' answers (zod jitless: %p)", (jitless) => {
  let before: boolean | undefined;
  beforeAll(() => {
    before = config().jitless;
    config({ jitless });
  });
  afterAll(() => void config({ jitless: before }));

  test("a message the request fast path accepts is a JSON-RPC request; one without result/error is no response", () => {
    let accepted = 0;
    for (const message of REQUESTS) {
      if (fast.isRequest(message)) {
        accepted++;
        expect({ message, request: isJSONRPCRequest(message) }).toEqual({ message, request: true });
      }
      if (!fast.mayHave(message, "result"))
        expect({ message, result: isJSONRPCResultResponse(message) }).toEqual({ message, result: false });
      if (!fast.mayHave(message, "error")) expect({ message, error: isJSONRPCErrorResponse(message) }).toEqual({ message, error: false });
    }
    // The requests a host sends take the fast path.
    expect(fast.isRequest(REQUESTS[0])).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(8);
  });

  test("a tools/call request the fast path parses is parsed by CallToolRequestSchema to the same value", () => {
    let parsed = 0;
    for (const request of REQUESTS) {
      const mine = fast.callToolRequest(request);
      if (mine === undefined) continue;
      parsed++;
      const theirs = CallToolRequestSchema.safeParse(request);
      expect({ request, success: theirs.success }).toEqual({ request, success: true });
      expectSame(mine, theirs.data);
      const args = (request as { params: { arguments?: Record<string, unknown> } }).params.arguments;
      for (const key of Object.keys(args ?? {}))
        expect((mine.params as { arguments: Record<string, unknown> }).arguments[key]).toBe(args![key]);
    }
    expect(fast.callToolRequest(REQUESTS[0])).toBeDefined();
    expect(parsed).toBeGreaterThanOrEqual(6);
  });

  test("a result the fast path checks is parsed by CallToolResultSchema to the same value", () => {
    let checked = 0;
    for (const result of RESULTS) {
      const mine = fast.toolResult(result);
      if (mine === undefined) continue;
      checked++;
      const theirs = CallToolResultSchema.safeParse(result);
      expect({ result, success: theirs.success }).toEqual({ result, success: true });
      expectSame(mine.data, theirs.data);
    }
    expect(checked).toBe(4);
  });
});

describe("which SDK versions get the fast paths", () => {
  test("the SDK this package ships is one the fast paths were checked against", () => {
    expect(VERIFIED_SDK_VERSIONS).toContain(SDK_VERSION);
  });

  test("any other version defers every answer to the SDK's own schemas", () => {
    const other = sdkFastPaths("0.0.0-unchecked");
    const request = REQUESTS[0];
    expect(other.isRequest(request)).toBe(false);
    expect(other.mayHave(request, "result")).toBe(true);
    expect(other.callToolRequest(request)).toBeUndefined();
    expect(other.toolResult(RESULTS[0])).toBeUndefined();
  });
});
