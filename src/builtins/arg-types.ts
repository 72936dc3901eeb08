// Argument types of the framework tools, read the way upstream's YAML decoder reads
// recordings: a String parameter takes any scalar (`text: 1234` is "1234"), an Integer
// or Boolean takes its text form too (what `{{placeholder}}` interpolation yields), and
// the enums upstream decodes with its case-insensitive serializer take any casing.

import { z } from "zod";

/** A String parameter (at least `minLength` characters): a YAML number or boolean is read as its text. */
export function str(minLength = 0) {
  return z.preprocess(
    (v) => (typeof v === "number" || typeof v === "boolean" ? String(v) : v),
    minLength > 0 ? z.string().min(minLength) : z.string(),
  );
}

/** An Integer (or Long) parameter, optionally bounded: "5" is read as 5. */
export function int(min?: number, max?: number) {
  let schema = z.number().int();
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return z.preprocess((v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v), schema);
}

/** A Boolean parameter: "true" / "false" are read as booleans. */
export function bool() {
  return z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());
}

/** An enum matched case-insensitively (and trimmed), as upstream's CaseInsensitiveEnumSerializer does. */
export function anyCase<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess((v) => (typeof v === "string" ? (values.find((e) => e === v.trim().toUpperCase()) ?? v) : v), z.enum(values));
}

/** A list of strings (`List<String>` upstream). */
export function strings() {
  return z.array(str());
}

/** An optional parameter with upstream's default, advertised in the JSON Schema as `default`. */
export function withDefault<T extends z.ZodType>(schema: T, value: z.output<T>) {
  return schema.default(value as never);
}

/** Writes each top-level parameter's default into a JSON Schema made with `io: "input"` (which leaves them out). */
export function addDefaults(shape: z.ZodRawShape, jsonSchema: Record<string, unknown>): void {
  const properties = jsonSchema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, schema] of Object.entries(shape)) {
    if (schema instanceof z.ZodDefault && properties?.[key]) properties[key] = { default: schema.def.defaultValue, ...properties[key] };
  }
}

/**
 * A node selector as recordings write it (`{ androidAccessibility: { textRegex: … } }`,
 * `{ web: { cssSelector: … } }`, …): a map whose shape the screen engine interprets.
 */
export function selector() {
  return z.record(z.string(), z.unknown());
}

/** `reasoning`: the agent's note on why it made the call (ignored when replaying). */
export const reasoning = { reasoning: str().optional() };
