import { describe, expect, test } from "bun:test";
import { ToolCollisionError } from "../errors.ts";
import { success } from "../core/tool-result.ts";
import { ToolRegistry, type RegisteredTool } from "./registry.ts";
import { readToolMeta } from "./tool-meta.ts";

function tool(name: string, source: string, rawMeta: Record<string, unknown> = {}): RegisteredTool {
  return {
    name,
    description: "",
    inputSchema: { type: "object" },
    rawMeta,
    meta: readToolMeta(rawMeta).meta,
    source,
    transport: "stdio",
    invoke: async () => success("ok"),
  };
}

describe("ToolRegistry", () => {
  test("a second claim on a name fails naming both sources", () => {
    const registry = new ToolRegistry();
    registry.register(tool("myapp_login", "tools/a.ts"));
    expect(() => registry.register(tool("myapp_login", "tools/b.ts"))).toThrow(
      new ToolCollisionError("myapp_login", "tools/a.ts", "tools/b.ts"),
    );
    expect(new ToolCollisionError("myapp_login", "tools/a.ts", "tools/b.ts").message).toBe(
      'Tool name collision: "myapp_login" is advertised by both tools/a.ts and tools/b.ts. ' +
        "Tool names are global and registered exactly as advertised; rename the tool in one of the sources.",
    );
  });

  test("a pushed toolset is created when absent and joined when present", () => {
    const registry = new ToolRegistry();
    registry.addToolset({ id: "auth", description: "Auth", tools: ["myapp_logout"], origin: "toolsets/auth.yaml", active: true });
    registry.register(tool("myapp_login", "tools/a.ts", { "trailblaze/toolset": "auth" }));
    registry.register(tool("myapp_seed", "tools/a.ts", { "trailblaze/toolset": "seed" }));
    expect(registry.toolsets().map((t) => [t.id, [...t.tools], t.origin])).toEqual([
      ["auth", ["myapp_logout", "myapp_login"], "toolsets/auth.yaml"],
      ["seed", ["myapp_seed"], "_meta push"],
    ]);
    expect(registry.toolsetsOf("myapp_login")).toEqual(["auth"]);
  });

  test("unregisterSource removes a source's tools and skips", () => {
    const registry = new ToolRegistry();
    registry.register(tool("a_one", "tools/a.ts"));
    registry.register(tool("b_one", "tools/b.ts"));
    registry.skip({ name: "a_two", source: "tools/a.ts", reason: "trailblaze/requiresHost", detail: "" });
    registry.unregisterSource("tools/a.ts");
    expect(registry.names()).toEqual(["b_one"]);
    expect(registry.skipped()).toEqual([]);
  });

  test("changes counts every change, so a list derived from the tools knows when it is stale", () => {
    const registry = new ToolRegistry();
    registry.register(tool("a_one", "tools/a.ts"));
    const before = registry.changes;
    // A source re-listing the same number of tools (a schema changed) is a change, though the size is not.
    registry.unregisterSource("tools/a.ts");
    registry.register(tool("a_one", "tools/a.ts"));
    expect(registry.size).toBe(1);
    expect(registry.changes).toBeGreaterThan(before);
    const relisted = registry.changes;
    registry.addToolset({ id: "auth", description: "", tools: ["a_one"], origin: "toolsets/auth.yaml", active: true });
    expect(registry.changes).toBeGreaterThan(relisted);
  });
});
