// A tool's JSON Schema as TypeScript type text, for the generated trailblaze-client.d.ts.
// Covers what tool schemas use (zod's toJSONSchema output and hand-written schemas): object
// properties (required or `?`), string/number/integer/boolean/null, enum and const (literal
// unions), arrays and tuples, nested objects, additionalProperties (an index signature), anyOf /
// oneOf (unions), allOf (intersections), `$ref` into `$defs`/`definitions`, descriptions as TSDoc.
// Anything else is `unknown`: the text is always valid TypeScript, never a guess.
//
// An object without `additionalProperties` is typed closed (no index signature), as zod objects
// and the SDK treat it: extra keys are dropped before the tool sees them, so passing one is a mistake.

/** A JSON Schema node: an object, or `true`/`false`. */
export type JsonSchema = Record<string, unknown> | boolean;

interface SchemaToTsOptions {
  /** The document `$ref`s point into (`#/$defs/…`); default: the schema itself. */
  root?: JsonSchema;
  /** Indentation of the line the type starts on, for multi-line objects. Default "". */
  indent?: string;
  /** Top-level property names to leave out (e.g. the reserved `_trailblazeContext`). */
  omit?: readonly string[];
}

/** The type, before printing: printing alone decides parentheses and line breaks. */
type TsType =
  | { kind: "keyword"; text: string }
  | { kind: "union"; members: TsType[] }
  | { kind: "intersection"; members: TsType[] }
  | { kind: "array"; element: TsType }
  | { kind: "tuple"; elements: TsType[]; rest?: TsType }
  | { kind: "object"; members: Member[] };

interface Member {
  /** Already a valid key: an identifier, a quoted string, or `[key: string]`. */
  key: string;
  optional: boolean;
  type: TsType;
  doc: string;
}

interface Walk {
  root: JsonSchema;
  /** `$ref`s being expanded on the current path: a second visit is a cycle, typed `unknown`. */
  expanding: readonly string[];
  /** Schema nodes still allowed; past it, `unknown` (bounds schemas whose `$ref`s fan out). */
  budget: { nodes: number };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDENT = "  ";
/** Nested this deep, a schema is typed `unknown`. */
const MAX_DEPTH = 32;
const MAX_NODES = 5_000;

const keyword = (text: string): TsType => ({ kind: "keyword", text });
const isKeyword = (type: TsType, text: string): boolean => type.kind === "keyword" && type.text === text;
const UNKNOWN = keyword("unknown");
const NEVER = keyword("never");

/** A property or map key as TypeScript writes it: bare when an identifier, else a quoted string. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * `text` as a TSDoc block at `indent`, ending in a newline (empty when there is nothing to say).
 * `*​/` inside the text is written `*\/`, so it cannot end the comment early.
 */
export function tsDoc(text: string, indent: string): string {
  const lines = text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\*\//g, "*\\/")
    .split("\n")
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

/** What a schema says to a reader: its description, default and deprecation. */
export function schemaDoc(schema: unknown): string {
  if (!isRecord(schema)) return "";
  const parts: string[] = [];
  if (typeof schema.description === "string" && schema.description.trim() !== "") parts.push(schema.description.trim());
  if ("default" in schema) {
    const shown = JSON.stringify(schema.default);
    if (shown !== undefined) parts.push(`@default ${shown}`);
  }
  if (schema.deprecated === true) parts.push("@deprecated");
  return parts.join("\n");
}

/** The TypeScript type of `schema`, as source text. */
export function schemaToTs(schema: JsonSchema, options: SchemaToTsOptions = {}): string {
  const root = options.root ?? schema;
  // The root is being expanded already: a `$ref: "#"` inside it is a cycle.
  const walk: Walk = { root, expanding: root === schema ? ["#"] : [], budget: { nodes: MAX_NODES } };
  return print(typeOf(schema, walk, 0, options.omit ?? []), options.indent ?? "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ── schema → TsType ────────────────────────────────────────────────────────────────────────────

function typeOf(schema: unknown, walk: Walk, depth: number, omit: readonly string[] = []): TsType {
  if (schema === false) return NEVER;
  if (!isRecord(schema) || depth >= MAX_DEPTH || --walk.budget.nodes < 0) return UNKNOWN;

  const parts: TsType[] = [];
  if (typeof schema.$ref === "string") parts.push(refType(schema.$ref, walk, depth));
  const own = ownType(schema, walk, depth, omit);
  if (own) parts.push(own);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members)) parts.push(union(members.map((m) => typeOf(m, walk, depth + 1))));
  }
  if (Array.isArray(schema.allOf)) parts.push(intersection(schema.allOf.map((m) => typeOf(m, walk, depth + 1))));
  const type = intersection(parts);
  return schema.nullable === true && !isKeyword(type, "unknown") ? union([type, keyword("null")]) : type;
}

function refType(ref: string, walk: Walk, depth: number): TsType {
  const target = resolveRef(ref, walk.root);
  if (target === undefined || walk.expanding.includes(ref)) return UNKNOWN;
  return typeOf(target, { ...walk, expanding: [...walk.expanding, ref] }, depth + 1);
}

/** `#`, `#/$defs/Name`, `#/definitions/Name` or any JSON pointer into `root`; undefined when it leads nowhere. */
function resolveRef(ref: string, root: JsonSchema): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** The type `const`, `enum` or `type` (with that type's keywords) give; undefined when the schema names none. */
function ownType(schema: Record<string, unknown>, walk: Walk, depth: number, omit: readonly string[]): TsType | undefined {
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const declared = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : undefined;
  if (declared) return union(declared.map((name) => typeNamed(name, schema, walk, depth, omit)));
  // No `type`: the shape keywords still say what it is.
  if (isRecord(schema.properties) || "additionalProperties" in schema || isRecord(schema.patternProperties))
    return objectType(schema, walk, depth, omit);
  if ("items" in schema || Array.isArray(schema.prefixItems)) return arrayType(schema, walk, depth);
  return undefined;
}

function typeNamed(name: unknown, schema: Record<string, unknown>, walk: Walk, depth: number, omit: readonly string[]): TsType {
  switch (name) {
    case "string":
      return keyword("string");
    case "number":
    case "integer":
      return keyword("number");
    case "boolean":
      return keyword("boolean");
    case "null":
      return keyword("null");
    case "array":
      return arrayType(schema, walk, depth);
    case "object":
      return objectType(schema, walk, depth, omit);
    default:
      return UNKNOWN;
  }
}

/** A JSON value as a literal type: strings, finite numbers, booleans and null; anything else `unknown`. */
function literal(value: unknown): TsType {
  if (value === null) return keyword("null");
  if (typeof value === "string" || typeof value === "boolean") return keyword(JSON.stringify(value));
  if (typeof value === "number" && Number.isFinite(value)) return keyword(String(value));
  return UNKNOWN;
}

function arrayType(schema: Record<string, unknown>, walk: Walk, depth: number): TsType {
  // Tuples: `prefixItems` (2020-12, more items per `items`), or `items: [...]` (draft-07, per `additionalItems`).
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (prefix) {
    const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const elements = prefix.map((item) => typeOf(item, walk, depth + 1));
    return rest === false ? { kind: "tuple", elements } : { kind: "tuple", elements, rest: typeOf(rest ?? true, walk, depth + 1) };
  }
  return { kind: "array", element: typeOf(schema.items ?? true, walk, depth + 1) };
}

function objectType(schema: Record<string, unknown>, walk: Walk, depth: number, omit: readonly string[]): TsType {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const members: Member[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (omit.includes(name)) continue;
    members.push({
      key: propertyKey(name),
      optional: !required.has(name),
      type: typeOf(property, walk, depth + 1),
      doc: docOf(property, walk.root),
    });
  }
  const index = indexType(schema, walk, depth);
  if (index) {
    // An index signature must admit every property's type (TS2411), so it widens to take them in.
    const optional = members.some((m) => m.optional) ? [keyword("undefined")] : [];
    members.push({ key: "[key: string]", optional: false, type: union([index, ...members.map((m) => m.type), ...optional]), doc: "" });
  }
  // No properties and no index signature: only `{}` fits, and `Record<string, never>` says so (`{}` would take anything).
  return members.length === 0 ? keyword("Record<string, never>") : { kind: "object", members };
}

/** A property's own doc, else (for a `$ref`) the doc of what it points to. */
function docOf(property: unknown, root: JsonSchema): string {
  const own = schemaDoc(property);
  if (own !== "" || !isRecord(property) || typeof property.$ref !== "string") return own;
  return schemaDoc(resolveRef(property.$ref, root));
}

/** The index signature's type: `additionalProperties` (true/{} → unknown); any `patternProperties` → unknown. */
function indexType(schema: Record<string, unknown>, walk: Walk, depth: number): TsType | undefined {
  if (isRecord(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0) return UNKNOWN;
  const additional = schema.additionalProperties;
  if (additional === undefined || additional === false) return undefined;
  return typeOf(additional, walk, depth + 1);
}

/** Members joined by `|`: nested unions flattened, duplicates and `never` dropped, `unknown` absorbing. */
function union(members: readonly TsType[]): TsType {
  const flat = members.flatMap((m) => (m.kind === "union" ? m.members : [m])).filter((m) => !isKeyword(m, "never"));
  return combine("union", flat, "unknown", "never");
}

/** Members joined by `&`: nested intersections flattened, duplicates and `unknown` dropped, `never` absorbing. */
function intersection(members: readonly TsType[]): TsType {
  const flat = members.flatMap((m) => (m.kind === "intersection" ? m.members : [m])).filter((m) => !isKeyword(m, "unknown"));
  return combine("intersection", flat, "never", "unknown");
}

function combine(kind: "union" | "intersection", members: TsType[], absorbing: string, empty: string): TsType {
  if (members.some((m) => isKeyword(m, absorbing))) return keyword(absorbing);
  const byText = new Map(members.map((m) => [print(m, ""), m]));
  const unique = [...byText.values()];
  if (unique.length === 0) return keyword(empty);
  return unique.length === 1 ? unique[0]! : { kind, members: unique };
}

// ── TsType → text ──────────────────────────────────────────────────────────────────────────────

/** Whether an object prints over several lines: when a member has a doc or a multi-line type. */
function multiline(type: TsType): boolean {
  switch (type.kind) {
    case "keyword":
      return false;
    case "union":
    case "intersection":
      return type.members.some(multiline);
    case "array":
      return multiline(type.element);
    case "tuple":
      return type.elements.some(multiline) || (type.rest !== undefined && multiline(type.rest));
    case "object":
      return type.members.some((m) => m.doc !== "" || multiline(m.type));
  }
}

/** `type` as text; `indent` is the indentation of the line it starts on. */
function print(type: TsType, indent: string): string {
  switch (type.kind) {
    case "keyword":
      return type.text;
    case "union":
      return type.members.map((m) => print(m, indent)).join(" | ");
    case "intersection":
      return type.members.map((m) => (m.kind === "union" ? `(${print(m, indent)})` : print(m, indent))).join(" & ");
    case "array":
      return `${operand(type.element, indent)}[]`;
    case "tuple": {
      const elements = type.elements.map((e) => print(e, indent));
      if (type.rest) elements.push(`...${operand(type.rest, indent)}[]`);
      return `[${elements.join(", ")}]`;
    }
    case "object": {
      const member = (m: Member, at: string) => `${m.key}${m.optional ? "?" : ""}: ${print(m.type, at)}`;
      if (!multiline(type)) return `{ ${type.members.map((m) => member(m, indent)).join("; ")} }`;
      const inner = indent + INDENT;
      return `{\n${type.members.map((m) => `${tsDoc(m.doc, inner)}${inner}${member(m, inner)};`).join("\n")}\n${indent}}`;
    }
  }
}

/** An array's element: unions and intersections in parentheses. */
function operand(type: TsType, indent: string): string {
  return type.kind === "union" || type.kind === "intersection" ? `(${print(type, indent)})` : print(type, indent);
}
