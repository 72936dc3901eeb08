// Recorded arguments against a tool's input schema: the one check `check` (finding
// `trail-args`) and `run` (before any step) share. A tool may check its own arguments
// (`checkArgs`, the built-ins do it with the schema they run with); any other tool is
// checked against its advertised JSON Schema. A value that still holds a `{{placeholder}}`
// is only known at run time, so it is not judged here.

import { describeValue, isPlainMap, valueAt } from "../core/describe.ts";
import { placeholderKeys } from "../trail/interpolate.ts";
import type { ArgIssue, ArgPath, RegisteredTool } from "./registry.ts";

export type { ArgIssue, ArgPath } from "./registry.ts";

/** `a.b[0]`, or `arguments` for the top level. */
function formatArgPath(path: ArgPath): string {
  if (path.length === 0) return "arguments";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** The parameters a schema lists, as `a, b or c` text (for "not a parameter" messages). */
function parameterList(schema: Record<string, unknown>): string {
  const names = isPlainMap(schema.properties) ? Object.keys(schema.properties) : [];
  return names.length === 0 ? "no parameters" : names.join(", ");
}

export function unknownParameterMessage(tool: string, schema: Record<string, unknown>): string {
  return `not a parameter of ${tool} (it takes ${parameterList(schema)})`;
}

/** `wait: seconds: not a parameter …; x: …` — one line for a failed call or a finding. */
export function formatArgIssues(tool: string, issues: readonly ArgIssue[]): string {
  return `${tool}: ${issues.map((i) => `${formatArgPath(i.path)}: ${i.message}`).join("; ")}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  object: "a map",
  array: "a list",
  null: "null",
};

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainMap(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

/** Issues of `value` against a JSON Schema (the subset tools advertise: type, enum, const, properties, required, additionalProperties, items, anyOf/oneOf, bounds). */
function jsonSchemaIssues(schema: unknown, value: unknown, path: ArgPath = [], tool = "the tool"): ArgIssue[] {
  if (!isPlainMap(schema)) return [];
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const results = alternatives.map((alt) => jsonSchemaIssues(alt, value, path, tool));
    if (results.some((r) => r.length === 0)) return [];
    return results.reduce((best, r) => (r.length < best.length ? r : best));
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length > 0 && !types.some((t) => typeMatches(t, value))) {
    return [{ path, message: `expected ${types.map((t) => TYPE_WORDS[t] ?? t).join(" or ")}, got ${describeValue(value)}` }];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    return [{ path, message: `expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${describeValue(value)}` }];
  }
  if ("const" in schema && schema.const !== value) {
    return [{ path, message: `expected ${JSON.stringify(schema.const)}, got ${describeValue(value)}` }];
  }
  const issues: ArgIssue[] = [];
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum)
      issues.push({ path, message: `expected at least ${schema.minimum}, got ${value}` });
    if (typeof schema.maximum === "number" && value > schema.maximum)
      issues.push({ path, message: `expected at most ${schema.maximum}, got ${value}` });
  }
  if (typeof value === "string" && typeof schema.minLength === "number" && value.length < schema.minLength) {
    issues.push({
      path,
      message: `expected at least ${schema.minLength} character${schema.minLength === 1 ? "" : "s"}, got ${describeValue(value)}`,
    });
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => issues.push(...jsonSchemaIssues(schema.items, item, [...path, i], tool)));
  }
  if (isPlainMap(value)) {
    const properties = isPlainMap(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    for (const key of required) {
      if (value[key] === undefined) {
        const type = isPlainMap(properties[key]) ? (properties[key] as Record<string, unknown>).type : undefined;
        issues.push({
          path: [...path, key],
          message: `required${typeof type === "string" ? ` (${TYPE_WORDS[type] ?? type})` : ""}, missing`,
        });
      }
    }
    for (const [key, item] of Object.entries(value)) {
      if (key in properties) issues.push(...jsonSchemaIssues(properties[key], item, [...path, key], tool));
      else if (schema.additionalProperties === false) {
        issues.push({
          path: [...path, key],
          message: path.length === 0 ? unknownParameterMessage(tool, schema) : `not a key of ${formatArgPath(path)}`,
        });
      } else if (isPlainMap(schema.additionalProperties))
        issues.push(...jsonSchemaIssues(schema.additionalProperties, item, [...path, key], tool));
    }
  }
  return issues;
}

/** Issues of `args` for `tool`: its own check when it has one, else its JSON Schema. */
function argIssues(tool: RegisteredTool, args: Record<string, unknown>): ArgIssue[] {
  return tool.checkArgs ? tool.checkArgs(args) : jsonSchemaIssues(tool.inputSchema, args, [], tool.name);
}

/**
 * Issues of recorded (not yet interpolated) arguments: an issue about a value that holds a
 * placeholder, or about a key inside such a value, is left to run time.
 */
export function recordedArgIssues(tool: RegisteredTool, args: Record<string, unknown>): ArgIssue[] {
  return argIssues(tool, args).filter((issue) => {
    for (let n = issue.path.length; n > 0; n--) {
      if (placeholderKeys(valueAt(args, issue.path.slice(0, n))).length > 0 && typeof valueAt(args, issue.path.slice(0, n)) === "string")
        return false;
    }
    return true;
  });
}
