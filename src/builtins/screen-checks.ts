// The one place a framework tool meets the screen. Every tool that has to look at the
// screen (assertions, taps on an element, reading text, waiting for a change) calls
// `screenCheck`: with a screen loaded on the simulated device it runs its check against
// it; without one the step is *unverified* (neither passed nor failed) — the action, if
// any, is still recorded. `DeviceScreen` is what a screen engine plugs in.

import { exceptionThrown, success, type Success, type ToolResult } from "../core/tool-result.ts";
import type { DeviceScreen, ScreenNode, SelectorMatch } from "./device-screen.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

export type { DeviceScreen, MatchKind, ScreenNode, Selector, SelectorMatch } from "./device-screen.ts";

/** Why a screen check is unverified on a device without a screen. */
export const NO_SCREEN = "no screen loaded";

/** A call that did not fail but could not check anything: the step is `unverified` with `reason`. */
export function unverified(reason: string, detail: string, extra: Partial<Omit<Success, "variant" | "message" | "unverified">> = {}): Success {
  return success(`unverified: ${reason} (${detail})`, { ...extra, unverified: reason });
}

export interface ScreenCheck {
  /** What the tool would check or find, for messages: `that "Log in" is visible`. */
  wouldCheck: string;
  /** An action on an element: recorded on the device whether or not a screen is loaded. */
  action?: { name: string; details: Record<string, unknown>; summary: string };
  /** The answer with a screen loaded. */
  check(screen: DeviceScreen): ToolResult | Promise<ToolResult>;
  /** For tools that do not need the screen to act (a tap at a point): the answer without one. */
  withoutScreen?(): ToolResult | Promise<ToolResult>;
}

/** Runs a screen-dependent tool: the one place "no screen → unverified" is decided. */
export function screenCheck(device: SimulatedDevice, use: ScreenCheck): ToolResult | Promise<ToolResult> {
  const screen = device.screen;
  if (screen) return use.check(screen);
  if (use.withoutScreen) return use.withoutScreen();
  if (!use.action) return unverified(NO_SCREEN, `would check ${use.wouldCheck}`);
  const entry = device.note(use.action.name, use.action.details);
  return unverified(NO_SCREEN, `${use.action.summary} recorded; would check ${use.wouldCheck}`, { structuredContent: { simulatedDevice: entry } });
}

/**
 * The one node a lookup must find (the `index`-th of several when given), or the failure
 * saying what was found instead.
 */
export function oneNode(tool: string, match: SelectorMatch, what: string, index?: number): ScreenNode | ToolResult {
  if (index !== undefined && match.nodes.length > index) return match.nodes[index]!;
  if (match.kind === "singleMatch" && match.nodes[0]) return match.nodes[0];
  if (match.kind === "noMatch" || match.nodes.length === 0) return exceptionThrown(`${tool}: nothing on the screen matches ${what}`);
  return exceptionThrown(`${tool}: ${match.nodes.length} elements match ${what} (${match.nodes.map((n) => n.nodeId).join(", ")}); add an index or a narrower selector`);
}

export function isNode(value: ScreenNode | ToolResult): value is ScreenNode {
  return "nodeId" in value;
}
