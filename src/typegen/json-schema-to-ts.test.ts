import { describe, expect, test } from "bun:test";
import { propertyKey, schemaDoc, schemaToTs, tsDoc, type JsonSchema } from "./json-schema-to-ts.ts";

const DEFS = {
  $defs: {
    Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
    Node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/Node" } }, required: ["value"] },
  },
};

// [what, schema, TypeScript text]
const CASES: [string, JsonSchema, string][] = [
  ["true: anything", true, "unknown"],
  ["false: nothing", false, "never"],
  ["empty schema", {}, "unknown"],
  ["string", { type: "string", minLength: 1, format: "email" }, "string"],
  ["number", { type: "number", minimum: 0 }, "number"],
  ["integer", { type: "integer" }, "number"],
  ["boolean", { type: "boolean" }, "boolean"],
  ["null", { type: "null" }, "null"],
  ["unknown type name", { type: "decimal" }, "unknown"],
  ["type list", { type: ["string", "null"] }, "string | null"],
  ["type list with an unknown name", { type: ["string", "date"] }, "unknown"],
  ["OpenAPI nullable", { type: "string", nullable: true }, "string | null"],
  ["string enum", { type: "string", enum: ["UP", "DOWN"] }, '"UP" | "DOWN"'],
  ["mixed enum", { enum: ["a", 1, -2.5, true, null] }, '"a" | 1 | -2.5 | true | null'],
  ["enum with an object member", { enum: ["a", { b: 1 }] }, "unknown"],
  ["empty enum", { enum: [] }, "never"],
  ["string const", { const: "on" }, '"on"'],
  ["const with quotes", { const: 'say "hi" \\ */' }, '"say \\"hi\\" \\\\ */"'],
  ["number const", { const: 3 }, "3"],
  ["object const", { const: { a: 1 } }, "unknown"],
  ["array of strings", { type: "array", items: { type: "string" } }, "string[]"],
  ["array without items", { type: "array" }, "unknown[]"],
  ["array of a union", { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } }, "(string | number)[]"],
  ["array of arrays", { type: "array", items: { type: "array", items: { type: "boolean" } } }, "boolean[][]"],
  [
    "array of objects",
    { type: "array", items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    "{ id: string }[]",
  ],
  [
    "tuple (prefixItems, closed)",
    { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
    "[string, number]",
  ],
  ["tuple (prefixItems, open)", { type: "array", prefixItems: [{ type: "string" }] }, "[string, ...unknown[]]"],
  [
    "tuple (draft-07 items list)",
    { type: "array", items: [{ type: "string" }], additionalItems: { type: "number" } },
    "[string, ...number[]]",
  ],
  [
    "object: required and optional",
    { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] },
    "{ a: string; b?: number }",
  ],
  ["object: no properties, closed", { type: "object", properties: {}, additionalProperties: false }, "Record<string, never>"],
  ["object: no properties, additionalProperties unset", { type: "object", properties: {} }, "Record<string, never>"],
  ["object: additionalProperties true", { type: "object", additionalProperties: true }, "{ [key: string]: unknown }"],
  [
    "object: additionalProperties {} (zod record)",
    { type: "object", propertyNames: { type: "string" }, additionalProperties: {} },
    "{ [key: string]: unknown }",
  ],
  ["object: additionalProperties typed", { type: "object", additionalProperties: { type: "string" } }, "{ [key: string]: string }"],
  [
    "object: properties and a typed index signature (widened, TS2411)",
    {
      type: "object",
      properties: { n: { type: "number" }, s: { type: "string" } },
      required: ["n"],
      additionalProperties: { type: "boolean" },
    },
    "{ n: number; s?: string; [key: string]: boolean | number | string | undefined }",
  ],
  [
    "object: patternProperties",
    { type: "object", properties: { a: { type: "string" } }, required: ["a"], patternProperties: { "^x-": { type: "string" } } },
    "{ a: string; [key: string]: unknown }",
  ],
  ["object without type keyword", { properties: { a: { type: "boolean" } } }, "{ a?: boolean }"],
  [
    "names that are not identifiers are quoted",
    {
      type: "object",
      properties: { "max-results": { type: "number" }, "2x": { type: "string" }, $ok: { type: "string" }, 'quo"te': { type: "null" } },
    },
    '{ "max-results"?: number; "2x"?: string; $ok?: string; "quo\\"te"?: null }',
  ],
  [
    "keywords are fine as property names",
    { type: "object", properties: { default: { type: "string" }, class: { type: "string" } } },
    "{ default?: string; class?: string }",
  ],
  [
    "nested object",
    { type: "object", properties: { filter: { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } } } },
    "{ filter?: { tags?: string[] } }",
  ],
  [
    "anyOf",
    { anyOf: [{ type: "string" }, { type: "object", properties: { field: { type: "string" } }, required: ["field"] }] },
    "string | { field: string }",
  ],
  ["oneOf", { oneOf: [{ const: "price" }, { const: "name" }] }, '"price" | "name"'],
  ["anyOf with an unknown member", { anyOf: [{ type: "string" }, {}] }, "unknown"],
  ["anyOf: duplicates and never dropped", { anyOf: [{ type: "string" }, { type: "string" }, false] }, "string"],
  [
    "allOf",
    {
      allOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "number" } } },
      ],
    },
    "{ a?: string } & { b?: number }",
  ],
  ["allOf of unions", { allOf: [{ enum: ["a", "b"] }, { enum: ["b", "c"] }] }, '("a" | "b") & ("b" | "c")'],
  [
    "type beside anyOf",
    {
      type: "object",
      properties: { kind: { type: "string" } },
      required: ["kind"],
      anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "string" } } }],
    },
    "{ kind: string } & ({ a?: string } | { b?: string })",
  ],
  [
    "$ref into $defs",
    { type: "object", properties: { at: { $ref: "#/$defs/Point" } }, required: ["at"], ...DEFS },
    "{ at: { x: number; y: number } }",
  ],
  ["$ref into definitions", { type: "array", items: { $ref: "#/definitions/Id" }, definitions: { Id: { type: "string" } } }, "string[]"],
  ["recursive $ref: the cycle is unknown", { $ref: "#/$defs/Node", ...DEFS }, "{ value: string; next?: unknown }"],
  ["$ref to the root is a cycle", { type: "object", properties: { child: { $ref: "#" } } }, "{ child?: unknown }"],
  ["$ref that leads nowhere", { $ref: "#/$defs/Missing" }, "unknown"],
  ["$ref to another document", { $ref: "https://example.com/schema.json" }, "unknown"],
  ["$ref with a JSON pointer escape", { $ref: "#/$defs/a~1b", $defs: { "a/b": { type: "boolean" } } }, "boolean"],
  ["not: ignored", { type: "string", not: { const: "" } }, "string"],
  [
    "documented properties go one per line, descriptions as TSDoc",
    {
      type: "object",
      properties: {
        sku: { type: "string", description: "Stock keeping unit.\nLike SKU-1; never */ in a comment" },
        quantity: { type: "integer", default: 1 },
        legacy: { type: "boolean", deprecated: true },
        plain: { type: "string" },
      },
      required: ["sku"],
    },
    [
      "{",
      "  /**",
      "   * Stock keeping unit.",
      "   * Like SKU-1; never *\\/ in a comment",
      "   */",
      "  sku: string;",
      "  /** @default 1 */",
      "  quantity?: number;",
      "  /** @deprecated */",
      "  legacy?: boolean;",
      "  plain?: string;",
      "}",
    ].join("\n"),
  ],
  [
    "a documented nested object makes its parents multi-line",
    { type: "object", properties: { outer: { type: "object", properties: { inner: { type: "string", description: "deep" } } } } },
    ["{", "  outer?: {", "    /** deep */", "    inner?: string;", "  };", "}"].join("\n"),
  ],
  [
    "a $ref property takes the referenced description",
    { type: "object", properties: { p: { $ref: "#/$defs/P" } }, $defs: { P: { type: "string", description: "from the def" } } },
    "{\n  /** from the def */\n  p?: string;\n}",
  ],
];

describe("schemaToTs", () => {
  test.each(CASES)("%s", (_what, schema, expected) => {
    expect(schemaToTs(schema)).toBe(expected);
  });

  test("omit leaves top-level properties out (and only top-level ones)", () => {
    const schema = {
      type: "object",
      properties: {
        text: { type: "string" },
        _trailblazeContext: { type: "object" },
        nested: { type: "object", properties: { _trailblazeContext: { type: "string" } } },
      },
      required: ["text", "_trailblazeContext"],
    };
    expect(schemaToTs(schema, { omit: ["_trailblazeContext"] })).toBe("{ text: string; nested?: { _trailblazeContext?: string } }");
  });

  test("indent is where multi-line objects start", () => {
    const schema = { type: "object", properties: { a: { type: "string", description: "doc" } } };
    expect(schemaToTs(schema, { indent: "    " })).toBe("{\n      /** doc */\n      a?: string;\n    }");
  });

  test("root resolves $refs of a schema taken out of its document", () => {
    expect(schemaToTs({ $ref: "#/$defs/Point" }, { root: DEFS })).toBe("{ x: number; y: number }");
  });

  test("schemas whose $refs fan out are cut off at a node budget, and stay valid text", () => {
    const $defs: Record<string, unknown> = { L0: { type: "string" } };
    for (let i = 1; i <= 20; i++)
      $defs[`L${i}`] = {
        type: "array",
        items: { anyOf: [{ $ref: `#/$defs/L${i - 1}` }, { type: "object", properties: { x: { $ref: `#/$defs/L${i - 1}` } } }] },
      };
    const text = schemaToTs({ $ref: "#/$defs/L20", $defs });
    expect(text.length).toBeLessThan(200_000);
    expect(text).toContain("unknown");
  });

  test("very deep nesting is unknown past the depth limit", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) schema = { type: "array", items: schema };
    expect(schemaToTs(schema)).toBe(`unknown${"[]".repeat(32)}`);
  });
});

describe("names and docs", () => {
  test("propertyKey quotes what is not an identifier", () => {
    expect([
      propertyKey("inputText"),
      propertyKey("my-tool"),
      propertyKey("_x"),
      propertyKey("$y"),
      propertyKey("9a"),
      propertyKey(""),
    ]).toEqual(["inputText", '"my-tool"', "_x", "$y", '"9a"', '""']);
  });

  test("tsDoc: one line, several lines, nothing; */ never ends the comment", () => {
    expect(tsDoc("Taps it.", "  ")).toBe("  /** Taps it. */\n");
    expect(tsDoc("\nFirst.\r\n\r\nThen */ this.  \n", "")).toBe("/**\n * First.\n *\n * Then *\\/ this.\n */\n");
    expect(tsDoc("  \n ", "")).toBe("");
    expect(tsDoc("a\u2028b", "")).toBe("/**\n * a\n * b\n */\n");
  });

  test("schemaDoc: description, default, deprecated", () => {
    expect(schemaDoc({ description: " Where to go. ", default: "home", deprecated: true })).toBe(
      'Where to go.\n@default "home"\n@deprecated',
    );
    expect(schemaDoc({ type: "string" })).toBe("");
    expect(schemaDoc(true)).toBe("");
  });
});
