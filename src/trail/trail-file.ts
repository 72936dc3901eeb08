// Parses a trail file — the current map form (config / trailhead / trail) or the
// older list form (- config: / - trailhead: / - prompts: / - tools:) — into a Trail.

import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { describeValue, isPlainMap } from "../core/describe.ts";
import { parseYaml } from "../core/yaml-file.ts";
import type { FieldPath, YamlFile } from "../core/yaml-file.ts";
import { readTrailConfig } from "./trail-config.ts";
import type { TrailConfigFields } from "./trail-config.ts";
import { StepReader } from "./trail-steps.ts";
import type { Trail, TrailStep } from "./trail-types.ts";

export type { RecordedCall, StepKind, Trail, TrailArg, TrailStep } from "./trail-types.ts";

const MAP_KEYS = ["config", "trailhead", "trail"];
const LIST_KEYS = ["config", "trailhead", "prompts", "trail", "tools"];

/**
 * The id of a trail without `config.id`: the file name without `.trail.yaml`
 * (or `.yaml` / `.yml`); for a file named just `trail.yaml`, its folder's name.
 */
export function deriveTrailId(file: string): string {
  const name = basename(file);
  const stem = name.replace(/(\.trail)?\.ya?ml$/i, "");
  if (stem.toLowerCase() === "trail" || stem === "") return basename(dirname(file)) || stem || "trail";
  return stem;
}

function unknownTopKey(reader: StepReader, path: FieldPath, key: string, allowed: string[], form: string): void {
  const hint = didYouMean(key, allowed) || `; ${form} takes ${allowed.join(", ")}`;
  reader.problem([...path, key], "key", `unknown key "${key}"${hint}`, path);
}

interface Parts {
  config?: TrailConfigFields;
  steps: TrailStep[];
}

function readMapForm(yaml: YamlFile, reader: StepReader, data: Record<string, unknown>, problems: ConfigProblem[]): Parts {
  for (const key of Object.keys(data)) {
    if (!MAP_KEYS.includes(key)) unknownTopKey(reader, [], key, MAP_KEYS, "a trail file");
  }
  const parts: Parts = { steps: [] };
  if (data.config !== undefined && data.config !== null) {
    const result = readTrailConfig(yaml, ["config"]);
    problems.push(...result.problems);
    if (result.fields) parts.config = result.fields;
  }
  if (data.trailhead !== undefined && data.trailhead !== null) {
    const head = reader.trailhead(["trailhead"]);
    if (head) parts.steps.push(head);
  }
  parts.steps.push(...reader.steps(["trail"]));
  return parts;
}

function readListForm(yaml: YamlFile, reader: StepReader, data: unknown[], problems: ConfigProblem[]): Parts {
  const parts: Parts = { steps: [] };
  let configSeen = false;
  let trailheadSeen = false;
  data.forEach((item, i) => {
    if (!isPlainMap(item) || Object.keys(item).length !== 1) {
      const keys = isPlainMap(item) ? Object.keys(item) : [];
      const found =
        keys.length > 1 ? `a map with ${keys.length} keys (${keys.join(", ")}); give each block its own -` : describeValue(item);
      reader.problem([i], "value", `expected a block like \`- config:\`, \`- prompts:\` or \`- tools:\`, got ${found}`);
      return;
    }
    const key = Object.keys(item)[0]!;
    if (key === "config") {
      if (configSeen) reader.problem([i, key], "key", "a second config: block; merge it into the first");
      configSeen = true;
      const result = readTrailConfig(yaml, [i, "config"]);
      problems.push(...result.problems);
      if (result.fields) parts.config = result.fields;
    } else if (key === "trailhead") {
      if (trailheadSeen) reader.problem([i, key], "key", "a second trailhead: block; a trail has at most one");
      else if (parts.steps.length > 0) reader.problem([i, key], "key", "trailhead: must come before the first step");
      trailheadSeen = true;
      const head = reader.trailhead([i, "trailhead"]);
      if (head) parts.steps.push(head);
    } else if (key === "prompts" || key === "trail") {
      parts.steps.push(...reader.steps([i, key]));
    } else if (key === "tools") {
      parts.steps.push(reader.toolsBlock([i, "tools"]));
    } else if (key === "maestro") {
      reader.problem([i, key], "key", "maestro: blocks are not supported; record the steps as tool calls (- tools: [...]) instead");
    } else {
      unknownTopKey(reader, [i], key, LIST_KEYS, "a list-form trail block");
    }
  });
  return parts;
}

/**
 * Parses one trail file. `file` is used verbatim in messages and `Trail.file`.
 * Throws one ConfigError carrying every problem found in the file.
 */
export function parseTrailFile(file: string, text: string): Trail {
  const yaml = parseYaml(file, text);
  const reader = new StepReader(yaml);
  const problems: ConfigProblem[] = [];
  const data = yaml.data;
  let parts: Parts = { steps: [] };
  if (isPlainMap(data)) parts = readMapForm(yaml, reader, data, problems);
  else if (Array.isArray(data)) parts = readListForm(yaml, reader, data, problems);
  else {
    const found = data === null ? "an empty file" : describeValue(data);
    reader.problem(
      [],
      "value",
      `expected a trail (a map with config:, trailhead: and trail:, or the older list of - config: / - prompts: blocks), got ${found}`,
    );
  }
  problems.push(...reader.problems);
  if (problems.length === 0 && parts.steps.length === 0) {
    reader.problem([], "value", "the trail has no steps; add a trail: list (- step: ... / - verify: ...)");
    problems.push(...reader.problems);
  }
  if (problems.length > 0) throw new ConfigError(sortProblems(problems));
  const { id, ...config } = parts.config ?? { devices: {}, memory: {}, args: {}, tags: [] };
  return { file, id: id ?? deriveTrailId(file), ...config, steps: parts.steps };
}

function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.col - b.col);
}

/**
 * Reads and parses trail files (paths relative to `cwd`, used verbatim in messages). The
 * problems of every file are collected; files that parse are returned in order.
 */
export async function readTrailFiles(files: readonly string[], cwd: string): Promise<{ trails: Trail[]; problems: ConfigProblem[] }> {
  const trails: Trail[] = [];
  const problems: ConfigProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      // Read at once: a trail file is small, and hundreds of reads through the thread pool cost more than they wait.
      text = readFileSync(resolve(cwd, file), "utf8");
    } catch (error) {
      problems.push({ file, line: 0, col: 0, path: "", message: `cannot read: ${(error as Error).message}` });
      continue;
    }
    try {
      trails.push(parseTrailFile(file, text));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  return { trails, problems };
}
