// Upstream's compose_* tools for Compose desktop sessions (driver `compose`, COMPOSE_TOOLS): element
// actions and checks are recorded and unverified without a screen; compose_wait waits.

import { z } from "zod";
import { anyCase, bool, int, str, withDefault } from "./arg-types.ts";
import type { BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { onScreenElement, UNVERIFIED_ACTION } from "./element-run.ts";
import type { DeviceScreen, SelectorMatch } from "./screen-checks.ts";
import { show, type SimulatedDevice } from "./simulated-device.ts";

const compose = { "trailblaze/toolset": "compose_core", "trailblaze/supportedDrivers": ["compose"] };
const verification = { ...compose, "trailblaze/toolset": "compose_verification" };

export const COMPOSE_TOOLS = {
  compose_click: {
    description: `Clicks the element by elementId (preferred), testTag or text.${UNVERIFIED_ACTION}`,
    args: () => ({ elementId: str().optional(), testTag: str().optional(), text: str().optional(), element: withDefault(str(), "") }),
    meta: compose,
  },
  compose_type: {
    description: `Types \`text\` into the element by elementId or testTag (clearFirst default true).${UNVERIFIED_ACTION}`,
    args: () => ({
      text: str(),
      elementId: str().optional(),
      testTag: str().optional(),
      existingText: str().optional(),
      element: withDefault(str(), ""),
      clearFirst: withDefault(bool(), true),
    }),
    meta: compose,
  },
  compose_scroll: {
    description: `Scrolls the container (elementId or testTag) to \`index\` (default 0) or towards \`text\`.${UNVERIFIED_ACTION}`,
    args: () => ({ elementId: str().optional(), testTag: str().optional(), text: str().optional(), index: withDefault(int(0), 0) }),
    meta: compose,
  },
  compose_verify_element_visible: {
    description: `Verifies that the element (testTag or elementId) is visible.${UNVERIFIED_ACTION}`,
    args: () => ({ testTag: str().optional(), elementId: str().optional(), element: withDefault(str(), "") }),
    meta: verification,
  },
  compose_verify_text_visible: {
    description: `Verifies that \`text\` is visible.${UNVERIFIED_ACTION}`,
    args: () => ({ text: str(1) }),
    meta: verification,
  },
  compose_wait: {
    description: "Waits `seconds` seconds (default 1, at most 30).",
    args: () => ({ seconds: withDefault(int(), 1) }),
    meta: compose,
  },
  compose_request_details: {
    description: "Asks for more detail (BOUNDS) in the next view hierarchy.",
    args: () => ({ include: z.array(anyCase(["BOUNDS"])) }),
    meta: compose,
  },
} satisfies BuiltinTable;

interface ComposeTarget {
  elementId?: string;
  testTag?: string;
  text?: string;
}

/** How a compose element is found and named: elementId, else testTag, else text. */
const selectorOf = (a: ComposeTarget) =>
  a.elementId !== undefined
    ? { ref: a.elementId }
    : a.testTag !== undefined
      ? { testTag: a.testTag }
      : a.text !== undefined
        ? { textRegex: a.text }
        : {};
/** The element on a loaded screen: by ref (elementId), compose test tag, or text. */
const findOn = (a: ComposeTarget, screen: DeviceScreen): SelectorMatch =>
  a.elementId !== undefined
    ? screen.findByRef(a.elementId)
    : a.testTag !== undefined
      ? screen.resolve({ compose: { testTag: a.testTag } })
      : screen.findByText({ text: a.text ?? "" }, "pattern");
const nameOf = (a: ComposeTarget) =>
  a.elementId !== undefined
    ? `element ${show(a.elementId)}`
    : a.testTag !== undefined
      ? `test tag ${show(a.testTag)}`
      : a.text !== undefined
        ? `text ${show(a.text)}`
        : "the element";
const needsTarget = (a: ComposeTarget) =>
  a.elementId === undefined && a.testTag === undefined && a.text === undefined ? "give elementId, testTag or text" : undefined;

export const COMPOSE_RUNS: BuiltinRuns<typeof COMPOSE_TOOLS, SimulatedDevice> = {
  compose_click: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findOn(a, screen),
    what: (a) => nameOf(a),
    record: (a) => ({ details: selectorOf(a), summary: `click ${nameOf(a)}` }),
  }),
  compose_type: onScreenElement({
    precheck: (a) => (a.elementId === undefined && a.testTag === undefined ? "give elementId or testTag" : undefined),
    find: (a, screen) => findOn({ elementId: a.elementId, testTag: a.testTag }, screen),
    what: (a) => nameOf({ elementId: a.elementId, testTag: a.testTag }),
    record: (a) => ({
      details: { text: a.text, ...selectorOf({ elementId: a.elementId, testTag: a.testTag }), clearFirst: a.clearFirst },
      summary: `type ${show(a.text)} into ${nameOf({ elementId: a.elementId, testTag: a.testTag })}`,
    }),
  }),
  compose_scroll: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findOn(a, screen),
    what: (a) => nameOf(a),
    record: (a) => ({
      details: { ...selectorOf(a), index: a.index },
      summary: `scroll ${nameOf(a)} to ${a.text !== undefined ? show(a.text) : `item ${a.index}`}`,
    }),
  }),
  compose_verify_element_visible: onScreenElement({
    precheck: (a) => (a.elementId === undefined && a.testTag === undefined ? "give elementId or testTag" : undefined),
    find: (a, screen) => findOn(a, screen),
    what: (a) => nameOf(a),
    record: (a) => ({ details: selectorOf(a), summary: `verify ${nameOf(a)} is visible` }),
  }),
  compose_verify_text_visible: onScreenElement({
    find: (a, screen) => screen.findByText({ text: a.text }, "contains"),
    what: (a) => show(a.text),
    record: (a) => ({ details: { text: a.text }, summary: `verify ${show(a.text)} is visible` }),
  }),
  compose_wait: async (device, { seconds }) => {
    const capped = Math.min(30, Math.max(1, seconds));
    await device.sleep(capped * 1000);
    return device.waited(`Waited ${capped} seconds.`);
  },
  compose_request_details: (device, { include }) =>
    device.record("compose_request_details", { include }, `next view hierarchy with ${include.join(", ") || "no extra detail"}`),
};
