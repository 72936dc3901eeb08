// Reads a selector out of a YAML file (a waypoint or shortcut), turning a bad one into a
// ConfigProblem at the file:line:col of the offending field rather than of the whole selector.

import type { ConfigProblem } from "../errors.ts";
import { SelectorError } from "../errors.ts";
import { formatPath, problemAt, type FieldPath, type PathSegment, type YamlFile } from "../config/yaml-file.ts";
import { parseSelector, type Selector } from "./selector.ts";

/** `$.childOf.androidAccessibility.textRegex: expected …` → segments + message. */
function splitProblem(problem: string): { segments: PathSegment[]; message: string } {
  const m = /^\$((?:\.[A-Za-z_$][\w$]*|\[\d+\])*): ([\s\S]*)$/.exec(problem);
  if (!m) return { segments: [], message: problem };
  const segments: PathSegment[] = [];
  for (const part of m[1]!.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]/g)) segments.push(part[1] ?? Number(part[2]));
  return { segments, message: m[2]! };
}

function valueAt(data: unknown, path: FieldPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

/** The selector at `path` in `yaml`, or undefined with a problem pushed. */
export function selectorAt(yaml: YamlFile, path: FieldPath, problems: ConfigProblem[], shape?: "node" | "legacy"): Selector | undefined {
  try {
    return parseSelector(valueAt(yaml.data, path), formatPath(path), shape);
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error;
    const { segments, message } = splitProblem(error.problem);
    const at = [...path, ...segments];
    problems.push(problemAt(yaml, at, message.startsWith("unknown") ? "key" : "value", message));
    return undefined;
  }
}
