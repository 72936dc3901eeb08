// Wording shared by every config message: how a found value and an expected
// type are described ("expected a string, got a number (42)").

const MAX_SHOWN = 40;

/**
 * `a number (42)`, `a string ("abc")`, `a list`, `a map`, `an empty value` (null), `nothing`.
 * `mask` (the run's secrets) is applied to the value's text before it is cut, so a cut never shows
 * the first characters of a secret.
 */
export function describeValue(value: unknown, mask: (text: string) => string = (text) => text): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  switch (typeof value) {
    case "string": {
      const masked = mask(value);
      const shown = masked.length > MAX_SHOWN ? `${masked.slice(0, MAX_SHOWN)}…` : masked;
      return value === "" ? "an empty string" : `a string (${JSON.stringify(shown)})`;
    }
    case "number":
      return `a number (${mask(String(value))})`;
    case "boolean":
      return `a boolean (${value})`;
    case "object":
      return value instanceof Date ? `a date (${value.toISOString().slice(0, 10)})` : "a map";
    default:
      return `a ${typeof value}`;
  }
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "a boolean",
  object: "a map",
  record: "a map",
  array: "a list",
  tuple: "a list",
  null: "null",
  undefined: "nothing",
};

/** zod's expected-type words as YAML users say them: `object` → `a map`, `array` → `a list`. */
export function describeExpected(expected: string): string {
  return EXPECTED[expected] ?? expected;
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
export function quoteList(values: readonly unknown[], conjunction = "or"): string {
  const quoted = values.map((v) => JSON.stringify(v));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} ${conjunction} ${quoted.at(-1)}`;
}

/** The value at `path` inside plain JS data, or undefined. */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

export function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
