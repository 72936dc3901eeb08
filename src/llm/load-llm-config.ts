// Loads `llm:` from the user's `~/.trailblaze/trailblaze.yaml` (lower priority) and the workspace's
// `trails/config/trailblaze.yaml` (or `trailblaze-config/trailblaze.yaml`), in that order. A file
// that is missing is no config; one that does not parse or has wrong types gives problems that name
// each at file:line:col. One reading for every command: `check` reports the problems, `run` warns
// of them (only a step that needs the model fails), `step` and `verify` refuse them.

import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type ConfigProblem } from "../errors.ts";
import { parseYaml } from "../core/yaml-file.ts";
import { displayPath } from "../config/config-files.ts";
import { emptyLlmConfig, readLlmBlock, type LlmConfig } from "./llm-config.ts";

interface LlmConfigFiles {
  /** The workspace root (holding `trails/` or `trailblaze-config/`), if any. */
  root?: string;
  /** The user's home folder (default: $HOME). */
  home?: string;
  cwd: string;
}

/** What the files say: the config, its problems (wrong types and values) and warnings (unknown keys). */
export interface ReadLlmConfig {
  config: LlmConfig;
  problems: ConfigProblem[];
  warnings: ConfigProblem[];
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** The workspace's own files, lowest priority first: upstream's anchor, then ours. */
const workspaceFiles = (root: string) => [
  join(root, "trails", "config", "trailblaze.yaml"),
  join(root, "trailblaze-config", "trailblaze.yaml"),
];

/** The files read, lowest priority first. */
function llmConfigPaths({ root, home }: LlmConfigFiles): string[] {
  const paths: string[] = [];
  if (home) paths.push(join(home, ".trailblaze", "trailblaze.yaml"));
  if (root) paths.push(...workspaceFiles(root));
  return paths.filter(isFile);
}

/** The workspace file a message names: the last one read, else ours when the workspace has trailblaze-config/, else upstream's. */
function workspaceFile({ root, cwd }: LlmConfigFiles): string {
  if (root === undefined) return "trails/config/trailblaze.yaml";
  const [anchor, ours] = workspaceFiles(root) as [string, string];
  const file = isFile(ours) ? ours : isFile(anchor) ? anchor : existsSync(join(root, "trailblaze-config")) ? ours : anchor;
  return displayPath(file, cwd);
}

/** Reads every file; never throws for what a file says. */
export function readLlmConfig(files: LlmConfigFiles): ReadLlmConfig {
  const config: LlmConfig = { ...emptyLlmConfig(), file: workspaceFile(files) };
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];
  for (const path of llmConfigPaths(files)) {
    try {
      const read = readLlmBlock(parseYaml(displayPath(path, files.cwd), readFileSync(path, "utf8")), config);
      problems.push(...read.problems);
      warnings.push(...read.warnings);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  return { config, problems, warnings };
}

/** As readLlmConfig, but a problem is a ConfigError naming every one. */
export function loadLlmConfig(files: LlmConfigFiles): ReadLlmConfig {
  const read = readLlmConfig(files);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return read;
}
