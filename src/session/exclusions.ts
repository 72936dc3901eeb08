// A target's `excluded_tools` for a session's platform: the entries, and how each is named in
// the skipped list, in "not registered" messages and in the warning for an entry that excludes nothing.

import type { PlatformKey, Where } from "../config/workspace.ts";
import type { SessionSpec } from "./session-spec.ts";

/** One `excluded_tools` entry of the target for the session's platform. */
export interface Exclusion {
  name: string;
  platform: PlatformKey;
  where: Where;
}

export function exclusionsOf(spec: SessionSpec): Exclusion[] {
  const platform = spec.driver.platform.toLowerCase() as PlatformKey;
  const section = spec.target.platforms[platform];
  return (section?.excludedTools ?? []).map((name, i) => ({
    name,
    platform,
    where: section?.excludedToolWheres?.[i] ?? section?.where ?? spec.target.where,
  }));
}

/**
 * `target shop excludes it on ios (excluded_tools entry at trails/…/trailmap.yaml:12:11)`;
 * `tool` replaces `it` where the sentence is not about one tool already.
 */
export function describeExclusion(target: string, e: Exclusion, tool = "it"): string {
  return `target ${target} excludes ${tool} on ${e.platform} (excluded_tools entry at ${e.where.file}:${e.where.line}:${e.where.col})`;
}
