// Reads a tool's `_meta["trailblaze/*"]` keys (docs/writing-tools.md "`_meta` keys"). A value of the
// wrong type is reported as a warning and replaced by the permissive default.

import { findDriver, parsePlatform, type Platform } from "../core/drivers.ts";
import { TRAILBLAZE_META_KEYS } from "../scripting/meta.ts";

export interface TrailblazeToolMeta {
  /** Surfaced to the LLM tool-selection prompt. Default true. */
  isForLlm: boolean;
  /** Invocations appear in trail recordings. Default true. */
  isRecordable: boolean;
  /** Registers only in host-agent sessions. Default false. */
  requiresHost: boolean;
  /** Driver yaml keys; undefined or empty = every driver. */
  supportedDrivers?: string[];
  /** Platforms; undefined or empty = every platform. */
  supportedPlatforms?: Platform[];
  /** Toolset this tool is pushed into. */
  toolset?: string;
  /** UX hint only; never a filter. Default false. */
  requiresContext: boolean;
  /** Top-level arguments that may carry a secret the agent fills in; undefined: none. */
  sensitiveArgs?: string[];
}

/** The keys by short name: the author package's own table (one definition for authors and the runtime). */
export const META_KEYS = TRAILBLAZE_META_KEYS;

const KNOWN_KEYS = new Set<string>(Object.values(META_KEYS));

interface MetaReading {
  meta: TrailblazeToolMeta;
  /** One line per ignored or suspicious value, without the tool/source prefix. */
  warnings: string[];
}

function describe(value: unknown): string {
  return `${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`} (${JSON.stringify(value)})`;
}

export function readToolMeta(raw: unknown): MetaReading {
  const warnings: string[] = [];
  const meta: TrailblazeToolMeta = { isForLlm: true, isRecordable: true, requiresHost: false, requiresContext: false };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { meta, warnings };
  const source = raw as Record<string, unknown>;

  const flag = (field: "isForLlm" | "isRecordable" | "requiresHost" | "requiresContext"): void => {
    const key = META_KEYS[field];
    if (!(key in source) || source[key] === undefined) return;
    const value = source[key];
    if (typeof value === "boolean") meta[field] = value;
    else warnings.push(`_meta["${key}"] should be a boolean, got ${describe(value)}; using ${meta[field]}`);
  };
  flag("isForLlm");
  // Upstream renamed isForLlm to surfaceToLlm: a tool of either era says the same thing.
  if (source[META_KEYS.surfaceToLlm] !== undefined) {
    const value = source[META_KEYS.surfaceToLlm];
    if (typeof value === "boolean") meta.isForLlm = value;
    else warnings.push(`_meta["${META_KEYS.surfaceToLlm}"] should be a boolean, got ${describe(value)}; using ${meta.isForLlm}`);
  }
  flag("isRecordable");
  flag("requiresHost");
  flag("requiresContext");

  const list = (key: string, otherwise = "treating it as unrestricted"): string[] | undefined => {
    const value = source[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
    warnings.push(`_meta["${key}"] should be an array of strings, got ${describe(value)}; ${otherwise}`);
    return undefined;
  };

  const drivers = list(META_KEYS.supportedDrivers);
  if (drivers) {
    meta.supportedDrivers = drivers.map((name) => {
      const found = findDriver(name);
      if (!found) warnings.push(`_meta["${META_KEYS.supportedDrivers}"] names unknown driver "${name}"`);
      return found?.key ?? name;
    });
  }
  const platforms = list(META_KEYS.supportedPlatforms);
  if (platforms) {
    meta.supportedPlatforms = [];
    for (const name of platforms) {
      const platform = parsePlatform(name);
      if (platform) meta.supportedPlatforms.push(platform);
      else
        warnings.push(
          `_meta["${META_KEYS.supportedPlatforms}"] names unknown platform "${name}" (expected android, ios or web, in any case)`,
        );
    }
  }

  const sensitive = list(META_KEYS.sensitiveArgs, "no argument may carry a secret");
  if (sensitive) meta.sensitiveArgs = sensitive;

  const toolset = source[META_KEYS.toolset];
  if (typeof toolset === "string" && toolset !== "") meta.toolset = toolset;
  else if (toolset !== undefined) {
    warnings.push(`_meta["${META_KEYS.toolset}"] should be a toolset id string, got ${describe(toolset)}; ignoring it`);
  }

  for (const key of Object.keys(source)) {
    if (key.startsWith("trailblaze/") && !KNOWN_KEYS.has(key)) {
      warnings.push(`_meta["${key}"] is not a known trailblaze key (known: ${[...KNOWN_KEYS].join(", ")})`);
    }
  }
  return { meta, warnings };
}
