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
}

/** The app under test, from the session's target. */
export interface ToolTarget {
  id: string;
  displayName?: string;
  /** The app ids of the session's platform. */
  appIds: string[];
  /** The app id the session resolved (`--target`, the target's first app id). */
  appId?: string;
  /** `appId`, else the first of `appIds`, else `defaultAppId`. */
  resolveAppId(options?: { defaultAppId?: string }): string | undefined;
}

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
