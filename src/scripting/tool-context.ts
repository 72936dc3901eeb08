// What a per-file tool's handler sees of its call: the device, the target, memory and
// `ctx.tools` (ToolContext), and what a test or the runtime passes in (TrailblazeCallContext).

import type { TrailblazeToolMethods } from "./client.ts";
import type { TrailblazeLogger } from "./logger.ts";
import type { TrailblazeMemory } from "./memory.ts";

export type DevicePlatform = "android" | "ios" | "web";

/** The device a call runs on. */
export interface ToolDevice {
  platform: DevicePlatform;
  widthPixels: number;
  heightPixels: number;
  /** The session's driver yaml key, e.g. `android-ondevice-accessibility`. */
  driverType: string;
  /**
   * Upstream's old name for `driverType`, sent by its early on-device runtime; ours never sends it.
   * A context that has only this (a test modelling such an envelope) has its `driverType` read from it.
   */
  driver?: string;
  /**
   * The device's serial or simulator UDID, when the runtime sends one (upstream's on-device
   * path does; ours does not: the device is simulated).
   */
  instanceId?: string;
}

/**
 * The app under test, from the session's target. Absent when the session has none, or when the
 * envelope's target block is malformed: write `ctx.target?.resolveAppId(…)`.
 */
export interface ToolTarget {
  id: string;
  /** The target's `display_name`. */
  displayName?: string;
  /** The app ids the target declares for the session's platform, in file order; may be empty. */
  appIds: string[];
  /** The app id the session resolved (the first of `appIds` installed on the device); absent when none is. */
  appId?: string;
  /** The base URLs the target declares for the session's platform (web). */
  baseUrls?: string[];
  /** The base URL a web session resolved. */
  resolvedBaseUrl?: string;
  /**
   * `appId`, else the first of `appIds`, else `defaultAppId` (trimmed); undefined when all are
   * empty. A closure: `const { resolveAppId } = ctx.target` works.
   */
  resolveAppId(options?: { defaultAppId?: string }): string | undefined;
  /** `resolvedBaseUrl`, else the first of `baseUrls`, else `defaultBaseUrl` (trimmed); undefined when all are empty. */
  resolveBaseUrl(options?: { defaultBaseUrl?: string }): string | undefined;
}

/** Upstream's name for ToolTarget (`import type { TrailblazeTarget } from "@trailblaze/scripting"`). */
export type TrailblazeTarget = ToolTarget;

/** The second argument of a `trailblaze.tool` handler. */
export interface ToolContext {
  /** Every tool of the session, `await ctx.tools.inputText({ text })`: the structured result, else the text. */
  tools: TrailblazeToolMethods;
  /** Session memory; writes are applied when the tool succeeds. */
  memory: TrailblazeMemory;
  device?: ToolDevice;
  target?: ToolTarget;
}

/**
 * The call context (upstream's `TrailblazeContext`): what `fromMeta(extra._meta)` reads, what a
 * `trailblaze.tool(name, spec, handler)` handler and a plain-function per-file tool get, and what
 * a test passes as the second argument of a tool (testing.ts `createMockContext`).
 */
export interface TrailblazeCallContext {
  /** Upstream's daemon URL for its HTTP callbacks; Trailblaze sends none (`ctx.tools` goes over MCP), a test may set one. */
  baseUrl?: string;
  /** `"ondevice"` where upstream's on-device runtime says so; Trailblaze sends none, a test may set it. */
  runtime?: "ondevice";
  /** The session's id (its logs folder, TRAILBLAZE_SESSION_ID): for log lines, never for security. */
  sessionId: string;
  /** This call's id, new for every call (each nested call has its own); the `invocationId` of its line in calls.jsonl. */
  invocationId: string;
  device: ToolDevice;
  target?: ToolTarget;
  memory: TrailblazeMemory | Record<string, unknown>;
  /** Lines about the tool's work: to stderr and the session's server log in a session, nowhere in a test (logger.ts). */
  logger: TrailblazeLogger;
}
