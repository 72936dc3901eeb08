import { describe, expect, test } from "bun:test";
import { success, type ToolResult } from "../core/tool-result.ts";
import { ExecuteBridge, MAX_EXECUTE_IN_FLIGHT } from "./execute-bridge.ts";

const refused = (name: string) =>
  `trailblaze.execute("${name}") refused: 16 trailblaze.execute calls are already in flight in this session, the most at once ` +
  "(nested calls and calls side by side both count: a tool that calls itself without end, or more calls awaited together)";

describe("ExecuteBridge", () => {
  test("counts calls side by side: with 16 in flight the 17th is refused; once one ends, another is taken", async () => {
    const release: (() => void)[] = [];
    const bridge = new ExecuteBridge((name) => new Promise<ToolResult>((resolve) => release.push(() => resolve(success(name)))));
    const held = Array.from({ length: MAX_EXECUTE_IN_FLIGHT }, (_, i) => bridge.execute(`tool${i}`, {}));
    expect(MAX_EXECUTE_IN_FLIGHT).toBe(16);
    await expect(bridge.execute("tool16", {})).rejects.toThrow(refused("tool16"));
    release.shift()!();
    expect(await held[0]).toMatchObject({ message: "tool0" });
    const next = bridge.execute("again", {});
    for (const done of release.splice(0)) done();
    expect((await Promise.all([...held, next])).map((result) => result.message)).toEqual([...held.map((_, i) => `tool${i}`), "again"]);
  });

  test("counts nested calls alike: a chain 16 deep is answered, one 17 deep is refused at its 17th call", async () => {
    // Each call makes the next through the same bridge, as a tool calling trailblaze.execute does.
    const bridge: ExecuteBridge = new ExecuteBridge(async (name, args) => {
      const depth = args.depth as number;
      if (depth === args.bottom) return success(`bottom at ${depth}`);
      try {
        return await bridge.execute(`level${depth + 1}`, { ...args, depth: depth + 1 });
      } catch (error) {
        return success(`refused below ${depth}: ${(error as Error).message}`);
      }
    });
    expect((await bridge.execute("level1", { depth: 1, bottom: 16 })).message).toBe("bottom at 16");
    expect((await bridge.execute("level1", { depth: 1, bottom: 17 })).message).toBe(`refused below 16: ${refused("level17")}`);
  });
});
