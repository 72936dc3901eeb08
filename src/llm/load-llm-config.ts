// Loads `llm:` from the user's `~/.trailblaze/trailblaze.yaml` (lower priority) and the workspace's
// `trails/config/trailblaze.yaml` (or `trailblaze-config/trailblaze.yaml`), in that order. A file
// that is missing is no config; one that does not parse or has wrong types is a ConfigError that
// names every problem at file:line:col.

import { readFileSync, statSync } from "node:fs";
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

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** The files read, lowest priority first. */
function llmConfigPaths({ root, home }: LlmConfigFiles): string[] {
  const paths: string[] = [];
  if (home) paths.push(join(home, ".trailblaze", "trailblaze.yaml"));
  if (root) paths.push(join(root, "trails", "config", "trailblaze.yaml"), join(root, "trailblaze-config", "trailblaze.yaml"));
  return paths.filter(isFile);
}

export function loadLlmConfig(files: LlmConfigFiles): { config: LlmConfig; warnings: ConfigProblem[] } {
  const config = emptyLlmConfig();
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
  if (problems.length > 0) throw new ConfigError(problems);
  return { config, warnings };
}
