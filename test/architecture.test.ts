import { describe, expect, test } from "bun:test";
import { relative } from "node:path";
import { cycles, folderOf, importGraph, LAYERS, REPO, twoWayPairs, upwardImports } from "./support/import-graph.ts";

describe("layers (ARCHITECTURE.md)", () => {
  const graph = importGraph();

  test("no import cycle between files", () => {
    expect(cycles(graph.files).map((cycle) => cycle.map((file) => relative(REPO, file)).join(" -> "))).toEqual([]);
  });

  test("no two folders import each other, and no folder imports a layer above its own", () => {
    expect(twoWayPairs(graph.folders)).toEqual([]);
    expect(upwardImports(graph.folders)).toEqual([]);
    expect(cycles(graph.folders)).toEqual([]);
  });

  test("every folder has a layer", () => {
    const known = new Set(LAYERS.flat());
    const folders = new Set([...graph.files.keys()].map(folderOf));
    expect([...folders].filter((folder) => !known.has(folder))).toEqual([]);
  });

  test("the checks see a cycle when there is one", () => {
    const edges = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]]);
    expect(cycles(edges)).toEqual([["a", "b", "c", "a"]]);
    expect(twoWayPairs(new Map([["run", new Set(["cli"])], ["cli", new Set(["run"])]]))).toEqual(["cli <-> run"]);
    expect(upwardImports(new Map([["core", new Set(["session"])]]))).toEqual(["core -> session"]);
  });
});
