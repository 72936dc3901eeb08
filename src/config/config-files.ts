// Reading config files from disk for the workspace loaders: the YAML files of a folder, and one
// file parsed and validated with every problem collected rather than thrown.

import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import type { Validated } from "./validate.ts";
import { shownPath } from "../core/shown-path.ts";
import { parseYaml } from "../core/yaml-file.ts";
import type { YamlFile } from "../core/yaml-file.ts";

/** How a file is named in messages: relative to `cwd` when inside it, else absolute (core/shown-path.ts). */
export function displayPath(path: string, cwd: string): string {
  return shownPath(cwd, path);
}

/** `*.yaml` and `*.yml` directly in `dir`, sorted; none when it does not exist. */
export async function yamlFilesIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => [".yaml", ".yml"].includes(extname(n)))
    .sort()
    .map((n) => join(dir, n));
}

/** Sub-folders of `dir`, sorted; none when it does not exist. */
export async function foldersIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Parses `path` (shown as `shown`) and validates it with `read`; syntax and validation problems
 * go to `problems`. Undefined when the file has any.
 */
export async function readConfigFile<T>(
  path: string,
  shown: string,
  read: (yaml: YamlFile, path: string) => Validated<T>,
  problems: ConfigProblem[],
): Promise<T | undefined> {
  let result: Validated<T>;
  try {
    result = read(parseYaml(shown, await readFile(path, "utf8")), path);
  } catch (error) {
    if (error instanceof ConfigError) {
      problems.push(...error.problems);
      return undefined;
    }
    throw error;
  }
  problems.push(...result.problems);
  return result.value;
}
