// Loads a whole config folder into a Workspace, collecting every problem across all files into
// one ConfigError: targets/*.yaml and toolsets/*.yaml in either layout, and in upstream's
// `trails/config/` also trailblaze.yaml and the trailmaps it names (trailmap-targets.ts).

import { isFrameworkToolset } from "./framework.ts";
import { stat } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import { ConfigError, ConfigNotFoundError, formatProblem } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { formatNameFinding, trailmapIdFinding } from "../core/tool-names.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { configLayout, rootOfConfigDir, shadowedAnchor } from "./config-dir.ts";
import type { ConfigLayout } from "./config-dir.ts";
import { displayPath, readConfigFile, yamlFilesIn } from "./config-files.ts";
import { readTargetConfig } from "./target-config.ts";
import type { TargetConfig } from "./target-config.ts";
import { loadTrailmapWorkspace } from "./trailmap-targets.ts";
import { readToolsetConfig } from "./toolset-config.ts";
import type { ToolsetConfig } from "./toolset-config.ts";
import type { Validated } from "./validate.ts";
import type { Where, YamlFile } from "../core/yaml-file.ts";

export type { PlatformKey, ServerEntry, TargetConfig, TargetPlatform, ToolRef } from "./target-config.ts";
export type { ToolsetConfig } from "./toolset-config.ts";
export type { Where } from "../core/yaml-file.ts";
export type { ConfigLayout } from "./config-dir.ts";
export { findConfigDir } from "./config-dir.ts";
export { displayPath } from "./config-files.ts";
export { resolveScriptPath, resolveTargetServers } from "./script-paths.ts";

export interface Workspace {
  /** Absolute path of the config folder (`trailblaze-config/`, or upstream's `trails/config/`). */
  configDir: string;
  /** Which layout the config folder has (see ConfigLayout). */
  layout: ConfigLayout;
  /**
   * The workspace root: the folder holding `trailblaze-config/` (or `trails/`). Relative
   * `script:`, `bundle:`, `cwd:` and `simulation:` paths resolve against it, from any subfolder.
   */
  root: string;
  /** By id: target files in file-name order, then trailmap targets in `targets:` order. */
  targets: Map<string, TargetConfig>;
  /** By id, in file-name order. */
  toolsets: Map<string, ToolsetConfig>;
  /** trailblaze.yaml `defaults.target`: the target used when neither a flag nor a trail names one. */
  defaultTarget?: string;
  /** Non-fatal findings (id differs from the file name, id style); print them, do not fail. */
  warnings: ConfigProblem[];
}

interface LoadWorkspaceOptions {
  /** Files in messages are shown relative to this folder when inside it; default `process.cwd()`. */
  cwd?: string;
}

interface Loaded<T> {
  value: T;
  shown: string;
}

/** Values by id; a second value with a taken id is a located problem naming both places. */
class IdTable<T extends { id: string; where: Where }> {
  readonly #byId = new Map<string, Loaded<T>>();
  constructor(
    readonly kind: "target" | "toolset",
    readonly problems: ConfigProblem[],
  ) {}

  add(value: T, shown: string): boolean {
    const first = this.#byId.get(value.id);
    if (first) {
      this.problems.push({
        ...value.where,
        path: "id",
        message: `duplicate ${this.kind} id "${value.id}": also defined in ${first.shown}:${first.value.where.line}:${first.value.where.col}; ${this.kind} ids must be unique, rename one of them`,
      });
      return false;
    }
    this.#byId.set(value.id, { value, shown });
    return true;
  }

  values(): Map<string, T> {
    return new Map([...this.#byId].map(([id, loaded]) => [id, loaded.value]));
  }
}

/** Each `*.yaml|yml` of `dir` into `table`; an id that differs from its file name is a warning. */
async function loadFolder<T extends { id: string; where: Where }>(
  dir: string,
  table: IdTable<T>,
  read: (yaml: YamlFile, path: string) => Validated<T>,
  cwd: string,
  warnings: ConfigProblem[],
): Promise<void> {
  for (const path of await yamlFilesIn(dir)) {
    const shown = displayPath(path, cwd);
    const value = await readConfigFile(path, shown, read, table.problems);
    if (!value || !table.add(value, shown)) continue;
    stemWarning(value, path, warnings);
    const idFinding = table.kind === "target" ? trailmapIdFinding(value.id) : undefined;
    if (idFinding) warnings.push({ ...value.where, path: "id", message: formatNameFinding(idFinding) });
  }
}

function stemWarning(value: { id: string; where: Where }, path: string, warnings: ConfigProblem[]): void {
  const stem = basename(path, extname(path));
  if (stem !== value.id) {
    warnings.push({
      ...value.where,
      path: "id",
      message: `id "${value.id}" differs from the file name ${basename(path)}; name the file ${value.id}${extname(path)}`,
    });
  }
}

/** `defaults.target` must name a loaded target (by id, or an app id one target lists). */
function defaultTargetProblem(wanted: { id: string; where: Where }, targets: Map<string, TargetConfig>): ConfigProblem | undefined {
  if (targets.has(wanted.id)) return undefined;
  if ([...targets.values()].some((t) => Object.values(t.platforms).some((p) => p?.appIds.includes(wanted.id)))) return undefined;
  const known = [...targets.keys()];
  return {
    ...wanted.where,
    path: "defaults.target",
    message: `target "${wanted.id}" is not one of this workspace's targets${didYouMean(wanted.id, known)}; known targets: ${known.join(", ") || "(none)"}`,
  };
}

/**
 * Loads the config folder `configDir`: `targets/*.yaml|yml` and `toolsets/*.yaml|yml`, and when it
 * holds `trailblaze.yaml` (upstream's `trails/config/`) also the trailmaps that file names.
 * Throws ConfigNotFoundError when the folder does not exist, and one ConfigError carrying every
 * problem of every file otherwise.
 */
export async function loadWorkspace(configDir: string, options: LoadWorkspaceOptions = {}): Promise<Workspace> {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, configDir);
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new ConfigNotFoundError(`config folder ${dir} does not exist or is not a folder`);
  const layout = await configLayout(dir);
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];
  const targets = new IdTable<TargetConfig>("target", problems);
  const toolsets = new IdTable<ToolsetConfig>("toolset", problems);
  await loadFolder(join(dir, "targets"), targets, readTargetConfig, cwd, warnings);
  await loadFolder(join(dir, "toolsets"), toolsets, readToolsetConfig, cwd, warnings);
  let defaultTarget: { id: string; where: Where } | undefined;
  if (layout === "trails-config") {
    const trailmaps = await loadTrailmapWorkspace(dir, cwd, problems, warnings);
    for (const target of trailmaps.targets) targets.add(target, displayPath(target.file, cwd));
    for (const found of trailmaps.toolsets) {
      if (toolsets.add(found.value, found.shown) && found.listed) stemWarning(found.value, found.path, warnings);
    }
    defaultTarget = trailmaps.defaultTarget;
  }
  const shadowed = await shadowedAnchor(dir, layout);
  if (shadowed) {
    warnings.push({
      file: displayPath(shadowed, cwd),
      line: 1,
      col: 1,
      path: "",
      message: `not loaded: ${displayPath(dir, cwd)}/ at the same level is used instead (trailblaze-config/ wins over trails/config/); pass --config ${displayPath(resolve(shadowed, ".."), cwd)} to load this one`,
    });
  }
  const loadedTargets = targets.values();
  const badDefault = defaultTarget && defaultTargetProblem(defaultTarget, loadedTargets);
  if (badDefault) problems.push(badDefault);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    configDir: dir,
    layout,
    root: rootOfConfigDir(dir, layout),
    targets: loadedTargets,
    toolsets: toolsets.values(),
    ...(defaultTarget ? { defaultTarget: defaultTarget.id } : {}),
    warnings,
  };
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
        if (known.has(id) || isFrameworkToolset(id)) continue;
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
