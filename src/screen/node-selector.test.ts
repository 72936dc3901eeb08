// The selector a recording keeps for a node acted on by ref: on every node of the hand-written
// captures it finds that node alone; it prefers a developer id to text, quotes text a pattern
// would read wider, and falls back to the node's index among equals.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCREENS, screenFixture } from "../../test/support/screens.ts";
import { loadCapture } from "./load-capture.ts";
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

describe("a recording made by ref replays when ids move", () => {
  test("each selector, made on one capture, finds the same element on the capture taken again with other ids and a banner on top", async () => {
    const before = await screenFixture("android-login.json");
    // The same screen captured again: every node id moved, and a new first child (a banner) shifts the order.
    type Json = { nodeId: number; children?: Json[]; driverDetail: Record<string, unknown>; bounds?: unknown };
    const tree = JSON.parse(readFileSync(join(SCREENS, "android-login.json"), "utf8")) as Json;
    const renumber = (node: Json) => {
      node.nodeId += 500;
      for (const child of node.children ?? []) renumber(child);
    };
    renumber(tree);
    tree.children = [
      {
        nodeId: 1,
        bounds: { left: 0, top: 0, right: 1080, bottom: 30 },
        driverDetail: { class: "androidAccessibility", className: "android.widget.TextView", text: "Offline" },
      },
      ...(tree.children ?? []),
    ];
    const file = join(mkdtempSync(join(tmpdir(), "node-selector-")), "again.json");
    writeFileSync(file, JSON.stringify(tree));
    const after = await loadCapture(file);
    let checked = 0;
    for (const node of before.nodes) {
      const raw = nodeSelectorFor(before, node);
      // Only selectors that name the node by its own properties are durable; an index among equals moves with a new equal.
      if (raw === undefined || "index" in raw) continue;
      const found = resolveSelector(after, parseSelector(raw, "replay", "node")).nodes;
      expect(found.map((n) => n.id)).toEqual([node.id + 500]);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
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
