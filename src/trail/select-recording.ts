// Which recording of a step (and which skip reason of a trail) applies to a
// session: its device key, else its platform, else `all`, else `tools`.

import { DEFAULT_DRIVER, type Platform } from "../core/drivers.ts";
import type { RecordedCall, Trail, TrailStep } from "./trail-types.ts";

export interface SessionClassifiers {
  /** The session's device key (a key of `config.devices`), when it has one. */
  deviceKey?: string;
  platform: Platform;
  /** The session's driver key: `compose` (upstream's Compose desktop) also replays `desktop:` recordings. */
  driver?: string;
}

/**
 * The driver a session runs on for each platform's recording key: the platform's default driver,
 * and for `desktop:` (upstream's DESKTOP platform) the Compose desktop driver.
 */
export const CLASSIFIER_DRIVERS: Readonly<Record<"android" | "ios" | "web" | "desktop", string>> = {
  android: DEFAULT_DRIVER.ANDROID,
  ios: DEFAULT_DRIVER.IOS,
  web: DEFAULT_DRIVER.WEB,
  desktop: "compose",
};

/** The driver of a platform's recording key (`android`, `ios`, `web`, `desktop`, as written lower-case), else undefined. */
export function driverOfClassifier(key: string): string | undefined {
  return Object.hasOwn(CLASSIFIER_DRIVERS, key) ? CLASSIFIER_DRIVERS[key as keyof typeof CLASSIFIER_DRIVERS] : undefined;
}

/** Classifiers tried in order, most specific first. */
export function classifierChain(session: SessionClassifiers): string[] {
  const desktop = session.driver === CLASSIFIER_DRIVERS.desktop ? "desktop" : undefined;
  const chain = [session.deviceKey, desktop, session.platform.toLowerCase(), "all", "tools"].filter((k): k is string => !!k);
  return [...new Set(chain)];
}

/**
 * The calls to replay for `step` in this session, or undefined when the step has
 * no recording for it (it then needs an agent). An empty list is a recorded no-op.
 */
export function selectRecording(step: TrailStep, session: SessionClassifiers): RecordedCall[] | undefined {
  const keys = Object.keys(step.recordings);
  for (const key of classifierChain(session)) {
    // Exact key first, then any case (`Android:` / `IOS:` as written by hand).
    const match = step.recordings[key] !== undefined ? key : keys.find((k) => k.toLowerCase() === key.toLowerCase());
    if (match !== undefined) return step.recordings[match];
  }
  return undefined;
}

/** The reason this trail is skipped in this session, or undefined when it runs. */
export function skipReason(trail: Trail, session: SessionClassifiers): string | undefined {
  if (trail.skip === true) return "skip: true";
  if (typeof trail.skip === "string" && trail.skip.trim() !== "") return trail.skip;
  if (trail.skipByDevice) {
    for (const key of classifierChain(session)) {
      const reason = trail.skipByDevice[key];
      if (reason !== undefined) return reason.trim() !== "" ? reason : undefined;
    }
  }
  return undefined;
}
