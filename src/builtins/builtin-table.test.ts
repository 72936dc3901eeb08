import { describe, expect, test } from "bun:test";
import { WebPage } from "../browser/web-page.ts";
import { BUILTIN_TOOLS } from "../core/builtin-tools.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { builtinTools } from "./index.ts";

/** What a session lists of a tool (`tools --json`, `types`, the agent's offer). */
const listed = (tool: RegisteredTool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema,
  meta: tool.rawMeta,
  source: tool.source,
  transport: tool.transport,
});

describe("the built-in tool table (core/builtin-tools.ts)", () => {
  test("names exactly the tools builtins/ defines, in the same order", () => {
    expect(Object.keys(BUILTIN_TOOLS)).toEqual(builtinTools().map((tool) => tool.name));
  });

  test("lists the same tools, descriptions, schemas and _meta with a real page as on the simulated one", () => {
    // Listing never opens the page: a browser that cannot start is never asked for.
    const web = new WebPage({
      browser: () => Promise.reject(new Error("not started by a listing")),
      viewport: { width: 1280, height: 800 },
      baseDirs: [],
      cwd: ".",
    });
    expect(builtinTools({ web }).map(listed)).toEqual(builtinTools().map(listed));
  });
});
