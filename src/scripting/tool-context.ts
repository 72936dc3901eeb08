// What a per-file tool's handler sees of its call: the device, the target, memory and
// `ctx.tools` (ToolContext), and what a test or the runtime passes in (TrailblazeCallContext).

import type { TrailblazeToolMethods } from "./client.ts";
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

/** What a test (or the runtime) passes as the second argument of a tool: see testing.ts `createMockContext`. */
export interface TrailblazeCallContext {
  /** Set by tests (`createMockContext`); the runtime does not send one. */
  sessionId?: string;
  /** The MCP request id of the call. */
  invocationId: string;
  device: ToolDevice;
  target?: ToolTarget;
  memory: TrailblazeMemory | Record<string, unknown>;
}
