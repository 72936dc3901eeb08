// The `_trailblazeContext` envelope sent with every tool call (docs/writing-tools.md "Tier 2"),
// built from the session the same way for every transport. Like upstream's `_meta.trailblaze`
// (TrailblazeContextEnvelope.buildMetaTrailblaze) it names the session and the call
// (`sessionId`, a fresh `invocationId` per call, nested calls included), and its `target` block
// has the fields of upstream's TargetSnapshot.

import type { Platform } from "./drivers.ts";

interface DeviceInfo {
  platform: Platform;
  widthPixels: number;
  heightPixels: number;
  driverType: string;
}

/**
 * The session's target as tools see it: what it declares for the session's platform, and what
 * the session resolved from that. Optional fields are left out when unset, as upstream does.
 */
export interface TargetInfo {
  id: string;
  /** The target's `display_name`. */
  displayName?: string;
  /** The app ids declared for the session's platform (`platforms.<platform>.app_ids`), in file order; may be empty. */
  appIds: string[];
  /** The app id the session resolved: the first of `appIds` installed on the device. */
  appId?: string;
  /** The base URLs declared for the session's platform (web). */
  baseUrls?: string[];
  /** The base URL a web session resolved: the first of `baseUrls`. */
  resolvedBaseUrl?: string;
}

/** What a target declares for the session's platform, before the session resolves anything. */
interface DeclaredTarget {
  id: string;
  displayName?: string;
  appIds: readonly string[];
  baseUrls?: readonly string[];
}

interface ResolveTargetOptions {
  /** The session's platform: only a web session resolves a base URL. */
  platform: Platform;
  /**
   * The apps installed on the device. Default: every declared app id (the simulated device has
   * the target's apps installed), so `appId` is the first of `appIds`.
   */
  installedAppIds?: readonly string[];
}

/**
 * The target block of the envelope: upstream resolves `appId` by intersecting the declared app
 * ids with the apps installed on the device, in declared order, and leaves it out when none is
 * installed; `resolvedBaseUrl` is the first declared base URL, on web only.
 */
export function resolveTargetInfo(declared: DeclaredTarget, options: ResolveTargetOptions): TargetInfo {
  const installed = options.installedAppIds ? new Set(options.installedAppIds) : undefined;
  const appId = declared.appIds.find((id) => id !== "" && (!installed || installed.has(id)));
  const baseUrls = declared.baseUrls?.filter((url) => url !== "");
  const resolvedBaseUrl = options.platform === "WEB" ? baseUrls?.[0] : undefined;
  return {
    id: declared.id,
    ...(declared.displayName !== undefined ? { displayName: declared.displayName } : {}),
    appIds: [...declared.appIds],
    ...(appId !== undefined ? { appId } : {}),
    ...(baseUrls && baseUrls.length > 0 ? { baseUrls } : {}),
    ...(resolvedBaseUrl !== undefined ? { resolvedBaseUrl } : {}),
  };
}

export interface TrailblazeContext {
  /** The session's id: its logs folder's name and TRAILBLAZE_SESSION_ID. */
  sessionId: string;
  /** This call's own id, new for every call (a tool's nested calls each get theirs). */
  invocationId: string;
  memory: Record<string, unknown>;
  device: DeviceInfo;
  target?: TargetInfo;
}

/** The reserved argument key; never part of a schema shown to users or LLMs. */
export const CONTEXT_KEY = "_trailblazeContext";

/** Which session and which call an envelope is for. */
interface CallIds {
  sessionId: string;
  invocationId: string;
}

export function buildContext(ids: CallIds, device: DeviceInfo, memory: Record<string, unknown>, target?: TargetInfo): TrailblazeContext {
  return {
    sessionId: ids.sessionId,
    invocationId: ids.invocationId,
    memory,
    device: { ...device },
    ...(target
      ? { target: { ...target, appIds: [...target.appIds], ...(target.baseUrls ? { baseUrls: [...target.baseUrls] } : {}) } }
      : {}),
  };
}
