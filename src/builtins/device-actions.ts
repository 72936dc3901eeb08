// Device actions that do not need to find anything on the screen: apps, typing, keys,
// pacing, network, gestures at points. DEVICE_ACTIONS defines them; each run is performed on the
// simulated device (its state changes) and recorded; a loaded screen hears every action.

import { exceptionThrown, success } from "../core/tool-result.ts";
import type { TrailblazeContext } from "../core/context.ts";
import { anyCase, bool, int, reasoning, str, withDefault } from "./arg-types.ts";
import type { BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { closestHint, nodeName, screenCheck } from "./screen-checks.ts";
import { show, SIMULATED_DEVICE_TOOLSET, type SimulatedDevice } from "./simulated-device.ts";

const meta = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET };
export const DIRECTIONS = ["UP", "DOWN", "RIGHT", "LEFT"] as const;

export const DEVICE_ACTIONS = {
  launchApp: {
    description:
      "Opens an app by id (launchMode REINSTALL (default), RESUME or FORCE_RESTART, any case). Simulated: it becomes the foreground app (and installed).",
    args: () => ({ appId: str(1), launchMode: withDefault(anyCase(["REINSTALL", "RESUME", "FORCE_RESTART"]), "REINSTALL"), ...reasoning }),
    meta,
  },
  inputText: {
    description: "Types `text` into the focused field (hideKeyboardAfter default true). Simulated: appended to the focused field's text.",
    args: () => ({ text: str(), ...reasoning, hideKeyboardAfter: withDefault(bool(), true) }),
    // Typing into the focused field is how a secret is entered on a device: `text` may carry one.
    meta: { ...meta, "trailblaze/sensitiveArgs": ["text"] },
  },
  inputTextRandom: {
    description: 'Types `prefix` (default "TBZ-") and `digitCount` (default 6) random digits, and remembers the value as `variable`.',
    args: () => ({
      variable: str(1),
      prefix: withDefault(str(), "TBZ-"),
      digitCount: withDefault(int(1, 18), 6),
      hideKeyboardAfter: withDefault(bool(), true),
    }),
    meta,
  },
  eraseText: {
    description: "Erases `charactersToErase` characters from the end of the focused field, all of them when omitted.",
    args: () => ({ charactersToErase: int(0).optional() }),
    meta,
  },
  clearText: {
    description: "Clears the focused text field.",
    args: () => ({}),
    meta,
  },
  hideKeyboard: {
    description: "Hides the soft keyboard.",
    args: () => ({}),
    meta,
  },
  pressBack: {
    description: "Navigates back one screen (the system back button).",
    args: () => ({}),
    meta,
  },
  pressKey: {
    description:
      "Presses BACK, ENTER, HOME, BACKSPACE, TAB or ESCAPE (any case). HOME leaves the foreground app; BACKSPACE erases one character.",
    args: () => ({ keyCode: anyCase(["BACK", "ENTER", "HOME", "BACKSPACE", "TAB", "ESCAPE"]) }),
    meta,
  },
  openUrl: {
    description: "Opens `url` in the browser (or the app that handles it).",
    args: () => ({ url: str(1) }),
    meta: { ...meta, "trailblaze/supportedPlatforms": ["android", "ios"] },
  },
  networkConnection: {
    description: "Turns the network on (`connected: true`) or off (airplane mode).",
    args: () => ({ connected: bool() }),
    meta,
  },
  wait: {
    description: "Waits `timeToWaitInSeconds` seconds (default 5).",
    args: () => ({ timeToWaitInSeconds: withDefault(int(0, 600), 5) }),
    meta,
  },
  waitForChange: {
    description:
      "Waits until the screen changes and settles (timeoutMs default 8000, quietWindowMs default 300, requireChange default true). Unverified without a screen.",
    args: () => ({
      timeoutMs: withDefault(int(0), 8000),
      quietWindowMs: withDefault(int(0), 300),
      requireChange: withDefault(bool(), true),
    }),
    meta,
  },
  takeSnapshot: {
    description: "Saves a snapshot of the screen as `screenName` (with an optional `description`).",
    args: () => ({ screenName: str(1), description: str().optional() }),
    meta,
  },
  tapOnPoint: {
    description: "Taps (or long-presses) the point x, y in pixels.",
    args: () => ({ x: int(), y: int(), longPress: withDefault(bool(), false), ...reasoning }),
    meta,
  },
  dragByPoints: {
    description: "Drags from (startX, startY) to (endX, endY) in pixels over durationMs (default 1000).",
    args: () => ({ startX: int(), startY: int(), endX: int(), endY: int(), durationMs: withDefault(int(0), 1000) }),
    meta,
  },
  swipe: {
    description:
      "Swipes the finger UP, DOWN (default), LEFT or RIGHT (any case), on the screen's centre or on the element showing swipeOnElementText.",
    args: () => ({ direction: withDefault(anyCase(DIRECTIONS), "DOWN"), swipeOnElementText: str().optional(), ...reasoning }),
    meta,
  },
  swipeWithRelativeCoordinates: {
    description:
      'Swipes between two points given relative to the screen (e.g. "50%, 80%"), optionally on the element showing swipeOnElementText.',
    args: () => ({ startRelative: str(1), endRelative: str(1), swipeOnElementText: str().optional(), durationMs: int(0).optional() }),
    meta,
  },
  objectiveStatus: {
    description: "Reports the objective's status: IN_PROGRESS, COMPLETED or FAILED (any case), with an explanation. FAILED fails the step.",
    args: () => ({ explanation: str(), status: anyCase(["IN_PROGRESS", "COMPLETED", "FAILED"]) }),
  },
} satisfies BuiltinTable;

/** Why the point (x, y) is off the call's screen, or undefined when it is on it. */
export function outsideScreen(x: number, y: number, context: TrailblazeContext): string | undefined {
  const { widthPixels: w, heightPixels: h } = context.device;
  if (x < 0 || y < 0 || x >= w || y >= h) return `point (${x}, ${y}) is outside the ${w}x${h} screen`;
  return undefined;
}

export const DEVICE_ACTION_RUNS: BuiltinRuns<typeof DEVICE_ACTIONS, SimulatedDevice> = {
  launchApp: (device, { appId, launchMode }) => {
    device.foregroundApp = appId;
    device.installedApps.add(appId);
    device.keyboardShown = false;
    device.focusedText = "";
    return device.record("launchApp", { app: appId, launchMode }, `launchApp ${appId} (${launchMode})`);
  },
  inputText: (device, { text, hideKeyboardAfter }) => {
    device.type(text, hideKeyboardAfter);
    return device.record("inputText", { text }, `inputText ${show(text)}`);
  },
  inputTextRandom: (device, { variable, prefix, digitCount, hideKeyboardAfter }) => {
    const digits = Array.from({ length: digitCount }, () => Math.floor(Math.random() * 10)).join("");
    const value = `${prefix}${digits}`;
    device.type(value, hideKeyboardAfter);
    return device.record("inputTextRandom", { text: value, variable }, `inputTextRandom ${show(value)} → ${variable}`, {
      memoryDelta: { [variable]: value },
    });
  },
  eraseText: (device, { charactersToErase }) => {
    const n = charactersToErase ?? device.focusedText.length;
    device.focusedText = device.focusedText.slice(0, Math.max(0, device.focusedText.length - n));
    return device.record(
      "eraseText",
      charactersToErase === undefined ? { all: true } : { charactersToErase },
      `eraseText ${charactersToErase ?? "all"}`,
    );
  },
  clearText: (device) => {
    device.focusedText = "";
    return device.record("clearText", {}, "clearText");
  },
  hideKeyboard: (device) => {
    device.keyboardShown = false;
    return device.record("hideKeyboard", {}, "hideKeyboard");
  },
  pressBack: (device) => device.record("pressBack", {}, "pressBack"),
  pressKey: (device, { keyCode }) => {
    if (keyCode === "HOME") device.foregroundApp = undefined;
    if (keyCode === "BACKSPACE") device.focusedText = device.focusedText.slice(0, -1);
    return device.record("pressKey", { keyCode }, `pressKey ${keyCode}`);
  },
  openUrl: (device, { url }) => device.record("openUrl", { url }, `openUrl ${url}`),
  networkConnection: (device, { connected }) => {
    device.connected = connected;
    return device.record("networkConnection", { connected }, `network ${connected ? "connected" : "offline (airplane mode)"}`);
  },
  wait: async (device, { timeToWaitInSeconds }) => {
    await device.sleep(timeToWaitInSeconds * 1000);
    return device.waited(`waited ${timeToWaitInSeconds} s`);
  },
  waitForChange: (device, { timeoutMs }) =>
    screenCheck(device, {
      wouldCheck: `that the screen changes within ${timeoutMs} ms`,
      // The simulated screen changes only when an action is applied, which has happened already.
      check: () => success("the screen has settled"),
    }),
  takeSnapshot: (device, { screenName, description }) => {
    device.snapshots.push(screenName);
    const captured = device.screen ? "" : " (no screen loaded: nothing captured)";
    return device.record(
      "takeSnapshot",
      { screenName, ...(description ? { description } : {}) },
      `takeSnapshot ${show(screenName)}${captured}`,
    );
  },
  tapOnPoint: (device, { x, y, longPress }, context) => {
    const outside = outsideScreen(x, y, context);
    if (outside) return exceptionThrown(`tapOnPoint: ${outside}`);
    const tap = () =>
      device.record(
        "tapOnPoint",
        { x, y, ...(longPress ? { longPress } : {}) },
        `tapOnPoint (${x}, ${y})${longPress ? " (long press)" : ""}`,
      );
    return screenCheck(device, {
      wouldCheck: `what is at (${x}, ${y})`,
      check: (screen) => {
        const node = screen.hitTest(x, y);
        const result = tap();
        return node ? { ...result, message: `${result.message} on ${nodeName(node)}` } : result;
      },
      withoutScreen: tap,
    });
  },
  dragByPoints: (device, { startX, startY, endX, endY, durationMs }, context) => {
    const outside = outsideScreen(startX, startY, context) ?? outsideScreen(endX, endY, context);
    if (outside) return exceptionThrown(`dragByPoints: ${outside}`);
    return device.record(
      "dragByPoints",
      { from: [startX, startY], to: [endX, endY], durationMs },
      `drag (${startX}, ${startY}) → (${endX}, ${endY})`,
    );
  },
  swipe: (device, { direction, swipeOnElementText }) => {
    if (swipeOnElementText === undefined) return device.record("swipe", { direction }, `swipe ${direction}`);
    const action = {
      name: "swipe",
      details: { direction, swipeOnElementText },
      summary: `swipe ${direction} on ${show(swipeOnElementText)}`,
    };
    return screenCheck(device, {
      wouldCheck: `that ${show(swipeOnElementText)} is on the screen`,
      action,
      check: (screen) => {
        const match = screen.findByText({ text: swipeOnElementText }, "contains");
        return match.kind === "noMatch"
          ? exceptionThrown(`swipe: nothing on the screen shows ${show(swipeOnElementText)}${closestHint(match)}`)
          : device.record(action.name, action.details, action.summary);
      },
    });
  },
  swipeWithRelativeCoordinates: (device, { startRelative, endRelative, swipeOnElementText, durationMs }) =>
    device.record(
      "swipeWithRelativeCoordinates",
      {
        from: startRelative,
        to: endRelative,
        ...(swipeOnElementText ? { swipeOnElementText } : {}),
        ...(durationMs !== undefined ? { durationMs } : {}),
      },
      `swipe ${startRelative} → ${endRelative}`,
    ),
  objectiveStatus: (_device, { status, explanation }) =>
    status === "FAILED"
      ? exceptionThrown(`objective failed: ${explanation}`)
      : success(`objective ${status.toLowerCase().replace("_", " ")}: ${explanation}`, { unchecked: "only reported a status" }),
};
