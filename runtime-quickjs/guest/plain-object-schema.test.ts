import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { z } from "zod";
import * as zm from "zod/v4-mini";
import { config } from "zod/v4/core";
import { plainObjectParse, VERIFIED_ZOD_VERSIONS } from "./plain-object-schema.ts";

const zodPackage = new URL("../../node_modules/zod/package.json", import.meta.url);
/** The zod this package ships (and on-device bundles get when a workspace has none). */
const ZOD_VERSION = (JSON.parse(readFileSync(zodPackage, "utf8")) as { version: string }).version;

/** The same value, keys in the same order, undefined members included (JSON would drop them). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected as never);
  expect(Object.entries(actual as object)).toEqual(Object.entries(expected as object));
}

/** Schemas the fast path answers for (plain), and ones it must leave to zod. */
const PLAIN = {
  text: z.object({ text: z.string() }),
  three: z.object({ text: z.string(), n: z.number().int(), flag: z.boolean().optional() }),
  bounded: z.object({ key: z.string().min(1), value: z.string().max(5), both: z.string().min(2).max(3).optional() }),
  loose: z.object({ any: z.any(), unknown: z.unknown().optional(), ctx: z.any().optional() }),
  ordered: z.object({ b: z.string(), "2": z.number(), a: z.boolean(), "1": z.string().optional() }),
  mini: zm.object({ text: zm.string(), n: zm.optional(zm.number()) }),
  empty: z.object({}),
};
const NOT_PLAIN = {
  email: z.object({ to: z.email() }),
  refined: z.object({ text: z.string().refine((s) => s !== "no") }),
  objectRefined: z.object({ text: z.string() }).refine((o) => o.text !== "no"),
  defaulted: z.object({ text: z.string().default("d") }),
  transformed: z.object({ text: z.string().transform((s) => s.toUpperCase()) }),
  coerced: z.object({ n: z.coerce.number() }),
  positive: z.object({ n: z.number().positive() }),
  strict: z.strictObject({ text: z.string() }),
  passthrough: z.looseObject({ text: z.string() }),
  nested: z.object({ inner: z.object({ text: z.string() }) }),
  array: z.object({ list: z.array(z.string()) }),
  enumerated: z.object({ kind: z.enum(["a", "b"]) }),
  nullable: z.object({ text: z.string().nullable() }),
  protoKey: z.object({ toString: z.string() }),
  exactOptional: z.object({ text: z.string().exactOptional() }),
  union: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
  primitive: z.string(),
};

const CONTEXT = { memory: { a: 1 }, device: { platform: "ANDROID" } };
/** Inputs as a host sends them (JSON-made) and near misses of each field kind. */
const INPUTS: unknown[] = [
  { text: "hello" },
  { text: "hello", _trailblazeContext: CONTEXT },
  { text: "" },
  { text: 5 },
  {},
  { text: undefined },
  { text: "hi", n: 3, flag: true },
  { text: "hi", n: 3 },
  { text: "hi", n: 3, flag: undefined },
  { text: "hi", n: 3.5 },
  { text: "hi", n: 2 ** 60 },
  { text: "hi", n: Number.NaN },
  { text: "hi", n: Number.POSITIVE_INFINITY },
  { text: "hi", n: -0 },
  { text: "hi", n: "3" },
  { text: "hi", n: 3, flag: "yes" },
  { key: "k", value: "v" },
  { key: "", value: "v" },
  { key: "kk", value: "123456" },
  { key: "kk", value: "12345", both: "ab" },
  { key: "kk", value: "12345", both: "abcd" },
  { key: "\u{1F600}", value: "\u{1F600}\u{1F600}\u{1F600}" },
  { key: "\uD800", value: "v" },
  { any: null },
  { any: undefined },
  { any: { deep: [1] }, unknown: 1, ctx: CONTEXT },
  { unknown: 1 },
  { b: "x", 2: 2, a: true, 1: "one", z: "stripped" },
  { a: false, b: "x", 2: 0 },
  { text: "hi", n: 1, extra: { deep: true } },
  JSON.parse('{"text":"hi","__proto__":{"x":1}}'),
  Object.create({ text: "inherited" }),
  Object.assign(Object.create(null), { text: "no prototype" }),
  [],
  null,
  undefined,
  "text",
];

describe.each([true, false])("the plain object fast path gives zod's answer (zod jitless: %p)", (jitless) => {
  let before: boolean | undefined;
  beforeAll(() => {
    before = config().jitless;
    config({ jitless });
  });
  afterAll(() => void config({ jitless: before }));

  test("every input it parses, zod parses to the same value; the inputs of each plain schema that pass take it", () => {
    let answered = 0;
    for (const [name, schema] of Object.entries(PLAIN)) {
      for (const input of INPUTS) {
        const mine = plainObjectParse(schema, input);
        const theirs = z.safeParse(schema as z.ZodType, input);
        if (mine === undefined) continue;
        answered++;
        expect({ name, input, success: theirs.success }).toEqual({ name, input, success: true });
        expectSame(mine.data, theirs.data);
        // A member is the input's own value, not a copy (as zod gives it).
        for (const [key, value] of Object.entries(mine.data)) expect(value).toBe((input as Record<string, unknown>)[key]);
      }
    }
    expect(answered).toBeGreaterThanOrEqual(20);
    // What a host sends an echo tool: answered here.
    expect(plainObjectParse(PLAIN.text, INPUTS[1])).toEqual({ success: true, data: { text: "hello" } });
  });

  test("a schema with anything but plain fields is left to zod, whatever the input", () => {
    for (const [name, schema] of Object.entries(NOT_PLAIN)) {
      for (const input of [
        ...INPUTS,
        { to: "a@b.c" },
        { kind: "a" },
        { inner: { text: "x" } },
        { list: ["x"] },
        { n: 1 },
        { toString: "x" },
      ]) {
        expect({ name, input, answer: plainObjectParse(schema, input) }).toEqual({ name, input, answer: undefined });
      }
    }
  });
});

describe("which zod versions get the fast path", () => {
  test("the zod this package ships is one it was checked against", () => {
    expect(VERIFIED_ZOD_VERSIONS).toContain(ZOD_VERSION);
  });

  test("a schema of any other version is left to zod", () => {
    const schema = z.object({ text: z.string() });
    const other = { _zod: { ...schema._zod, version: { major: 4, minor: 0, patch: 0 } } };
    expect(plainObjectParse(other, { text: "hi" })).toBeUndefined();
    expect(plainObjectParse(schema, { text: "hi" })).toBeDefined();
  });
});
