// Registration filters, applied in this order:
// supportedDrivers → supportedPlatforms → requiresHost × agent mode, then the target's own
// opt-outs for the session's platform (`excluded_tools`).

import type { Platform } from "../core/drivers.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { META_KEYS, type TrailblazeToolMeta } from "./tool-meta.ts";

/** What the filters need to know about a session. */
export interface SessionFacts {
  driver: string;
  platform: Platform;
  agent: AgentMode;
  /**
   * Tools the target excludes on this platform (`platforms.<p>.excluded_tools`), by name → why,
   * worded for messages (e.g. `target shop lists it in platforms.ios.excluded_tools (file:7:9)`).
   */
  excluded?: ReadonlyMap<string, string>;
}

/** `SkippedTool.reason` of a tool the target's `excluded_tools` kept out (not a `_meta` key). */
export const EXCLUDED_TOOLS_REASON = "excluded_tools";

type FilterDecision =
  | { included: true }
  | { included: false /** the `_meta` key (or EXCLUDED_TOOLS_REASON) that excluded the tool */; key: string; reason: string };

/** Whether the tool `name` with `_meta` `meta` registers in the session, or what keeps it out. */
export function applyFilters(meta: TrailblazeToolMeta, session: SessionFacts, name?: string): FilterDecision {
  const drivers = meta.supportedDrivers;
  if (drivers && drivers.length > 0 && !drivers.includes(session.driver)) {
    return {
      included: false,
      key: META_KEYS.supportedDrivers,
      reason: `supports drivers [${drivers.join(", ")}], session driver is ${session.driver}`,
    };
  }
  const platforms = meta.supportedPlatforms;
  if (platforms && platforms.length > 0 && !platforms.includes(session.platform)) {
    return {
      included: false,
      key: META_KEYS.supportedPlatforms,
      reason: `supports platforms [${platforms.map((p) => p.toLowerCase()).join(", ")}], session platform is ${session.platform.toLowerCase()}`,
    };
  }
  if (meta.requiresHost && session.agent === "on-device") {
    return { included: false, key: META_KEYS.requiresHost, reason: "host-only tool, session agent is on-device" };
  }
  const excluded = name === undefined ? undefined : session.excluded?.get(name);
  if (excluded !== undefined) return { included: false, key: EXCLUDED_TOOLS_REASON, reason: excluded };
  return { included: true };
}
