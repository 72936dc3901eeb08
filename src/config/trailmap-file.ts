// Trailmap YAML (upstream's `trails/config/trailmaps/<id>/trailmap.yaml`): schema, cross-field
// rules and the Trailmap model the workspace resolves targets from (trailmap-targets.ts).

import { dirname, join } from "node:path";
import * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import type { Platform } from "../core/drivers.ts";
import { findDriver } from "../core/drivers.ts";
import { unknownNameMessage } from "../core/did-you-mean.ts";
import { isPlainMap, valueAt } from "../core/describe.ts";
import {
  allowedOriginKeys,
  allowedOriginProblems,
  platformDriverProblems,
  serverEntryProblems,
  serverSchema,
  toServerEntry,
} from "./target-config.ts";
import type { PlatformKey, ServerEntry, ToolRef } from "./target-config.ts";
import { validateWith } from "./validate.ts";
import type { Validated } from "./validate.ts";
import { locate, problemAt } from "../core/yaml-file.ts";
import type { FieldPath, Where, YamlFile } from "../core/yaml-file.ts";

export const TRAILMAP_FILE = "trailmap.yaml";

/** Platform section keys of a trailmap: ours, and upstream's `compose` (a web driver). */
export type TrailmapPlatformKey = PlatformKey | "compose";
const TRAILMAP_PLATFORMS: Readonly<Record<TrailmapPlatformKey, Platform>> = { android: "ANDROID", ios: "IOS", web: "WEB", compose: "WEB" };

/** One platform section as written: a field left out stays undefined (a dependency's `defaults:` may fill it). */
export interface TrailmapPlatform {
  appIds?: string[];
  toolSets?: string[];
  /** `tools:` under the platform: per-file tools, hoisted into the target's `tools`. */
  tools?: ToolRef[];
  excludedTools?: string[];
  excludedToolWheres?: Where[];
  /** Driver yaml keys. */
  drivers?: string[];
  /** `base_url:`, as one list entry (the envelope's `baseUrls`). */
  baseUrls?: string[];
  /** `allowed_origins:`, as checked place keys (TargetPlatform.allowedOrigins). */
  allowedOrigins?: string[];
  where: Where;
}

export type TrailmapPlatforms = Partial<Record<TrailmapPlatformKey, TrailmapPlatform>>;

interface TrailmapTarget {
  /** `target.id`; the trailmap id when unset. */
  id?: string;
  idWhere?: Where;
  displayName: string;
  tools: ToolRef[];
  platforms: TrailmapPlatforms;
  mcpServers: ServerEntry[];
  systemPromptFile?: { path: string; where: Where };
}

export interface Trailmap {
  id: string;
  /** Absolute path of trailmap.yaml. */
  file: string;
  /** Absolute folder of the trailmap; its tools live in `tools/`, its toolsets in `toolsets/`. */
  dir: string;
  /** Where `id:` is written. */
  where: Where;
  dependencies: { id: string; where: Where }[];
  /** Absent: a library trailmap (tools, toolsets and defaults for the trailmaps that depend on it). */
  target?: TrailmapTarget;
  /** Per-platform field values the trailmaps depending on this one inherit. */
  defaults: TrailmapPlatforms;
  /**
   * A library trailmap's top-level `platforms:`: its `tool_sets` are registered, on that platform,
   * in every target depending on it (joined to the target's own, unlike `defaults:`).
   */
  platforms: TrailmapPlatforms;
  /** Tool names this trailmap publishes to the trailmaps depending on it. */
  exports: ToolRef[];
  /** `toolsets:` — toolset files relative to the trailmap folder. */
  toolsets: { path: string; where: Where }[];
  /** `trail_validation.exempt`: why `check`'s findings on its trails' recorded calls do not fail it. */
  validationExempt?: string;
}

const names = z.array(z.string().min(1)).nullable().optional();
const toolNames = z
  .array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "a tool name (letters, digits, _ and -, at most 64)"))
  .nullable()
  .optional();

const platformSchema = z
  .strictObject({
    app_ids: names,
    tool_sets: names,
    tools: toolNames,
    excluded_tools: names,
    drivers: names,
    base_url: z.string().optional(),
    allowed_origins: names,
    // Accepted as upstream writes them; nothing here uses them.
    min_build_version: z.union([z.string(), z.number()]).optional(),
    icon: z.string().optional(),
  })
  .nullable();
const platformsSchema = z.record(z.string(), platformSchema).nullable().optional();

const trailmapSchema = z.strictObject({
  id: z.string().min(1),
  target: z
    .strictObject({
      id: z.string().min(1).optional(),
      display_name: z.string().min(1),
      platforms: platformsSchema,
      tools: toolNames,
      // Ours: upstream dropped mcp_servers from trailmaps (and ignores it with a warning).
      mcp_servers: z.array(serverSchema).nullable().optional(),
      system_prompt_file: z.string().min(1).optional(),
      has_custom_ios_driver: z.boolean().optional(),
      icon: z.string().optional(),
      electron: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  dependencies: names,
  defaults: platformsSchema,
  platforms: platformsSchema,
  exports: toolNames,
  toolsets: names,
  waypoints: names,
  trails: names,
  trail_validation: z.strictObject({ exempt: z.string().nullable().optional() }).nullable().optional(),
});

const SECTIONS: readonly FieldPath[] = [["target", "platforms"], ["defaults"], ["platforms"]];

function platformProblems(yaml: YamlFile, base: FieldPath): ConfigProblem[] {
  const sections = valueAt(yaml.data, base);
  if (!isPlainMap(sections)) return [];
  const problems: ConfigProblem[] = [];
  for (const name of Object.keys(sections)) {
    const platform = TRAILMAP_PLATFORMS[name as TrailmapPlatformKey];
    if (!platform) {
      problems.push(problemAt(yaml, [...base, name], "key", unknownNameMessage("platform", name, Object.keys(TRAILMAP_PLATFORMS)), base));
      continue;
    }
    problems.push(...platformDriverProblems(yaml, [...base, name], platform), ...allowedOriginProblems(yaml, [...base, name]));
  }
  return problems;
}

/** A name written twice in one list is a mistake: both would be the same tool. */
function repeatedNames(yaml: YamlFile, base: FieldPath, what: string): ConfigProblem[] {
  const list = valueAt(yaml.data, base);
  if (!Array.isArray(list)) return [];
  const seen = new Set<unknown>();
  return list.flatMap((name, i) => {
    if (!seen.has(name)) {
      seen.add(name);
      return [];
    }
    return [problemAt(yaml, [...base, i], "value", `${what} ${String(name)} is listed twice; remove one`)];
  });
}

function crossFieldProblems(yaml: YamlFile): ConfigProblem[] {
  const problems = [...serverEntryProblems(yaml, ["target", "mcp_servers"]), ...SECTIONS.flatMap((s) => platformProblems(yaml, s))];
  const data = isPlainMap(yaml.data) ? yaml.data : {};
  if (data.target !== undefined && data.platforms !== undefined) {
    problems.push(
      problemAt(
        yaml,
        ["platforms"],
        "key",
        "a top-level platforms: map is for library trailmaps (no target:); a target trailmap writes its platforms under target.platforms",
      ),
    );
  }
  if (data.target === undefined && Array.isArray(data.waypoints) && data.waypoints.length > 0) {
    problems.push(
      problemAt(
        yaml,
        ["waypoints"],
        "key",
        "a library trailmap (no target:) has no screens, so no waypoints; move them to a target trailmap",
      ),
    );
  }
  problems.push(
    ...repeatedNames(yaml, ["target", "tools"], "tool"),
    ...repeatedNames(yaml, ["exports"], "tool"),
    ...repeatedNames(yaml, ["dependencies"], "dependency"),
  );
  const platforms = valueAt(yaml.data, ["target", "platforms"]);
  if (isPlainMap(platforms)) {
    for (const key of Object.keys(platforms)) {
      problems.push(
        ...repeatedNames(yaml, ["target", "platforms", key, "tools"], "tool"),
        ...repeatedNames(yaml, ["target", "platforms", key, "excluded_tools"], "tool"),
      );
    }
  }
  return problems;
}

type RawPlatforms = z.output<typeof platformsSchema>;

function toPlatforms(raw: RawPlatforms, yaml: YamlFile, base: FieldPath, toolsDir: string): TrailmapPlatforms {
  const out: TrailmapPlatforms = {};
  for (const [name, body] of Object.entries(raw ?? {})) {
    const at = [...base, name];
    const tools = body?.tools?.map((tool, i) => ({ name: tool, where: locate(yaml, [...at, "tools", i]), toolsDir }));
    const excluded = body?.excluded_tools ?? undefined;
    out[name as TrailmapPlatformKey] = {
      ...(body?.app_ids ? { appIds: body.app_ids } : {}),
      ...(body?.tool_sets ? { toolSets: body.tool_sets } : {}),
      ...(tools ? { tools } : {}),
      ...(excluded
        ? { excludedTools: excluded, excludedToolWheres: excluded.map((_, i) => locate(yaml, [...at, "excluded_tools", i])) }
        : {}),
      ...(body?.drivers ? { drivers: [...new Set(body.drivers.map((d) => findDriver(d)!.key))] } : {}),
      ...(body?.base_url ? { baseUrls: [body.base_url] } : {}),
      ...(body?.allowed_origins ? { allowedOrigins: allowedOriginKeys(body.allowed_origins) } : {}),
      where: locate(yaml, at),
    };
  }
  return out;
}

/**
 * Validates a parsed trailmap file; never throws. `path` is the absolute file path (the
 * trailmap's folder is its parent); messages use `yaml.file`.
 */
export function readTrailmap(yaml: YamlFile, path: string): Validated<Trailmap> {
  const checked = validateWith(trailmapSchema, yaml);
  const problems = [...checked.problems, ...crossFieldProblems(yaml)];
  if (problems.length > 0 || !checked.value) return { problems };
  const raw = checked.value;
  const dir = dirname(path);
  const toolsDir = join(dir, "tools");
  const refs = (list: string[] | null | undefined, at: FieldPath): ToolRef[] =>
    (list ?? []).map((name, i) => ({ name, where: locate(yaml, [...at, i]), toolsDir }));
  const t = raw.target;
  const target: TrailmapTarget | undefined = t && {
    ...(t.id !== undefined ? { id: t.id, idWhere: locate(yaml, ["target", "id"]) } : {}),
    displayName: t.display_name,
    tools: refs(t.tools, ["target", "tools"]),
    platforms: toPlatforms(t.platforms, yaml, ["target", "platforms"], toolsDir),
    mcpServers: (t.mcp_servers ?? []).map((s, i) => toServerEntry(s, i, locate(yaml, ["target", "mcp_servers", i]))),
    ...(t.system_prompt_file !== undefined
      ? { systemPromptFile: { path: t.system_prompt_file, where: locate(yaml, ["target", "system_prompt_file"]) } }
      : {}),
  };
  const value: Trailmap = {
    id: raw.id,
    file: path,
    dir,
    where: locate(yaml, ["id"]),
    dependencies: (raw.dependencies ?? []).map((id, i) => ({ id, where: locate(yaml, ["dependencies", i]) })),
    ...(target ? { target } : {}),
    defaults: toPlatforms(raw.defaults, yaml, ["defaults"], toolsDir),
    platforms: toPlatforms(raw.platforms, yaml, ["platforms"], toolsDir),
    exports: refs(raw.exports, ["exports"]),
    toolsets: (raw.toolsets ?? []).map((p, i) => ({ path: p, where: locate(yaml, ["toolsets", i]) })),
    ...(raw.trail_validation?.exempt ? { validationExempt: raw.trail_validation.exempt } : {}),
  };
  return { value, problems: [] };
}
