// Registration filters, applied in the order the scope record fixes:
// supportedDrivers → supportedPlatforms → requiresHost × agent mode.

import type { Platform } from "../core/drivers.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { META_KEYS, type TrailblazeToolMeta } from "./tool-meta.ts";

/** What the filters need to know about a session. */
export interface SessionFacts {
  driver: string;
  platform: Platform;
  agent: AgentMode;
}

export type FilterDecision =
  | { included: true }
  | { included: false; /** the `_meta` key that excluded the tool */ key: string; reason: string };

export function applyFilters(meta: TrailblazeToolMeta, session: SessionFacts): FilterDecision {
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
  return { included: true };
}
