import { describe, expect, test } from "bun:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { mapCallError, mapCallToolResult } from "./result-mapping.ts";

describe("mapCallToolResult", () => {
  test("isError false → Success with the first text block, structuredContent and memory changes", () => {
    expect(
      mapCallToolResult({
        content: [
          { type: "image", data: "", mimeType: "image/png" },
          { type: "text", text: "done" },
          { type: "text", text: "more" },
        ],
        structuredContent: { n: 1 },
        _meta: { trailblaze: { memoryDelta: { token: "abc" }, memoryDeletions: ["old", 3] } },
      }),
    ).toEqual({
      variant: "Success",
      message: "done",
      content: [
        { type: "image", data: "", mimeType: "image/png" },
        { type: "text", text: "done" },
        { type: "text", text: "more" },
      ],
      structuredContent: { n: 1 },
      memoryDelta: { token: "abc" },
      memoryDeletions: ["old"],
    });
  });

  test("isError true → ExceptionThrown; _meta.trailblaze.variant names another variant", () => {
    expect(mapCallToolResult({ content: [{ type: "text", text: "nope" }], isError: true })).toMatchObject({
      variant: "ExceptionThrown",
      message: "nope",
    });
    expect(
      mapCallToolResult({ content: [{ type: "text", text: "gone" }], isError: true, _meta: { trailblaze: { variant: "FatalError" } } }),
    ).toMatchObject({ variant: "FatalError", message: "gone" });
  });

  test("an error result never applies memory changes and a Success variant on isError is ignored", () => {
    const mapped = mapCallToolResult({
      content: [],
      isError: true,
      _meta: { trailblaze: { variant: "Success", memoryDelta: { a: 1 } } },
    });
    expect(mapped).toEqual({ variant: "ExceptionThrown", message: "the tool reported an error without a message", content: [] });
  });
});

describe("mapCallError", () => {
  test("JSON-RPC errors keep their code; timeouts say how long", () => {
    expect(mapCallError(new McpError(ErrorCode.InvalidParams, "bad args"), 1000)).toEqual({
      variant: "ExceptionThrown",
      message: "MCP error -32602: bad args",
      content: [],
      code: -32602,
    });
    expect(mapCallError(new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout: 250 }), 250)).toMatchObject({
      message: "timed out after 250 ms",
      code: -32001,
    });
  });

  test("a timeout the server reports keeps the server's words", () => {
    const vm = 'QuickJS server "x": handling tools/call "spin" was interrupted after 300 ms (callDeadlineMs)';
    expect(mapCallError(new McpError(ErrorCode.RequestTimeout, vm), 60_000)).toMatchObject({ message: vm, code: -32001 });
  });
});
