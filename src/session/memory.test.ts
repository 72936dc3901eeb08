import { describe, expect, test } from "bun:test";
import { Memory } from "./memory.ts";

describe("Memory", () => {
  test("secrets interpolate but never appear in snapshots, and mask hides them", () => {
    const memory = new Memory({ email: "a@b.c" });
    memory.setSecret("password", "hunter2");
    expect(memory.lookup("password")).toEqual({ found: true, value: "hunter2" });
    expect(memory.snapshot()).toEqual({ email: "a@b.c" });
    expect(memory.mask("login a@b.c / hunter2")).toBe("login a@b.c / ***");
    expect(memory.maskValue({ list: ["hunter2", 1], nested: { p: "xhunter2x" } })).toEqual({ list: ["***", 1], nested: { p: "x***x" } });
  });

  test("apply deletes first, then writes", () => {
    const memory = new Memory({ a: 1, b: 2 });
    memory.apply({ b: 3, c: 4 }, ["a", "b"]);
    expect(memory.snapshot()).toEqual({ b: 3, c: 4 });
  });
});
