import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { defineBuiltin } from "../builtins/define-builtin.ts";
import { exceptionThrown, success } from "../core/tool-result.ts";
import { ToolRegistry } from "../registry/registry.ts";
import { refusal, servedTools, toCallToolResult, toMcpTool } from "./served-tools.ts";

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.register(
    defineBuiltin({
      name: "demo_shown",
      description: "shown",
      args: () => ({ text: z.string() }),
      meta: { "trailblaze/toolset": "demo_set", "trailblaze/requiresContext": true },
      run: () => success("ok"),
    }),
  );
  tools.register(
    defineBuiltin({
      name: "demo_hidden",
      description: "hidden",
      args: () => ({}),
      meta: { "trailblaze/isForLlm": false },
      run: () => success("ok"),
    }),
  );
  tools.skip({
    name: "demo_iosOnly",
    source: "tools/demo.ts",
    reason: "trailblaze/supportedPlatforms",
    detail: "supports platforms [IOS], session platform is ANDROID",
  });
  return tools;
}

describe("served tools", () => {
  test("isForLlm:false tools are not served; the rest map to MCP tools with source and toolset in _meta", () => {
    const tools = registry();
    expect(servedTools(tools).map((t) => t.name)).toEqual(["demo_shown"]);
    expect(toMcpTool(tools.get("demo_shown")!, tools)).toEqual({
      name: "demo_shown",
      description: "shown",
      inputSchema: tools.get("demo_shown")!.inputSchema as { type: "object" },
      _meta: {
        "trailblaze/toolset": "demo_set",
        "trailblaze/requiresContext": true,
        "trailblaze/source": "builtin",
      },
    });
  });

  test("refusals say why a name cannot be called", () => {
    const tools = registry();
    expect(refusal("demo_shown", tools)).toBeUndefined();
    expect(refusal("demo_shwn", tools)).toBe('Unknown tool "demo_shwn": no registered tool has that name; did you mean "demo_shown"?');
    expect(refusal("demo_hidden", tools)).toBe(
      'Tool "demo_hidden" is not served to MCP clients: it sets _meta["trailblaze/isForLlm"] to false (internal primitive)',
    );
    expect(refusal("demo_iosOnly", tools)).toBe(
      'Tool "demo_iosOnly" (tools/demo.ts) is not available in this session: excluded by _meta["trailblaze/supportedPlatforms"] ' +
        "(supports platforms [IOS], session platform is ANDROID)",
    );
  });

  test("results keep content and structuredContent; a local failure's message becomes its text", () => {
    expect(toCallToolResult(success("done", { structuredContent: { n: 1 }, memoryDelta: { a: 1 } }))).toEqual({
      content: [{ type: "text", text: "done" }],
      structuredContent: { n: 1 },
      isError: false,
      _meta: { trailblaze: { variant: "Success" } },
    });
    expect(toCallToolResult(exceptionThrown("timed out after 5 ms", -32001))).toEqual({
      content: [{ type: "text", text: "timed out after 5 ms" }],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
  });
});
