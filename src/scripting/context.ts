// The `_trailblazeContext` envelope (docs/writing-tools.md "Tier 2") and `contextOf`, which finds it wherever a
// handler can see it: in its arguments (when the input schema declares the key) or in the
// request's `_meta.trailblaze` (always sent by Trailblaze; what a standard handler reads).

import type { Platform } from "./meta.ts";

/** The reserved argument key Trailblaze injects; never advertised to the LLM. */
export const CONTEXT_KEY = "_trailblazeContext";

export interface TrailblazeDevice {
  platform: Platform;
  widthPixels: number;
  heightPixels: number;
  /** The session's driver yaml key, e.g. `android-ondevice-accessibility`. */
  driverType: string;
  /** The device's serial or simulator UDID, when the runtime sends one (upstream's on-device path). */
  instanceId?: string;
}

/**
 * The session's target as sent (upstream's `_meta.trailblaze.target`): what it declares for the
 * session's platform and what the session resolved. Data only; `fromMeta` and a per-file tool's
 * `ctx.target` add `resolveAppId` / `resolveBaseUrl`.
 */
export interface TrailblazeTargetInfo {
  id: string;
  displayName?: string;
  /** The app ids declared for the session's platform, in file order; may be empty. */
  appIds: string[];
  /** The app id the session resolved: the first of `appIds` installed on the device. */
  appId?: string;
  /** The base URLs declared for the session's platform (web). */
  baseUrls?: string[];
  /** The base URL a web session resolved. */
  resolvedBaseUrl?: string;
}

/** What Trailblaze sends with every call: the session and the call, a snapshot of session memory, the device, the target. */
export interface TrailblazeContext {
  /** The session's id (its logs folder, TRAILBLAZE_SESSION_ID): for log lines, never for security. */
  sessionId: string;
  /** This call's id, new for every call (each nested `trailblaze.execute` call has its own). */
  invocationId: string;
  /** Session memory at the time of the call. Values are `unknown`: check before use. */
  memory: Record<string, unknown>;
  device: TrailblazeDevice;
  target?: TrailblazeTargetInfo;
}

/** A handler's arguments with the optional envelope (tier 2). */
export type WithTrailblazeContext<Args> = Args & { _trailblazeContext?: TrailblazeContext };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asContext(value: unknown): TrailblazeContext | undefined {
  return isRecord(value) && isRecord(value.device) && isRecord(value.memory) ? (value as unknown as TrailblazeContext) : undefined;
}

/**
 * The Trailblaze context of a call, or `undefined` under a plain MCP client.
 *
 * Pass the handler's arguments and its `extra` — `contextOf(args, extra)` — or only `extra` for a
 * tool without an input schema. The arguments' `_trailblazeContext` wins; otherwise the request's
 * `_meta.trailblaze` is used (the SDK strips argument keys a schema does not declare, so a
 * standard handler only ever sees the context there).
 */
export function contextOf(argsOrExtra: unknown, extra?: unknown): TrailblazeContext | undefined {
  const sources = [argsOrExtra, extra];
  for (const source of sources) {
    const found = isRecord(source) ? asContext(source[CONTEXT_KEY]) : undefined;
    if (found) return found;
  }
  for (const source of sources) {
    const found = isRecord(source) && isRecord(source._meta) ? asContext(source._meta.trailblaze) : undefined;
    if (found) return found;
  }
  return undefined;
}
