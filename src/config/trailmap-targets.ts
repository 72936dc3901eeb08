// Upstream's layout: `trails/config/trailblaze.yaml` names the target trailmaps, each
// `trailmaps/<id>/trailmap.yaml` becomes a TargetConfig, its `dependencies:` (transitively) fill
// platform fields it leaves out from their `defaults:` and lend it their `exports:`, and every
// trailmap loaded contributes its `toolsets/`.

import { FRAMEWORK_TRAILMAPS } from "./framework.ts";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConfigProblem } from "../errors.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { formatNameFinding, trailmapIdFinding } from "../core/tool-names.ts";
import { readAnchor } from "./anchor-file.ts";
import type { WorkspaceAnchor } from "./anchor-file.ts";
import { ANCHOR_FILE } from "./config-dir.ts";
import { displayPath, foldersIn, readConfigFile, yamlFilesIn } from "./config-files.ts";
import type { PlatformKey, TargetConfig, TargetPlatform, ToolRef } from "./target-config.ts";
import { readTrailmap, TRAILMAP_FILE } from "./trailmap-file.ts";
import type { Trailmap, TrailmapPlatform, TrailmapPlatformKey, TrailmapPlatforms } from "./trailmap-file.ts";
import { dependencyWalk, inheritedDefaults, overlay, withLibraryToolSets } from "./trailmap-inherit.ts";
import { readToolsetConfig } from "./toolset-config.ts";
import type { ToolsetConfig } from "./toolset-config.ts";
import type { Where } from "../core/yaml-file.ts";

/** A toolset file found for the workspace, and whether its file name should match its id. */
interface FoundToolset {
  value: ToolsetConfig;
  path: string;
  shown: string;
  /** Found by listing a `toolsets/` folder (its file name should be `<id>.yaml`). */
  listed: boolean;
}

interface TrailmapWorkspace {
  targets: TargetConfig[];
  toolsets: FoundToolset[];
  defaultTarget?: { id: string; where: Where };
}

class TrailmapLoader {
  readonly #loaded = new Map<string, Trailmap | undefined>();
  readonly #dir: string;
  readonly #cwd: string;
  readonly #problems: ConfigProblem[];
  readonly #warnings: ConfigProblem[];

  constructor(dir: string, cwd: string, problems: ConfigProblem[], warnings: ConfigProblem[]) {
    this.#dir = dir;
    this.#cwd = cwd;
    this.#problems = problems;
    this.#warnings = warnings;
  }

  fileOf(id: string): string {
    return join(this.#dir, id, TRAILMAP_FILE);
  }

  shown(path: string): string {
    return displayPath(path, this.#cwd);
  }

  exists(id: string): boolean {
    return existsSync(this.fileOf(id));
  }

  /** Every trailmap loaded so far (those that parsed), in load order. */
  all(): Trailmap[] {
    return [...this.#loaded.values()].filter((t): t is Trailmap => t !== undefined);
  }

  /** The trailmap in folder `id`; undefined when it is missing or has problems (reported once). */
  async load(id: string): Promise<Trailmap | undefined> {
    if (this.#loaded.has(id)) return this.#loaded.get(id);
    this.#loaded.set(id, undefined);
    if (!this.exists(id)) return undefined;
    const path = this.fileOf(id);
    const trailmap = await readConfigFile(path, this.shown(path), readTrailmap, this.#problems);
    if (!trailmap) return undefined;
    if (trailmap.id !== id) {
      this.#problems.push({
        ...trailmap.where,
        path: "id",
        message: `trailmap id "${trailmap.id}" differs from its folder trailmaps/${id}/; targets: and dependencies: find a trailmap by its folder, so name them the same`,
      });
      return undefined;
    }
    const finding = trailmapIdFinding(id);
    if (finding) this.#warnings.push({ ...trailmap.where, path: "id", message: formatNameFinding(finding) });
    this.#loaded.set(id, trailmap);
    return trailmap;
  }

  /** "not found" wording for a trailmap id, with close folder names. */
  async missing(id: string): Promise<string> {
    const hint = didYouMean(id, await foldersIn(this.#dir));
    return `trailmap ${id} not found: there is no ${this.shown(this.fileOf(id))}${hint}`;
  }
}

/** Loads every trailmap reachable through `dependencies:` from `roots`, reporting missing ones and cycles. */
async function loadDependencies(roots: Trailmap[], loader: TrailmapLoader, problems: ConfigProblem[]): Promise<void> {
  const state = new Map<string, "visiting" | "done">();
  const visit = async (trailmap: Trailmap, chain: string[]): Promise<void> => {
    state.set(trailmap.id, "visiting");
    for (const dep of trailmap.dependencies) {
      if (FRAMEWORK_TRAILMAPS.has(dep.id) && !loader.exists(dep.id)) continue;
      if (state.get(dep.id) === "visiting") {
        const stack = [...chain, trailmap.id];
        const cycle = [...stack.slice(stack.indexOf(dep.id)), dep.id].join(" → ");
        problems.push({
          ...dep.where,
          path: "dependencies",
          message: `dependency cycle ${cycle}; a trailmap cannot depend on itself, directly or through others: remove one of these dependencies`,
        });
        continue;
      }
      if (state.get(dep.id) === "done") continue;
      const loaded = await loader.load(dep.id);
      if (loaded) await visit(loaded, [...chain, trailmap.id]);
      else if (!loader.exists(dep.id)) {
        problems.push({
          ...dep.where,
          path: "dependencies",
          message: `${await loader.missing(dep.id)}; create it, or remove the dependency (only the framework's own trailmaps, trailblaze, mobile and android, need no folder)`,
        });
      }
    }
    state.set(trailmap.id, "done");
  };
  for (const root of roots) if (!state.has(root.id)) await visit(root, []);
}

function toTargetPlatform(p: TrailmapPlatform): TargetPlatform {
  return {
    appIds: p.appIds ?? [],
    toolSets: p.toolSets ?? [],
    ...(p.drivers ? { drivers: p.drivers } : {}),
    ...(p.excludedTools ? { excludedTools: p.excludedTools, excludedToolWheres: p.excludedToolWheres! } : {}),
    ...(p.baseUrls ? { baseUrls: p.baseUrls } : {}),
    ...(p.allowedOrigins ? { allowedOrigins: p.allowedOrigins } : {}),
    where: p.where,
  };
}

/** A target trailmap as the runtime's TargetConfig. */
function toTarget(
  trailmap: Trailmap,
  loaded: ReadonlyMap<string, Trailmap>,
  problems: ConfigProblem[],
  shown: (path: string) => string,
): TargetConfig {
  const target = trailmap.target!;
  const walk = dependencyWalk(trailmap, loaded);
  const defaults = inheritedDefaults(walk);
  const declared: TrailmapPlatforms = {};
  for (const [key, own] of Object.entries(target.platforms) as [TrailmapPlatformKey, TrailmapPlatform][])
    declared[key] = overlay(own, defaults[key]);
  const platforms = withLibraryToolSets(declared, walk);
  // `compose` rides on the web platform (the compose driver): it stands in for web when web is absent.
  const compose = platforms.compose;
  delete platforms.compose;
  if (compose && !platforms.web) platforms.web = { ...compose, drivers: compose.drivers ?? ["compose"] };

  const toolsDir = join(trailmap.dir, "tools");
  const tools: ToolRef[] = [];
  const add = (ref: ToolRef): void => {
    if (tools.some((t) => t.name === ref.name)) return;
    const { toolsDir: dir, ...rest } = ref;
    tools.push(dir === undefined || dir === toolsDir ? rest : ref);
  };
  target.tools.forEach(add);
  for (const p of Object.values(platforms)) p?.tools?.forEach(add);
  for (const { trailmap: dep } of walk) dep.exports.forEach(add);

  if (target.systemPromptFile && !existsSync(resolve(trailmap.dir, target.systemPromptFile.path))) {
    problems.push({
      ...target.systemPromptFile.where,
      path: "target.system_prompt_file",
      message: `file ${target.systemPromptFile.path} not found (resolved against ${shown(trailmap.dir)}, the trailmap's folder)`,
    });
  }
  const out: Partial<Record<PlatformKey, TargetPlatform>> = {};
  for (const [key, p] of Object.entries(platforms) as [PlatformKey, TrailmapPlatform][]) out[key] = toTargetPlatform(p);
  const dependencies = [...new Set([trailmap, ...walk.map((w) => w.trailmap)].flatMap((t) => t.dependencies.map((d) => d.id)))];
  return {
    id: target.id ?? trailmap.id,
    displayName: target.displayName,
    mcpServers: target.mcpServers,
    tools,
    toolsDir,
    platforms: out,
    file: trailmap.file,
    where: target.idWhere ?? trailmap.where,
    trailmap: trailmap.id,
    ...(dependencies.length > 0 ? { dependencies } : {}),
    ...(trailmap.validationExempt ? { validationExempt: trailmap.validationExempt } : {}),
  };
}

async function trailmapToolsets(trailmap: Trailmap, cwd: string, problems: ConfigProblem[]): Promise<FoundToolset[]> {
  const found: FoundToolset[] = [];
  const seen = new Set<string>();
  const read = async (path: string, listed: boolean): Promise<void> => {
    if (seen.has(path)) return;
    seen.add(path);
    const shown = displayPath(path, cwd);
    const value = await readConfigFile(path, shown, readToolsetConfig, problems);
    if (value) found.push({ value, path, shown, listed });
  };
  for (const path of await yamlFilesIn(join(trailmap.dir, "toolsets"))) await read(path, true);
  for (const ref of trailmap.toolsets) {
    const path = resolve(trailmap.dir, ref.path);
    if (existsSync(path)) await read(path, false);
    else
      problems.push({
        ...ref.where,
        path: "toolsets",
        message: `toolset file ${ref.path} not found (resolved against ${displayPath(trailmap.dir, cwd)}, the trailmap's folder)`,
      });
  }
  return found;
}

async function anchorToolsets(anchor: WorkspaceAnchor, configDir: string, cwd: string, problems: ConfigProblem[]): Promise<FoundToolset[]> {
  const shownAnchor = displayPath(join(configDir, ANCHOR_FILE), cwd);
  const found: FoundToolset[] = anchor.toolsets.map((value) => ({ value, path: value.file, shown: shownAnchor, listed: false }));
  for (const ref of anchor.toolsetRefs) {
    const path = resolve(configDir, ref.path.replace(/^\/+/, ""));
    const shown = displayPath(path, cwd);
    if (!existsSync(path)) {
      problems.push({
        ...ref.where,
        path: "toolsets",
        message: `toolset file ${ref.path} not found (resolved against ${displayPath(configDir, cwd)}, the folder holding ${ANCHOR_FILE})`,
      });
      continue;
    }
    const value = await readConfigFile(path, shown, readToolsetConfig, problems);
    if (value) found.push({ value, path, shown, listed: false });
  }
  return found;
}

/**
 * Loads the trailmap side of a `trails/config/` folder: trailblaze.yaml, the target trailmaps it
 * lists (every one under trailmaps/ when it lists none) and their dependencies. Problems and
 * warnings are added to the lists given; nothing throws for a config mistake.
 */
export async function loadTrailmapWorkspace(
  configDir: string,
  cwd: string,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): Promise<TrailmapWorkspace> {
  const anchorPath = join(configDir, ANCHOR_FILE);
  let anchor: WorkspaceAnchor | undefined;
  await readConfigFile(
    anchorPath,
    displayPath(anchorPath, cwd),
    (yaml, path) => {
      const read = readAnchor(yaml, path);
      warnings.push(...read.warnings);
      anchor = read.value;
      return { problems: read.problems };
    },
    problems,
  );
  if (!anchor) return { targets: [], toolsets: [] };

  const loader = new TrailmapLoader(join(configDir, "trailmaps"), cwd, problems, warnings);
  const roots: Trailmap[] = [];
  if (anchor.targets) {
    for (const listed of anchor.targets) {
      const trailmap = await loader.load(listed.id);
      if (!trailmap) {
        if (!loader.exists(listed.id)) {
          problems.push({
            ...listed.where,
            path: "targets",
            message: `${await loader.missing(listed.id)}; create it (with a target: block), or remove ${listed.id} from targets:`,
          });
        }
        continue;
      }
      if (!trailmap.target) {
        problems.push({
          ...listed.where,
          path: "targets",
          message: `trailmap ${listed.id} (${loader.shown(trailmap.file)}) has no target: block, so it is a library trailmap; targets: lists target trailmaps only (a library comes in through a target's dependencies:)`,
        });
        continue;
      }
      roots.push(trailmap);
    }
  } else {
    // No targets: listed: every target trailmap under trailmaps/ is one.
    for (const id of await foldersIn(join(configDir, "trailmaps"))) {
      if (!loader.exists(id)) continue;
      const trailmap = await loader.load(id);
      if (trailmap?.target) roots.push(trailmap);
    }
  }
  await loadDependencies(roots, loader, problems);

  const loaded = new Map(loader.all().map((t) => [t.id, t]));
  const targets = roots.map((root) => toTarget(root, loaded, problems, (p) => displayPath(p, cwd)));
  const toolsets = [...(await anchorToolsets(anchor, configDir, cwd, problems))];
  for (const trailmap of loader.all()) toolsets.push(...(await trailmapToolsets(trailmap, cwd, problems)));
  return { targets, toolsets, ...(anchor.defaultTarget ? { defaultTarget: anchor.defaultTarget } : {}) };
}
