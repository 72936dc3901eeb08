import { describe, expect, test } from "bun:test";
import { parseShard, shardSlice } from "./shard.ts";

describe("--shard", () => {
  test("slices are disjoint, complete, in sorted order, and differ in size by at most one", () => {
    for (const length of [0, 1, 2, 5, 12, 13]) {
      const items = Array.from({ length }, (_, i) => `trails/t${String(length - i).padStart(2, "0")}.trail.yaml`);
      for (const total of [1, 2, 3, 4, 7]) {
        const slices = Array.from({ length: total }, (_, i) => shardSlice(items, { index: i + 1, total }, (s) => s));
        expect(slices.flat()).toEqual([...items].sort());
        const sizes = slices.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      }
    }
  });

  test("the same input gives the same slice whatever order it came in", () => {
    const a = ["c", "a", "b", "e", "d"];
    expect(shardSlice(a, { index: 2, total: 2 }, (s) => s)).toEqual(["d", "e"]);
    expect(shardSlice([...a].reverse(), { index: 2, total: 2 }, (s) => s)).toEqual(["d", "e"]);
  });

  test("I/N is checked", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, total: 4 });
    for (const bad of ["0/3", "4/3", "1/0", "two/3", "1-3", ""]) {
      expect(() => parseShard(bad)).toThrow(`run: --shard expects I/N with 1 <= I <= N (e.g. --shard 2/4), got "${bad}"`);
    }
  });
});
