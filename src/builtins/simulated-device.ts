// The simulated device: the UI primitives recorded trails call (launchApp, tap,
// inputText, pressBack, swipe, …) with validated arguments, each recorded with a
// timestamp. There is no screen behind it: actions are recorded, not performed,
// and tools that would have to look at a screen fail instead of passing.

import { z } from "zod";
import { exceptionThrown, missingRequiredArgs, success, type Success, type ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import type { TrailblazeContext } from "../core/context.ts";
import { defineBuiltin } from "./define-builtin.ts";

/** Toolset the simulated device's tools are pushed into (shown by `bun trailblaze tools`). */
export const SIMULATED_DEVICE_TOOLSET = "simulated_device";

export interface DeviceAction {
  action: string;
  /** ISO timestamp. */
  at: string;
  /** The validated details of the action (selector, text, coordinates, …). */
  [detail: string]: unknown;
}

/** One session's simulated device: what is in front, and every action so far. */
export class SimulatedDevice {
  readonly actions: DeviceAction[] = [];
  foregroundApp: string | undefined;
  keyboardShown = false;

  /** Records an action and returns the Success every action tool answers with. */
  record(action: string, details: Record<string, unknown>, summary: string): Success {
    const entry: DeviceAction = { action, at: new Date().toISOString(), ...details };
    if (this.foregroundApp !== undefined && entry.app === undefined) entry.app = this.foregroundApp;
    this.actions.push(entry);
    return success(`simulated device: ${summary}`, { structuredContent: { simulatedDevice: entry } });
  }
}

const reasoning = { reasoning: z.string().optional(), reason: z.string().optional() };
const direction = z.enum(["UP", "DOWN", "LEFT", "RIGHT"]);
const meta = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET };
const show = (value: unknown) => JSON.stringify(value);

function withinScreen(x: number, y: number, context: TrailblazeContext): string | undefined {
  const { widthPixels: w, heightPixels: h } = context.device;
  if (x < 0 || y < 0 || x >= w || y >= h) return `point (${x}, ${y}) is outside the ${w}x${h} screen`;
  return undefined;
}

/**
 * The message of a tool that would have to read the screen. It fails: passing
 * would claim a check that never happened.
 */
export function noScreenMessage(tool: string, wouldCheck: string): string {
  return (
    `${tool}: the simulated device has no screen to check, so this assertion cannot pass here ` +
    `(it would check ${wouldCheck}); run the trail with a real device driver, or assert on tool results and memory with assertEquals`
  );
}

function screenCheck(name: string, description: string, args: z.ZodRawShape, what: (args: Record<string, unknown>) => string): RegisteredTool {
  return defineBuiltin({
    name,
    description: `${description} On the simulated device this always fails: there is no screen to check.`,
    args,
    meta,
    run: (parsed): ToolResult => exceptionThrown(noScreenMessage(name, what(parsed as Record<string, unknown>))),
  });
}

/** Target of a tap/long press: exactly one way to find the element, or x and y. */
function tapTarget(args: Record<string, unknown>, context: TrailblazeContext, tool: string): { details: Record<string, unknown>; summary: string } | ToolResult {
  const ways = ["selector", "nodeSelector", "text", "ref", "id"].filter((k) => args[k] !== undefined);
  const hasX = args.x !== undefined;
  const hasY = args.y !== undefined;
  if (hasX !== hasY) return missingRequiredArgs(`${tool}: give both x and y (got only ${hasX ? "x" : "y"})`);
  if (hasX && ways.length > 0) return exceptionThrown(`${tool}: give either a point (x, y) or an element (${ways.join(", ")}), not both`);
  if (hasX) {
    const [x, y] = [args.x as number, args.y as number];
    const outside = withinScreen(x, y, context);
    if (outside) return exceptionThrown(`${tool}: ${outside}`);
    return { details: { x, y }, summary: `${tool} at (${x}, ${y})` };
  }
  if (ways.length === 0) return missingRequiredArgs(`${tool}: say what to tap: selector, nodeSelector, text, ref or id, or a point x and y`);
  const details = Object.fromEntries(ways.map((k) => [k, args[k]]));
  return { details, summary: `${tool} ${ways.map((k) => `${k} ${show(args[k])}`).join(" ")}` };
}

function tapTool(name: string, description: string, longPressDefault: boolean, device: SimulatedDevice): RegisteredTool {
  return defineBuiltin({
    name,
    description,
    args: {
      selector: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
      nodeSelector: z.record(z.string(), z.unknown()).optional(),
      text: z.string().min(1).optional(),
      ref: z.string().min(1).optional(),
      id: z.string().min(1).optional(),
      index: z.number().int().nonnegative().optional(),
      x: z.number().int().optional(),
      y: z.number().int().optional(),
      longPress: z.boolean().optional(),
      enabled: z.boolean().optional(),
      selected: z.boolean().optional(),
      ...reasoning,
    },
    meta,
    run: (args, context) => {
      const target = tapTarget(args, context, name);
      if ("variant" in target) return target;
      const longPress = args.longPress ?? longPressDefault;
      const details = { ...target.details, ...(args.index !== undefined ? { index: args.index } : {}), ...(longPress ? { longPress } : {}) };
      return device.record(name, details, target.summary + (longPress ? " (long press)" : ""));
    },
  });
}

/** The simulated device's tools, sharing one SimulatedDevice (one per session). */
export function simulatedDeviceTools(device = new SimulatedDevice()): RegisteredTool[] {
  return [
    defineBuiltin({
      name: "launchApp",
      description: "Launches an app by id (simulated: recorded, nothing is started).",
      args: { appId: z.string().min(1), launchMode: z.enum(["REINSTALL", "RESUME", "FORCE_RESTART"]).optional(), ...reasoning },
      meta,
      run: ({ appId, launchMode }) => {
        device.foregroundApp = appId;
        device.keyboardShown = false;
        return device.record("launchApp", { app: appId, ...(launchMode ? { launchMode } : {}) }, `launchApp ${appId}${launchMode ? ` (${launchMode})` : ""}`);
      },
    }),
    tapTool("tap", "Taps an element (selector, nodeSelector, text, ref or id) or a point (x, y) (simulated: recorded).", false, device),
    tapTool("tapOnElementBySelector", "Taps the element a selector finds (simulated: recorded).", false, device),
    tapTool("tapOnElementWithText", "Taps the element showing `text` (simulated: recorded).", false, device),
    tapTool("longPressOnElementWithText", "Long-presses the element showing `text` (simulated: recorded).", true, device),
    defineBuiltin({
      name: "tapOnPoint",
      description: "Taps (or long-presses) the point x, y in pixels (simulated: recorded).",
      args: { x: z.number().int(), y: z.number().int(), longPress: z.boolean().optional(), ...reasoning },
      meta,
      run: ({ x, y, longPress }, context) => {
        const outside = withinScreen(x, y, context);
        if (outside) return exceptionThrown(`tapOnPoint: ${outside}`);
        return device.record("tapOnPoint", { x, y, ...(longPress ? { longPress } : {}) }, `tapOnPoint (${x}, ${y})${longPress ? " (long press)" : ""}`);
      },
    }),
    defineBuiltin({
      name: "inputText",
      description: "Types text into the focused field (simulated: recorded).",
      args: { text: z.string(), hideKeyboardAfter: z.boolean().optional(), ...reasoning },
      meta,
      run: ({ text, hideKeyboardAfter }) => {
        device.keyboardShown = !hideKeyboardAfter;
        return device.record("inputText", { text }, `inputText ${show(text)}`);
      },
    }),
    defineBuiltin({
      name: "eraseText",
      description: "Erases characters from the focused field, all of them when charactersToErase is omitted (simulated: recorded).",
      args: { charactersToErase: z.number().int().positive().optional(), ...reasoning },
      meta,
      run: ({ charactersToErase }) =>
        device.record("eraseText", charactersToErase === undefined ? { all: true } : { charactersToErase }, `eraseText ${charactersToErase ?? "all"}`),
    }),
    defineBuiltin({
      name: "hideKeyboard",
      description: "Hides the soft keyboard (simulated: recorded).",
      args: { ...reasoning },
      meta,
      run: () => {
        device.keyboardShown = false;
        return device.record("hideKeyboard", {}, "hideKeyboard");
      },
    }),
    defineBuiltin({
      name: "pressBack",
      description: "Presses the back button (simulated: recorded).",
      args: { ...reasoning },
      meta,
      run: () => device.record("pressBack", {}, "pressBack"),
    }),
    defineBuiltin({
      name: "pressKey",
      description: "Presses a special key (simulated: recorded).",
      args: { keyCode: z.enum(["BACK", "ENTER", "HOME", "BACKSPACE", "TAB", "ESCAPE"]), ...reasoning },
      meta,
      run: ({ keyCode }) => device.record("pressKey", { keyCode }, `pressKey ${keyCode}`),
    }),
    defineBuiltin({
      name: "swipe",
      description: "Swipes in a direction (finger direction, default DOWN), optionally on the element showing swipeOnElementText (simulated: recorded).",
      args: { direction: direction.optional(), swipeOnElementText: z.string().min(1).optional(), ...reasoning },
      meta,
      run: ({ direction: dir = "DOWN", swipeOnElementText }) =>
        device.record(
          "swipe",
          { direction: dir, ...(swipeOnElementText ? { swipeOnElementText } : {}) },
          `swipe ${dir}${swipeOnElementText ? ` on ${show(swipeOnElementText)}` : ""}`,
        ),
    }),
    defineBuiltin({
      name: "openUrl",
      description: "Opens a URL (simulated: recorded).",
      args: { url: z.url(), ...reasoning },
      meta,
      run: ({ url }) => device.record("openUrl", { url }, `openUrl ${url}`),
    }),
    screenCheck(
      "assertVisibleWithText",
      "Asserts that an element showing `text` is visible.",
      { text: z.string().min(1), index: z.number().int().optional(), id: z.string().optional(), enabled: z.boolean().optional(), selected: z.boolean().optional(), ...reasoning },
      (a) => `that ${show(a.text)} is visible`,
    ),
    screenCheck(
      "assertNotVisibleWithText",
      "Asserts that no element showing `text` is visible.",
      { text: z.string().min(1), index: z.number().int().optional(), id: z.string().optional(), ...reasoning },
      (a) => `that ${show(a.text)} is not visible`,
    ),
    screenCheck(
      "assertVisibleBySelector",
      "Asserts that the element a selector finds is visible.",
      { selector: z.record(z.string(), z.unknown()).optional(), nodeSelector: z.record(z.string(), z.unknown()).optional(), expectedText: z.string().optional(), ...reasoning },
      (a) => `that the element ${show(a.nodeSelector ?? a.selector ?? {})} is visible`,
    ),
    screenCheck(
      "assertVisible",
      "Asserts that the element with snapshot ref `ref` is visible.",
      { ref: z.string().min(1), ...reasoning },
      (a) => `that element ${show(a.ref)} is visible`,
    ),
    screenCheck(
      "scrollUntilTextIsVisible",
      "Scrolls until the element (text, textRegex or id) is visible.",
      {
        text: z.string().optional(),
        textRegex: z.string().optional(),
        id: z.string().optional(),
        index: z.number().int().optional(),
        direction: direction.optional(),
        visibilityPercentage: z.number().int().optional(),
        centerElement: z.boolean().optional(),
        scrollStartPosition: z.enum(["CENTER", "TOP", "BOTTOM"]).optional(),
        scrollDurationMs: z.number().int().optional(),
        ...reasoning,
      },
      (a) => `when ${show(a.text ?? a.textRegex ?? a.id ?? "the element")} becomes visible`,
    ),
  ];
}
