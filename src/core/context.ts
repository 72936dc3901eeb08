// The `_trailblazeContext` envelope sent with every tool call (conventions §2),
// built from the session the same way for every transport.

import type { Platform } from "./drivers.ts";

export interface DeviceInfo {
  platform: Platform;
  widthPixels: number;
  heightPixels: number;
  driverType: string;
}

/** The session's target: its id and the app ids of the session's platform. */
export interface TargetInfo {
  id: string;
  displayName?: string;
  appIds: string[];
}

export interface TrailblazeContext {
  memory: Record<string, unknown>;
  device: DeviceInfo;
  target?: TargetInfo;
}

/** The reserved argument key; never part of a schema shown to users or LLMs. */
export const CONTEXT_KEY = "_trailblazeContext";

export function buildContext(device: DeviceInfo, memory: Record<string, unknown>, target?: TargetInfo): TrailblazeContext {
  return { memory, device: { ...device }, ...(target ? { target: { ...target, appIds: [...target.appIds] } } : {}) };
}
