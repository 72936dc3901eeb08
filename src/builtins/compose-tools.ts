// Upstream's compose_* tools for Compose desktop sessions (driver `compose`): element
// actions and checks are recorded and unverified without a screen; compose_wait waits.

import { z } from "zod";
import { success } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { anyCase, bool, int, str, withDefault } from "./arg-types.ts";
import { defineBuiltin } from "./define-builtin.ts";
import { elementTool } from "./element-actions.ts";
import type { DeviceScreen, SelectorMatch } from "./screen-checks.ts";
import { show, type SimulatedDevice } from "./simulated-device.ts";

const compose = { "trailblaze/toolset": "compose_core", "trailblaze/supportedDrivers": ["compose"] };
const verification = { ...compose, "trailblaze/toolset": "compose_verification" };

interface ComposeTarget {
  elementId?: string;
  testTag?: string;
  text?: string;
}

/** How a compose element is found and named: elementId, else testTag, else text. */
const selectorOf = (a: ComposeTarget) =>
  a.elementId !== undefined ? { ref: a.elementId } : a.testTag !== undefined ? { testTag: a.testTag } : a.text !== undefined ? { textRegex: a.text } : {};
/** The element on a loaded screen: by ref (elementId), compose test tag, or text. */
const findOn = (a: ComposeTarget, screen: DeviceScreen): SelectorMatch =>
  a.elementId !== undefined
    ? screen.findByRef(a.elementId)
    : a.testTag !== undefined
      ? screen.resolve({ compose: { testTag: a.testTag } })
      : screen.findByText({ text: a.text ?? "" }, "pattern");
const nameOf = (a: ComposeTarget) =>
  a.elementId !== undefined ? `element ${show(a.elementId)}` : a.testTag !== undefined ? `test tag ${show(a.testTag)}` : a.text !== undefined ? `text ${show(a.text)}` : "the element";
const needsTarget = (a: ComposeTarget) => (a.elementId === undefined && a.testTag === undefined && a.text === undefined ? "give elementId, testTag or text" : undefined);

export function composeTools(device: SimulatedDevice): RegisteredTool[] {
  return [
    elementTool(device, {
      name: "compose_click",
      description: "Clicks the element by elementId (preferred), testTag or text.",
      args: () => ({ elementId: str().optional(), testTag: str().optional(), text: str().optional(), element: withDefault(str(), "") }),
      meta: compose,
      precheck: needsTarget,
      find: (a, screen) => findOn(a, screen),
      what: nameOf,
      record: (a) => ({ details: selectorOf(a), summary: `click ${nameOf(a)}` }),
    }),
    elementTool(device, {
      name: "compose_type",
      description: "Types `text` into the element by elementId or testTag (clearFirst default true).",
      args: () => ({ text: str(), elementId: str().optional(), testTag: str().optional(), existingText: str().optional(), element: withDefault(str(), ""), clearFirst: withDefault(bool(), true) }),
      meta: compose,
      precheck: (a) => (a.elementId === undefined && a.testTag === undefined ? "give elementId or testTag" : undefined),
      find: (a, screen) => findOn({ elementId: a.elementId, testTag: a.testTag }, screen),
      what: (a) => nameOf({ elementId: a.elementId, testTag: a.testTag }),
      record: (a) => ({ details: { text: a.text, ...selectorOf({ elementId: a.elementId, testTag: a.testTag }), clearFirst: a.clearFirst }, summary: `type ${show(a.text)} into ${nameOf({ elementId: a.elementId, testTag: a.testTag })}` }),
    }),
    elementTool(device, {
      name: "compose_scroll",
      description: "Scrolls the container (elementId or testTag) to `index` (default 0) or towards `text`.",
      args: () => ({ elementId: str().optional(), testTag: str().optional(), text: str().optional(), index: withDefault(int(0), 0) }),
      meta: compose,
      precheck: needsTarget,
      find: (a, screen) => findOn(a, screen),
      what: nameOf,
      record: (a) => ({ details: { ...selectorOf(a), index: a.index }, summary: `scroll ${nameOf(a)} to ${a.text !== undefined ? show(a.text) : `item ${a.index}`}` }),
    }),
    elementTool(device, {
      name: "compose_verify_element_visible",
      description: "Verifies that the element (testTag or elementId) is visible.",
      args: () => ({ testTag: str().optional(), elementId: str().optional(), element: withDefault(str(), "") }),
      meta: verification,
      precheck: (a) => (a.elementId === undefined && a.testTag === undefined ? "give elementId or testTag" : undefined),
      find: (a, screen) => findOn(a, screen),
      what: nameOf,
      record: (a) => ({ details: selectorOf(a), summary: `verify ${nameOf(a)} is visible` }),
    }),
    elementTool(device, {
      name: "compose_verify_text_visible",
      description: "Verifies that `text` is visible.",
      args: () => ({ text: str(1) }),
      meta: verification,
      find: (a, screen) => screen.findByText({ text: a.text }, "contains"),
      what: (a) => show(a.text),
      record: (a) => ({ details: { text: a.text }, summary: `verify ${show(a.text)} is visible` }),
    }),
    defineBuiltin({
      name: "compose_wait",
      description: "Waits `seconds` seconds (default 1, at most 30).",
      args: () => ({ seconds: withDefault(int(), 1) }),
      meta: compose,
      run: async ({ seconds }) => {
        const capped = Math.min(30, Math.max(1, seconds));
        await device.sleep(capped * 1000);
        return success(`Waited ${capped} seconds.`);
      },
    }),
    defineBuiltin({
      name: "compose_request_details",
      description: "Asks for more detail (BOUNDS) in the next view hierarchy.",
      args: () => ({ include: z.array(anyCase(["BOUNDS"])) }),
      meta: compose,
      run: ({ include }) => device.record("compose_request_details", { include }, `next view hierarchy with ${include.join(", ") || "no extra detail"}`),
    }),
  ];
}
