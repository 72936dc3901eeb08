// The selector a recording keeps for a node acted on by ref: on every node of the hand-written
// captures it finds that node alone; it prefers a developer id to text, quotes text a pattern
// would read wider, and falls back to the node's index among equals.
import { describe, expect, test } from "bun:test";
import { screenFixture } from "../../test/support/screens.ts";
import { nodeSelectorFor } from "./node-selector.ts";
import { resolveSelector } from "./resolve-selector.ts";
import { nodesByRef, refOf, type Screen } from "./screen-model.ts";
import { parseSelector } from "./selector.ts";

const node = (screen: Screen, id: number) => screen.byId.get(id)!;

describe("nodeSelectorFor", () => {
  test.each(["android-login.json", "other-drivers.json", "legacy-hierarchy.json", "home.example.json"])(
    "on %s, every node it names is the one its selector finds",
    async (file) => {
      const screen = await screenFixture(file);
      let named = 0;
      for (const n of screen.nodes) {
        const raw = nodeSelectorFor(screen, n);
        if (raw === undefined) continue;
        named++;
        expect(resolveSelector(screen, parseSelector(raw, "test", "node")).nodes).toEqual([n]);
      }
      expect(named).toBeGreaterThan(0);
    },
  );

  test("a developer id first, then text; one field when one is enough", async () => {
    const screen = await screenFixture("android-login.json");
    expect(nodeSelectorFor(screen, node(screen, 7))).toEqual({ androidAccessibility: { uniqueId: "login-button" } });
  });

  test("two nodes with the same text: the node's index among them", async () => {
    const screen = await screenFixture("android-login.json");
    const first = nodeSelectorFor(screen, node(screen, 12))!;
    const second = nodeSelectorFor(screen, node(screen, 15))!;
    expect(first).not.toEqual(second);
    expect(resolveSelector(screen, parseSelector(second, "test", "node")).nodes.map((n) => n.id)).toEqual([15]);
  });

  test("a node nothing names (no text, id or class) has none: the recording keeps its point instead", async () => {
    const screen = await screenFixture("android-login.json");
    const bare = { ...node(screen, 7), detail: { class: "androidAccessibility" as const } };
    expect(nodeSelectorFor(screen, bare)).toBeUndefined();
  });
});

describe("refs", () => {
  test("n<id> for a node without a ref of its own; a capture's own ref otherwise", async () => {
    const screen = await screenFixture("android-login.json");
    expect(refOf(node(screen, 7))).toBe("n7");
    expect(nodesByRef(screen, "n7")).toEqual([node(screen, 7)]);
    expect(nodesByRef(screen, "[n7]")).toEqual([node(screen, 7)]);
    expect(nodesByRef(screen, "n999")).toEqual([]);
    const withRef = screen.nodes.find((n) => n.ref !== undefined)!;
    expect(refOf(withRef)).toBe(withRef.ref!);
    expect(nodesByRef(screen, withRef.ref!)).toEqual([withRef]);
    expect(nodesByRef(screen, `n${withRef.id}`)).toEqual([]);
  });
});
