// Which tools a pure-JS script registers on globalThis.__trailblazeTools, read from its text.

import { describe, expect, test } from "bun:test";
import { registeredToolNames } from "./registered-tools.ts";

const names = (source: string) => registeredToolNames(source).map((r) => [r.name, source.slice(r.index, r.index + r.name.length + 1)]);

describe("registeredToolNames", () => {
  test("keys on the global and on a variable holding it, quoted or dotted, once each in source order", () => {
    const source = [
      "(function () {",
      "  const tools = (globalThis.__trailblazeTools = globalThis.__trailblazeTools || {});",
      '  tools["app_one"] = { handler: async () => "1" };',
      "  globalThis.__trailblazeTools.app_two = { handler: async () => '2' };",
      "  __trailblazeTools['app_three'] = {};",
      '  tools["app_one"] = { handler: async () => "again" };',
      "})();",
    ].join("\n");
    expect(names(source)).toEqual([
      ["app_one", '"app_one'],
      ["app_two", "app_two "],
      ["app_three", "'app_three"],
    ]);
  });

  test("comments, comparisons, reads and computed keys are not registrations", () => {
    const source = [
      '// globalThis.__trailblazeTools["in_comment"] = {};',
      "/* __trailblazeTools.block_comment = {} */",
      'if (globalThis.__trailblazeTools["compared"] === undefined) {}',
      'const url = "http://x//__trailblazeTools.in_string = 1";',
      "const handler = __trailblazeTools.read;",
      "for (const name of list) __trailblazeTools[name] = {};",
      'const other = {}; other["not_ours"] = {};',
    ].join("\n");
    expect(names(source)).toEqual([]);
  });

  test("a script that never mentions the registry registers nothing", () => {
    expect(registeredToolNames('export const app_x = trailblaze.tool(async () => "x");')).toEqual([]);
  });
});
