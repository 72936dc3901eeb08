import { describe, expect, test } from "bun:test";
import { Secrets } from "../core/secrets.ts";
import { Memory } from "./memory.ts";

describe("Memory", () => {
  test("secrets interpolate but never appear in snapshots, and the run's Secrets masks them", () => {
    const secrets = new Secrets();
    const memory = new Memory({ email: "a@b.c" }, secrets);
    memory.setSecret("password", "hunter2");
    expect(memory.lookup("password")).toEqual({ found: true, value: "hunter2" });
    expect(memory.snapshot()).toEqual({ email: "a@b.c" });
    expect(secrets.mask("login a@b.c / hunter2")).toBe("login a@b.c / ***");
  });

  test("writing a secret's key keeps it secret: a new secret value, never a plain one", () => {
    const secrets = new Secrets();
    const memory = new Memory({}, secrets);
    memory.setSecret("TOKEN", "hunter2");
    memory.apply({ TOKEN: "rotated" }, undefined);
    expect(memory.snapshot()).toEqual({});
    expect(memory.lookup("TOKEN")).toEqual({ found: true, value: "rotated" });
    expect(secrets.mask("hunter2 rotated")).toBe("*** ***");
  });

  test("deleting a secret's key unbinds it; its values stay masked and the key stays secret", () => {
    const secrets = new Secrets();
    const memory = new Memory({}, secrets);
    memory.setSecret("TOKEN", "hunter2");
    memory.apply(undefined, ["TOKEN"]);
    expect(memory.has("TOKEN")).toBe(false);
    expect(memory.keys()).toEqual([]);
    memory.set("TOKEN", "again");
    expect(memory.snapshot()).toEqual({});
    expect(memory.isSecret("TOKEN")).toBe(true);
    expect(secrets.mask("hunter2 again")).toBe("*** ***");
  });

  test("a secret copied into another key stays a plain value there, and is still masked", () => {
    const secrets = new Secrets();
    const memory = new Memory({}, secrets);
    memory.setSecret("TOKEN", "hunter2");
    memory.set("COPY", memory.lookup("TOKEN").found ? "hunter2" : "");
    expect(memory.snapshot()).toEqual({ COPY: "hunter2" });
    expect(secrets.maskValue(memory.snapshot())).toEqual({ COPY: "***" });
  });

  test("apply deletes first, then writes", () => {
    const memory = new Memory({ a: 1, b: 2 });
    memory.apply({ b: 3, c: 4 }, ["a", "b"]);
    expect(memory.snapshot()).toEqual({ b: 3, c: 4 });
  });
});
