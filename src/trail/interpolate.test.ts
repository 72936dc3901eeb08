import { describe, expect, test } from "bun:test";
import { InterpolationError } from "../errors.ts";
import { Memory } from "../session/memory.ts";
import { interpolate, placeholderKeys, type Lookup } from "./interpolate.ts";

function recordLookup(values: Record<string, unknown>): { lookup: Lookup; knownKeys: () => string[] } {
  return {
    lookup: (key) => (Object.hasOwn(values, key) ? { found: true, value: values[key] } : { found: false }),
    knownKeys: () => Object.keys(values),
  };
}

const { lookup, knownKeys } = recordLookup({
  email: "a@example.com",
  count: 3,
  flag: false,
  user: { name: "Ann" },
  "args.item": "latte",
  empty: "",
});

function thrown(fn: () => unknown): InterpolationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InterpolationError) return error;
    throw error;
  }
  throw new Error("expected an InterpolationError");
}

describe("interpolate", () => {
  test("replaces both placeholder spellings inside text", () => {
    expect(interpolate("to {{email}} x${count} {{ args.item }}", lookup)).toBe("to a@example.com x3 latte");
  });

  test("a string that is exactly one placeholder keeps the value's type", () => {
    expect(interpolate("{{count}}", lookup)).toBe(3);
    expect(interpolate("${flag}", lookup)).toBe(false);
    expect(interpolate("{{user}}", lookup)).toEqual({ name: "Ann" });
    expect(interpolate(" {{count}}", lookup)).toBe(" 3");
  });

  test("objects become JSON inside text; empty strings stay empty", () => {
    expect(interpolate("u={{user}}", lookup)).toBe('u={"name":"Ann"}');
    expect(interpolate("[{{empty}}]", lookup)).toBe("[]");
  });

  test("walks arrays and objects, leaving keys and non-strings alone", () => {
    const input = { "{{email}}": ["{{count}}", 7, null, { deep: "hi {{args.item}}" }], n: 1 };
    expect(interpolate(input, lookup)).toEqual({ "{{email}}": [3, 7, null, { deep: "hi latte" }], n: 1 });
    expect(input["{{email}}"][0]).toBe("{{count}}");
  });

  test("{{memory.name}} falls back to the key name", () => {
    expect(interpolate("{{memory.email}}", lookup)).toBe("a@example.com");
    expect(interpolate("{{memory.count}}", recordLookup({ "memory.count": 9, count: 3 }).lookup)).toBe(9);
    expect(thrown(() => interpolate("{{memory.nope}}", lookup)).key).toBe("memory.nope");
  });

  test("text without placeholders is returned as is", () => {
    expect(interpolate("a {b} {{}} $ {", lookup)).toBe("a {b} {{}} $ {");
  });

  test("an unknown key names it and the known keys, closest first", () => {
    const error = thrown(() => interpolate({ to: "{{emial}}" }, lookup, { knownKeys, context: "t.trail.yaml:9:11 myapp_logIn" }));
    expect(error.message).toBe(
      't.trail.yaml:9:11 myapp_logIn: unknown key "emial" in {{emial}}; known keys, closest first: email, empty, flag, count, user, args.item',
    );
    expect(error.key).toBe("emial");
    expect(error.exitCode).toBe(1);
    expect(thrown(() => interpolate("${nope}", () => ({ found: false }))).message).toBe(
      'unknown key "nope" in ${nope}; no keys are set (set them with config.memory, --memory KEY=VALUE or --arg NAME=VALUE)',
    );
  });

  test("works with session Memory, secrets included", () => {
    const memory = new Memory({ email: "m@example.com" });
    memory.setSecret("password", "hunter2");
    const options = { knownKeys: () => memory.keys() };
    expect(interpolate({ email: "{{email}}", password: "{{password}}" }, (k) => memory.lookup(k), options)).toEqual({
      email: "m@example.com",
      password: "hunter2",
    });
    expect(thrown(() => interpolate("{{pasword}}", (k) => memory.lookup(k), options)).known).toEqual(["password", "email"]);
  });
});

test("placeholderKeys lists each key once, in order", () => {
  expect(placeholderKeys({ a: "{{x}} ${y}", b: ["{{x}}", "{{ args.z }}"] })).toEqual(["x", "y", "args.z"]);
});
