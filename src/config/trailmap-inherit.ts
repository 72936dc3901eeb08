// What a trailmap target takes from the trailmaps it depends on: the walk through
// `dependencies:` (depth and order), their per-platform `defaults:` filling the fields the
// target leaves out, nearest first, lists replaced rather than joined, and the `tool_sets` of
// library trailmaps' top-level `platforms:`, joined to the target's.

import type { Trailmap, TrailmapPlatform, TrailmapPlatformKey, TrailmapPlatforms } from "./trailmap-file.ts";

interface DependencyStep {
  trailmap: Trailmap;
  /** 1 = a direct dependency. */
  depth: number;
}

/** Trailmaps a target depends on, transitively, with their depth (1 = direct), in encounter order. */
export function dependencyWalk(root: Trailmap, loaded: ReadonlyMap<string, Trailmap>): DependencyStep[] {
  const out: DependencyStep[] = [];
  const walk = (trailmap: Trailmap, depth: number, stack: Set<string>): void => {
    for (const dep of trailmap.dependencies) {
      const next = loaded.get(dep.id);
      if (!next || stack.has(dep.id)) continue; // missing and cyclic edges are reported by loadDependencies
      out.push({ trailmap: next, depth });
      walk(next, depth + 1, new Set([...stack, dep.id]));
    }
  };
  walk(root, 1, new Set([root.id]));
  return out;
}

/** Fields `base` leaves out are taken from `fill`; lists are replaced, never concatenated. */
export function overlay(base: TrailmapPlatform, fill: TrailmapPlatform | undefined): TrailmapPlatform {
  if (!fill) return base;
  const excluded = base.excludedTools ? base : fill.excludedTools ? fill : undefined;
  return {
    ...((base.appIds ?? fill.appIds) ? { appIds: base.appIds ?? fill.appIds! } : {}),
    ...((base.toolSets ?? fill.toolSets) ? { toolSets: base.toolSets ?? fill.toolSets! } : {}),
    ...((base.tools ?? fill.tools) ? { tools: base.tools ?? fill.tools! } : {}),
    ...(excluded ? { excludedTools: excluded.excludedTools!, excludedToolWheres: excluded.excludedToolWheres! } : {}),
    ...((base.drivers ?? fill.drivers) ? { drivers: base.drivers ?? fill.drivers! } : {}),
    ...((base.baseUrls ?? fill.baseUrls) ? { baseUrls: base.baseUrls ?? fill.baseUrls! } : {}),
    ...((base.allowedOrigins ?? fill.allowedOrigins) ? { allowedOrigins: base.allowedOrigins ?? fill.allowedOrigins! } : {}),
    where: base.where,
  };
}

/**
 * The dependencies' `defaults:` for each platform, the nearest dependency winning field by field
 * (at the same depth, the one declared later).
 */
export function inheritedDefaults(walk: DependencyStep[]): TrailmapPlatforms {
  const ordered = walk.map((w, order) => ({ ...w, order })).sort((a, b) => a.depth - b.depth || b.order - a.order);
  const merged: TrailmapPlatforms = {};
  for (const { trailmap } of ordered) {
    for (const [key, fill] of Object.entries(trailmap.defaults) as [TrailmapPlatformKey, TrailmapPlatform][]) {
      merged[key] = merged[key] ? overlay(merged[key]!, fill) : fill;
    }
  }
  return merged;
}

/**
 * `platforms` with the toolsets of each dependency's top-level `platforms:` added to the same
 * platform (declared platforms only), after the target's own, each once, in walk order.
 */
export function withLibraryToolSets(platforms: TrailmapPlatforms, walk: DependencyStep[]): TrailmapPlatforms {
  const out: TrailmapPlatforms = { ...platforms };
  for (const { trailmap } of walk) {
    for (const [key, library] of Object.entries(trailmap.platforms) as [TrailmapPlatformKey, TrailmapPlatform][]) {
      const own = out[key];
      if (!own || !library.toolSets?.length) continue;
      const toolSets = [...(own.toolSets ?? [])];
      for (const id of library.toolSets) if (!toolSets.includes(id)) toolSets.push(id);
      out[key] = { ...own, toolSets };
    }
  }
  return out;
}
