// Loads a whole config folder (targets/*.yaml, toolsets/*.yaml) into a Workspace,
// collecting every problem across all files into one ConfigError.

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { ConfigError, ConfigNotFoundError, formatProblem } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { formatNameFinding, trailmapIdFinding } from "../core/tool-names.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { readTargetConfig } from "./target-config.ts";
import type { TargetConfig } from "./target-config.ts";
import { readToolsetConfig } from "./toolset-config.ts";
import type { ToolsetConfig } from "./toolset-config.ts";
import type { Validated } from "./validate.ts";
import { parseYaml } from "./yaml-file.ts";
import type { Where, YamlFile } from "./yaml-file.ts";

export type { PlatformKey, ServerEntry, TargetConfig, TargetPlatform } from "./target-config.ts";
export type { ToolsetConfig } from "./toolset-config.ts";
export type { Where } from "./yaml-file.ts";
export { findConfigDir } from "./config-dir.ts";
export { resolveScriptPath, resolveTargetServers } from "./script-paths.ts";

export interface Workspace {
  /** Absolute path of the config folder. */
  configDir: string;
  /** By id, in file-name order. */
  targets: Map<string, TargetConfig>;
  /** By id, in file-name order. */
  toolsets: Map<string, ToolsetConfig>;
  /** Non-fatal findings (id differs from the file name, id style); print them, do not fail. */
  warnings: ConfigProblem[];
}

/**
 * The workspace root: the folder holding the config folder. Relative `script:`, `bundle:` and
 * `cwd:` paths resolve against it, whichever subfolder a command runs from.
 */
export function workspaceRoot(configDir: string): string {
  return dirname(configDir);
}

export interface LoadWorkspaceOptions {
  /** Files in messages are shown relative to this folder when inside it; default `process.cwd()`. */
  cwd?: string;
}

/** How a file is named in messages: relative to `cwd` when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

async function yamlFilesIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names.filter((n) => [".yaml", ".yml"].includes(extname(n))).sort().map((n) => join(dir, n));
}

interface Loaded<T> {
  value: T;
  path: string;
  shown: string;
  where: Where;
}

async function loadFolder<T extends { id: string; where: Where }>(
  dir: string,
  kind: "target" | "toolset",
  read: (yaml: YamlFile, path: string) => Validated<T>,
  cwd: string,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): Promise<Map<string, T>> {
  const byId = new Map<string, Loaded<T>>();
  for (const path of await yamlFilesIn(dir)) {
    const shown = displayPath(path, cwd);
    let result: Validated<T>;
    try {
      result = read(parseYaml(shown, await readFile(path, "utf8")), path);
    } catch (error) {
      if (error instanceof ConfigError) {
        problems.push(...error.problems);
        continue;
      }
      throw error;
    }
    problems.push(...result.problems);
    const value = result.value;
    if (!value) continue;
    const where = value.where;
    const first = byId.get(value.id);
    if (first) {
      problems.push({
        ...where,
        path: "id",
        message: `duplicate ${kind} id "${value.id}": also defined in ${first.shown}:${first.where.line}:${first.where.col}; ${kind} ids must be unique, rename one of them`,
      });
      continue;
    }
    byId.set(value.id, { value, path, shown, where });
    const stem = basename(path, extname(path));
    if (stem !== value.id) {
      warnings.push({ ...where, path: "id", message: `id "${value.id}" differs from the file name ${basename(path)}; name the file ${value.id}${extname(path)}` });
    }
    const idFinding = kind === "target" ? trailmapIdFinding(value.id) : undefined;
    if (idFinding) warnings.push({ ...where, path: "id", message: formatNameFinding(idFinding) });
  }
  return new Map([...byId].map(([id, loaded]) => [id, loaded.value]));
}

/**
 * Loads `targets/*.yaml|yml` and `toolsets/*.yaml|yml` under `configDir`.
 * Throws ConfigNotFoundError when the folder does not exist, and one ConfigError
 * carrying every problem of every file otherwise.
 */
export async function loadWorkspace(configDir: string, options: LoadWorkspaceOptions = {}): Promise<Workspace> {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, configDir);
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw new ConfigNotFoundError(`config folder ${dir} does not exist or is not a folder`);
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];
  const targets = await loadFolder(join(dir, "targets"), "target", readTargetConfig, cwd, problems, warnings);
  const toolsets = await loadFolder(join(dir, "toolsets"), "toolset", readToolsetConfig, cwd, problems, warnings);
  if (problems.length > 0) throw new ConfigError(problems);
  return { configDir: dir, targets, toolsets, warnings };
}

/**
 * Target `tool_sets:` entries that name no toolset: they enable nothing, so say so. Toolsets
 * can also be created by tools (`_meta["trailblaze/toolset"]`), so only a session, once its
 * servers have registered, knows every id: it passes them in `known`.
 */
export function unknownToolsetRefs(targets: Iterable<TargetConfig>, known: ReadonlySet<string>): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const target of targets) {
    for (const [platform, body] of Object.entries(target.platforms)) {
      for (const id of body?.toolSets ?? []) {
        if (known.has(id)) continue;
        const hint = didYouMean(id, known);
        out.push({
          ...(body?.where ?? target.where),
          path: `platforms.${platform}.tool_sets`,
          message: `toolset "${id}" is not defined in toolsets/, so it enables nothing (no toolset file or tool _meta defines it)${hint}`,
        });
      }
    }
  }
  return out;
}

/** Warnings as printable lines (`file:line:col path: message`). */
export function formatWarnings(workspace: Workspace): string[] {
  return workspace.warnings.map((w) => `warning: ${formatProblem(w)}`);
}
