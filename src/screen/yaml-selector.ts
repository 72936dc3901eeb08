// Reads a selector out of a YAML file (a waypoint or shortcut), turning a bad one into a
// ConfigProblem at the file:line:col of the offending field rather than of the whole selector;
// and opens those files.

import type { ConfigProblem } from "../errors.ts";
import { ConfigError, SelectorError } from "../errors.ts";
import { isPlainMap } from "../core/describe.ts";
import { formatPath, parseYaml, problemAt, type FieldPath, type PathSegment, type YamlFile } from "../core/yaml-file.ts";
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

/**
 * The selector at `path` in `yaml`, or undefined with a problem pushed. With `warnings`, an
 * unknown field is a warning there and is ignored, as upstream's map loader ignores it.
 */
export function selectorAt(
  yaml: YamlFile,
  path: FieldPath,
  problems: ConfigProblem[],
  shape?: "node" | "legacy",
  warnings?: ConfigProblem[],
): Selector | undefined {
  const located = (problem: string): ConfigProblem => {
    const { segments, message } = splitProblem(problem);
    return problemAt(yaml, [...path, ...segments], message.startsWith("unknown") ? "key" : "value", message);
  };
  const onUnknown = warnings && ((problem: string) => void warnings.push(located(`${problem}; ignored, as upstream ignores it`)));
  try {
    return parseSelector(valueAt(yaml.data, path), formatPath(path), shape, onUnknown);
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error;
    problems.push(located(error.problem));
    return undefined;
  }
}

/**
 * Parses a waypoint or shortcut file whose top level must be a map; a YAML error or another
 * top level is pushed to `problems` (`expected` says what the file should hold) and gives undefined.
 */
export function parseMapFile(
  file: string,
  text: string,
  problems: ConfigProblem[],
  expected: string,
): { yaml: YamlFile; data: Record<string, unknown> } | undefined {
  let yaml: YamlFile;
  try {
    yaml = parseYaml(file, text);
  } catch (error) {
    if (error instanceof ConfigError) {
      problems.push(...error.problems);
      return undefined;
    }
    throw error;
  }
  if (!isPlainMap(yaml.data)) {
    problems.push({ file, line: 1, col: 1, path: "", message: `expected ${expected}` });
    return undefined;
  }
  return { yaml, data: yaml.data };
}
