import { describe, expect, test } from "bun:test";
import { Memory } from "../session/memory.ts";
import { parseTrailFile } from "../trail/trail-file.ts";
import { interpolate } from "../trail/interpolate.ts";
import { resolveTrailArgs, trailLookup } from "./trail-args.ts";

const trail = parseTrailFile(
  "args.trail.yaml",
  `config:
  args:
    item: string
    quantity: { type: integer, default: 1 }
    gift: { type: boolean, default: false }
    tags: { type: array, default: [] }
    coupon: { type: string, default: 007, description: Code applied at checkout }
trail:
  - step: Buy
    recording:
      tools:
        - buy: { item: "{{args.item}}", n: "{{args.quantity}}" }
`,
);

describe("config.args", () => {
  test("given values are converted to the declared type; defaults fill the rest", () => {
    const { values, problems } = resolveTrailArgs(trail, { item: "latte", quantity: "3", gift: "TRUE", tags: '["a","b"]' });
    expect(problems).toEqual([]);
    expect(values).toEqual({ item: "latte", quantity: 3, gift: true, tags: ["a", "b"], coupon: "007" });
  });

  test("a missing required arg and values of the wrong type are all reported", () => {
    const { problems } = resolveTrailArgs(trail, { quantity: "lots", gift: "yes", tags: "{}" });
    expect(problems).toEqual([
      'missing required arg "item" (declared in config.args); pass --arg item=VALUE',
      '--arg quantity=lots: config.args.quantity is an integer, got "lots"',
      '--arg gift=yes: config.args.gift is a boolean (true or false), got "yes"',
      '--arg tags={}: config.args.tags is an array (write it as JSON), got "{}"',
    ]);
  });

  test("given args the trail does not declare are rejected, naming what it declares (upstream binds per trail)", () => {
    const { values, problems } = resolveTrailArgs(trail, { item: "x", extra: "42", colour: "red" });
    expect(problems).toEqual([
      'args "colour", "extra" not declared in this trail\'s config.args (it declares coupon, gift, item, quantity, tags); declare them there, or leave them out of --arg and --args-file',
    ]);
    expect(Object.hasOwn(values, "extra")).toBe(false);
    const bare = parseTrailFile("bare.trail.yaml", "trail:\n  - step: Nothing\n");
    expect(resolveTrailArgs(bare, { toString: "x" }).problems).toEqual([
      'arg "toString" not declared in this trail\'s config.args (it declares none); declare it there, or leave it out of --arg and --args-file',
    ]);
    // A name an object inherits is not a declared arg, nor a given one.
    expect(resolveTrailArgs(bare, {}).problems).toEqual([]);
  });

  test("{{args.NAME}} reads args, other keys read memory (secrets included); unknown keys list both", () => {
    const memory = new Memory({ email: "a@b.c" });
    memory.setSecret("token", "s3cret");
    const { lookup, knownKeys } = trailLookup(memory, { item: "latte", quantity: 2 });
    expect(
      interpolate({ a: "{{args.item}} x{{args.quantity}}", n: "{{args.quantity}}", t: "${token}", e: ["{{email}}"] }, lookup, {
        knownKeys,
      }),
    ).toEqual({
      a: "latte x2",
      n: 2,
      t: "s3cret",
      e: ["a@b.c"],
    });
    expect(() => interpolate("{{args.itme}}", lookup, { knownKeys })).toThrow(
      'unknown key "args.itme" in {{args.itme}}; known keys, closest first: args.item, args.quantity, email, token',
    );
  });
});
