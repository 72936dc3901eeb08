import { describe, expect, test } from "bun:test";
import { Secrets } from "./secrets.ts";

describe("Secrets", () => {
  test("masks every value, longest first, in text and in keys and values of JSON-like data", () => {
    const secrets = new Secrets({ PASSWORD: "hunter2", LONG: "hunter2pw", EMPTY: "" });
    expect(secrets.mask("a hunter2pw b hunter2")).toBe("a *** b ***");
    expect(secrets.maskValue<unknown>({ list: ["hunter2", 1], hunter2: { p: "xhunter2x" } })).toEqual({
      list: ["***", 1],
      "***": { p: "x***x" },
    });
    expect(secrets.size).toBe(2);
  });

  test("only grows: a value added later is masked, and an earlier one still is", () => {
    const secrets = new Secrets({ TOKEN: "first-token" });
    secrets.add("TOKEN", "second-token");
    expect(secrets.mask("first-token second-token")).toBe("*** ***");
  });

  test("nothing secret: values are returned as they are", () => {
    const value = { a: "free" };
    expect(new Secrets().maskValue(value)).toBe(value);
    expect(new Secrets().withPlaceholders(value)).toBe(value);
  });

  test("withPlaceholders: a value equal to a secret becomes {{KEY}}, one inside a longer string is replaced in place; other values stay", () => {
    const secrets = new Secrets({ PASSWORD: "hunter2", PIN: "1234", EMPTY: "" });
    expect(secrets.withPlaceholders({ a: "hunter2", b: ["x hunter2 y", 7, true], c: { d: "pin 1234" }, e: null })).toEqual({
      a: "{{PASSWORD}}",
      b: ["x {{PASSWORD}} y", 7, true],
      c: { d: "pin {{PIN}}" },
      e: null,
    });
    expect(secrets.withPlaceholders("log in with hunter2")).toBe("log in with {{PASSWORD}}");
  });
});
