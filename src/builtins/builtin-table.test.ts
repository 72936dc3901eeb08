import { describe, expect, test } from "bun:test";
import { BUILTIN_TOOLS } from "../core/builtin-tools.ts";
import { builtinTools } from "./index.ts";

describe("the built-in tool table (core/builtin-tools.ts)", () => {
  test("names exactly the tools builtins/ defines, in the same order", () => {
    expect(Object.keys(BUILTIN_TOOLS)).toEqual(builtinTools().map((tool) => tool.name));
  });
});
