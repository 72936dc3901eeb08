// The one place a framework tool meets the screen. Every tool that has to look at the
// screen (assertions, taps on an element, reading text, waiting for a change) calls
// `screenCheck`: with a screen loaded on the simulated device it runs its check against
// it; without one the step is *unverified* (neither passed nor failed) — the action, if
// any, is still recorded. `DeviceScreen` is what a screen engine plugs in.

import { exceptionThrown, isSuccess, success, type Success, type ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { SelectorError } from "../errors.ts";
import type { DeviceScreen, ScreenNode, SelectorMatch, TextQuery } from "./device-screen.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

export type { DeviceScreen, MatchKind, ScreenNode, Selector, SelectorMatch, TextMode, TextQuery } from "./device-screen.ts";

/** Why a screen check is unverified on a device without a screen. */
const NO_SCREEN = "no screen loaded";

/** A call that did not fail but could not check anything: the step is `unverified` with `reason`. */
export function unverified(
  reason: string,
  detail: string,
  extra: Partial<Omit<Success, "variant" | "message" | "unverified">> = {},
): Success {
  return success(`unverified: ${reason} (${detail})`, { ...extra, unverified: reason });
}

interface ScreenCheck {
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
  return unverified(NO_SCREEN, `${use.action.summary} recorded; would check ${use.wouldCheck}`, {
    structuredContent: { simulatedDevice: entry },
  });
}

/** `; closest: #7 Button "Login" …, …` for a failed lookup, or nothing when no node comes close. */
export function closestHint(match: SelectorMatch): string {
  return match.closest && match.closest.length > 0 ? `; closest: ${match.closest.join(", ")}` : "";
}

/** A node for messages: its description when the screen gives one, else its id. */
export const nodeName = (node: ScreenNode): string => node.description ?? node.nodeId;

/**
 * The one node a lookup acts on, by upstream's rule: the `index`-th match when an index is
 * given, else the first (matches are in top-to-bottom, left-to-right order); or the failure
 * saying what was on the screen instead.
 */
export function oneNode(tool: string, match: SelectorMatch, what: string, index?: number): ScreenNode | ToolResult {
  if (match.kind === "noMatch" || match.nodes.length === 0)
    return exceptionThrown(`${tool}: nothing on the screen matches ${what}${closestHint(match)}`);
  if (index !== undefined && index > 0) {
    const node = match.nodes[index];
    return (
      node ??
      exceptionThrown(
        `${tool}: ${match.nodes.length} element${match.nodes.length === 1 ? "" : "s"} match ${what}, so there is no index ${index} (indexes start at 0)`,
      )
    );
  }
  return match.nodes[0]!;
}

/** A text tool's lookup: the text with its optional filters (resource id, enabled, selected). */
export function textQuery(
  text: string,
  filters: { id?: string | undefined; enabled?: boolean | undefined; selected?: boolean | undefined } = {},
): TextQuery {
  return {
    text,
    ...(filters.id ? { id: filters.id } : {}),
    ...(filters.enabled !== undefined ? { enabled: filters.enabled } : {}),
    ...(filters.selected !== undefined ? { selected: filters.selected } : {}),
  };
}

export function isNode(value: ScreenNode | ToolResult): value is ScreenNode {
  return "nodeId" in value;
}

/**
 * `tool`, moving the loaded screen after each action it records: when a call succeeds, was
 * checked (not unverified) and recorded an action on the device, the screen applies the call
 * (its name and arguments as called) — a shortcut's action moves it to the shortcut's `to`
 * waypoint; anything else leaves it as it is. Either way the step's output says so.
 */
export function movesTheScreen(device: SimulatedDevice, tool: RegisteredTool): RegisteredTool {
  const invoke: RegisteredTool["invoke"] = async (call) => {
    const before = device.actions.length;
    let result: ToolResult;
    try {
      result = await tool.invoke(call);
    } catch (error) {
      // A malformed recorded selector fails the step with the selector's own message.
      if (error instanceof SelectorError) return exceptionThrown(`${tool.name}: ${error.message}`);
      throw error;
    }
    const screen = device.screen;
    if (!screen || !isSuccess(result) || result.unverified !== undefined || device.actions.length === before) return result;
    const move = await screen.apply(tool.name, call.args);
    return { ...result, message: `${result.message}; ${move.message}`, structuredContent: { ...result.structuredContent, screen: move } };
  };
  // The tool's own properties as they are (a built-in's inputSchema is a getter, built on first read).
  return Object.defineProperties({} as RegisteredTool, {
    ...Object.getOwnPropertyDescriptors(tool),
    invoke: { enumerable: true, writable: true, configurable: true, value: invoke },
  });
}
