// An exact fast path for the parse McpServer makes of a tool's arguments (and of its structured
// output) inside QuickJS, where zod runs jitless in an interpreter: ~15-30 µs a call for a shape of
// a few fields. For a zod object of plain fields (strings with at most length bounds, numbers with
// at most an integer check, booleans, any, unknown, each maybe optional) and a plain input that
// passes, it gives what zod's safeParse gives (the same value: the shape's keys in its order, the
// rest stripped). For every other schema, zod version or input it answers `undefined`, and zod
// decides (its issues and messages included). Held to zod by plain-object-schema.test.ts.

/** zod versions this was checked against (the test fails on the installed one if absent). */
export const VERIFIED_ZOD_VERSIONS: readonly string[] = ["4.6.7"];

type Plain = Record<string, unknown>;

/** What a zod v4 schema holds that this reads (`_zod`: its internals, stable across 4.x). */
interface ZodInternals {
  _zod?: {
    def: {
      type: string;
      shape?: Record<string, unknown>;
      catchall?: unknown;
      innerType?: unknown;
      checks?: readonly { _zod: { def: { check: string; format?: string; minimum?: number; maximum?: number } } }[];
      coerce?: boolean;
      format?: string;
    };
    version?: { major: number; minor: number; patch: number };
    traits?: Set<string>;
  };
}

/** How one field accepts a present value (undefined is handled by `optional`). */
interface Field {
  key: string;
  /** Absent is fine (and leaves the key out); present as undefined is kept as undefined. */
  optional: boolean;
  /** Present as undefined is fine (any, unknown). */
  undefinedOk: boolean;
  accepts(value: unknown): boolean;
}

/** A plain value: what JSON.parse makes, or a copy the SDK's request path made. */
function plain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

const isString = (value: unknown): value is string => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);

/**
 * A string field's test, or undefined for one that is not plain. Length bounds count code points:
 * a string whose UTF-16 units settle it either way is answered here, any other is left to zod.
 */
function stringTest(def: NonNullable<ZodInternals["_zod"]>["def"]): ((value: unknown) => boolean) | undefined {
  if (def.coerce || def.format !== undefined) return undefined;
  let atLeast = 0;
  let atMost = Number.POSITIVE_INFINITY;
  for (const check of def.checks ?? []) {
    const { check: kind, minimum, maximum } = check._zod.def;
    if (kind === "min_length" && typeof minimum === "number") atLeast = Math.max(atLeast, minimum);
    else if (kind === "max_length" && typeof maximum === "number") atMost = Math.min(atMost, maximum);
    else return undefined;
  }
  // At least `atLeast` code points for sure: twice as many units; at most `atMost` for sure: that many units.
  return (value) => isString(value) && value.length >= 2 * atLeast && value.length <= atMost;
}

function numberTest(def: NonNullable<ZodInternals["_zod"]>["def"]): ((value: unknown) => boolean) | undefined {
  if (def.coerce) return undefined;
  const checks = def.checks ?? [];
  if (checks.length === 0) return isNumber;
  if (checks.length === 1 && checks[0]!._zod.def.check === "number_format" && checks[0]!._zod.def.format === "safeint")
    return (value) => typeof value === "number" && Number.isSafeInteger(value);
  return undefined;
}

/** A field's test, or undefined when the field is not plain. */
function fieldOf(key: string, schema: unknown): Field | undefined {
  const zod = (schema as ZodInternals)._zod;
  if (!zod) return undefined;
  let def = zod.def;
  let optional = false;
  if (def.type === "optional") {
    // .exactOptional() takes no undefined: not this path's.
    if (!zod.traits?.has("$ZodOptional") || zod.traits.has("$ZodExactOptional") || (def.checks ?? []).length > 0) return undefined;
    const inner = (def.innerType as ZodInternals)._zod;
    if (!inner) return undefined;
    def = inner.def;
    optional = true;
  }
  let accepts: ((value: unknown) => boolean) | undefined;
  let undefinedOk = optional;
  switch (def.type) {
    case "string":
      accepts = stringTest(def);
      break;
    case "number":
      accepts = numberTest(def);
      break;
    case "boolean":
      accepts = def.coerce || (def.checks ?? []).length > 0 ? undefined : (value) => typeof value === "boolean";
      break;
    case "any":
    case "unknown":
      accepts = (def.checks ?? []).length > 0 ? undefined : () => true;
      undefinedOk = true;
      break;
  }
  return accepts && { key, optional, undefinedOk, accepts };
}

/** The fields of each schema seen, or null for one that is not a plain object schema. */
const analysed = new WeakMap<object, readonly Field[] | null>();

function fieldsOf(schema: object): readonly Field[] | null {
  const zod = (schema as ZodInternals)._zod;
  const version = zod?.version;
  if (!zod || !version || !VERIFIED_ZOD_VERSIONS.includes(`${version.major}.${version.minor}.${version.patch}`)) return null;
  const { def } = zod;
  if (def.type !== "object" || def.catchall !== undefined || (def.checks ?? []).length > 0 || !zod.traits?.has("$ZodObject")) return null;
  const shape = def.shape;
  if (!shape || Object.getOwnPropertySymbols(shape).length > 0) return null;
  const fields: Field[] = [];
  for (const key of Object.keys(shape)) {
    // zod asks `key in input`, which sees Object.prototype's members: such keys are left to it.
    if (key === "__proto__" || key in Object.prototype) return null;
    const field = fieldOf(key, shape[key]);
    if (!field) return null;
    fields.push(field);
  }
  return fields;
}

/** zod's safeParse of `input` against `schema` when both are plain and it passes; else undefined (ask zod). */
export function plainObjectParse(schema: unknown, input: unknown): { success: true; data: Plain } | undefined {
  if (typeof schema !== "object" || schema === null || !plain(input) || Object.hasOwn(input, "__proto__")) return undefined;
  let fields = analysed.get(schema);
  if (fields === undefined) {
    fields = fieldsOf(schema);
    analysed.set(schema, fields);
  }
  if (fields === null) return undefined;
  const data: Plain = {};
  for (const field of fields) {
    if (!(field.key in input)) {
      if (field.optional) continue;
      return undefined;
    }
    const value = input[field.key];
    if (value === undefined) {
      if (!field.undefinedOk) return undefined;
    } else if (!field.accepts(value)) {
      return undefined;
    }
    data[field.key] = value;
  }
  return { success: true, data };
}
