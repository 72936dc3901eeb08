// Validates (part of) a YamlFile against a zod schema and turns every zod issue
// into a located ConfigProblem with a message that says what was expected and
// what was found.

import type * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { describeExpected, describeValue, quoteList, valueAt } from "../core/describe.ts";
import { problemAt } from "../core/yaml-file.ts";
import type { Anchor, FieldPath, PathSegment, YamlFile } from "../core/yaml-file.ts";

export interface Validated<T> {
  /** The parsed value; undefined when any problem was found. */
  value?: T;
  problems: ConfigProblem[];
}

/**
 * For custom issues (`ctx.addIssue({ code: "custom", message, params: { anchor } })`):
 * which node the problem points at; default `value`.
 */
interface CustomIssueParams {
  anchor?: Anchor;
}

/**
 * Validates the node at `at` (default: the whole document) with `schema`.
 * Every issue becomes one problem; nothing stops at the first.
 */
export function validateWith<S extends z.ZodType>(schema: S, yaml: YamlFile, at: FieldPath = []): Validated<z.output<S>> {
  const data = valueAt(yaml.data, at);
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data, problems: [] };
  const problems = result.error.issues.flatMap((issue) => issueProblems(issue, schema, yaml, at, data));
  return { problems: dedupe(problems) };
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.line}:${p.col}:${p.path}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Issue = z.core.$ZodIssue;

function issueProblems(issue: Issue, root: z.ZodType, yaml: YamlFile, base: FieldPath, data: unknown): ConfigProblem[] {
  const rel = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s)) as PathSegment[];
  const path = [...base, ...rel];
  const value = valueAt(data, rel);
  const parent = path.slice(0, -1);
  const last = path.at(-1);
  switch (issue.code) {
    case "invalid_type": {
      if (value === undefined && last !== undefined && typeof last === "string") {
        return [problemAt(yaml, path, "parent", `missing required key "${last}" (${describeExpected(issue.expected)})`, parent)];
      }
      if (path.length === 0 && value === null) {
        return [problemAt(yaml, path, "value", `the file is empty; expected ${describeExpected(issue.expected)}`)];
      }
      return [problemAt(yaml, path, "value", `expected ${describeExpected(issue.expected)}, got ${describeValue(value)}`)];
    }
    case "unrecognized_keys": {
      const known = knownKeys(schemaAt(root, rel));
      return issue.keys.map((key) => {
        const hint = didYouMean(key, known) || (known.length ? `; allowed keys: ${known.join(", ")}` : "");
        return problemAt(yaml, [...path, key], "key", `unknown key "${key}"${hint}`, path);
      });
    }
    case "invalid_value": {
      const hint = typeof value === "string" ? didYouMean(value, issue.values.map(String)) : "";
      return [problemAt(yaml, path, "value", `expected ${quoteList(issue.values)}, got ${describeValue(value)}${hint}`)];
    }
    case "too_small":
    case "too_big":
      return [problemAt(yaml, path, "value", sizeMessage(issue, value))];
    case "invalid_format":
      return [problemAt(yaml, path, "value", `expected a ${issue.format} string, got ${describeValue(value)}`)];
    case "invalid_union":
      return unionProblems(issue, root, rel, yaml, base, data, value);
    case "custom": {
      const params = (issue.params ?? {}) as CustomIssueParams;
      return [problemAt(yaml, path, params.anchor ?? "value", issue.message)];
    }
    default:
      return [problemAt(yaml, path, "value", issue.message)];
  }
}

function sizeMessage(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const small = issue.code === "too_small";
  const bound = Number(small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum);
  const inclusive = issue.inclusive !== false;
  if (issue.origin === "string") {
    if (small && bound === 1) return `expected a non-empty string, got ${describeValue(value)}`;
    return `expected a string of ${small ? "at least" : "at most"} ${bound} characters, got ${describeValue(value)}`;
  }
  if (issue.origin === "array" || issue.origin === "set") {
    if (small && bound === 1) return `expected a non-empty list, got ${describeValue(value)}`;
    return `expected a list of ${small ? "at least" : "at most"} ${bound} items, got ${(value as unknown[]).length}`;
  }
  const op = small ? (inclusive ? ">=" : ">") : inclusive ? "<=" : "<";
  return `expected a number ${op} ${bound}, got ${describeValue(value)}`;
}

function unionProblems(
  issue: z.core.$ZodIssueInvalidUnion,
  root: z.ZodType,
  rel: PathSegment[],
  yaml: YamlFile,
  base: FieldPath,
  data: unknown,
  value: unknown,
): ConfigProblem[] {
  const path = [...base, ...rel];
  const typeOnly = (branch: readonly Issue[]) => branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0;
  const deeper = issue.errors.findIndex((branch) => !typeOnly(branch));
  if (deeper === -1 || value === undefined) {
    const expected = issue.errors.flatMap((b) => (b[0]?.code === "invalid_type" ? [describeExpected(b[0].expected)] : []));
    const unique = [...new Set(expected)];
    const words = unique.length > 1 ? `${unique.slice(0, -1).join(", ")} or ${unique.at(-1)}` : (unique[0] ?? "another value");
    return [problemAt(yaml, path, "value", `expected ${words}, got ${describeValue(value)}`)];
  }
  // The value has the type of one branch and fails inside it: report that branch's issues.
  const option = unionOptions(schemaAt(root, rel))[deeper] ?? root;
  const branchBase = [...base, ...rel];
  return issue.errors[deeper]!.flatMap((inner) => issueProblems(inner, option, yaml, branchBase, valueAt(data, rel)));
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    const next = def.innerType ?? def.in ?? (def.type === "lazy" ? def.getter?.() : undefined);
    if (!next) return current;
    current = next;
  }
  return current;
}

/** The schema that validates the value at `path` below `schema` (best effort). */
function schemaAt(schema: z.ZodType, path: readonly PathSegment[]): z.ZodType {
  let current = unwrap(schema);
  for (const segment of path) {
    const def = defOf(current);
    let next: z.ZodType | undefined;
    if (def.type === "object") next = def.shape?.[String(segment)];
    else if (def.type === "array") next = def.element;
    else if (def.type === "record") next = def.valueType;
    else if (def.type === "union") {
      next = def.options?.map(unwrap).find((o) => defOf(o).type === (typeof segment === "number" ? "array" : "object"));
      if (next) next = schemaAt(next, [segment]);
    }
    if (!next) return current;
    current = unwrap(next);
  }
  return current;
}

function knownKeys(schema: z.ZodType): string[] {
  const def = defOf(unwrap(schema));
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "union") return [...new Set((def.options ?? []).flatMap(knownKeys))];
  return [];
}

function unionOptions(schema: z.ZodType): z.ZodType[] {
  const def = defOf(unwrap(schema));
  return def.type === "union" ? (def.options ?? []) : [];
}
