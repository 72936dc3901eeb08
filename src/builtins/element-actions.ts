// Actions on an element found on the screen: taps and long presses by ref, text,
// accessibility text or selector, drags, scrolling until something shows (ELEMENT_ACTIONS). Each
// run is onScreenElement's: the action is recorded on the simulated device either way; finding
// the element needs a screen, so without one the step is unverified (element-run.ts).

import type { Success } from "../core/tool-result.ts";
import { anyCase, bool, int, reasoning, selector, str, withDefault } from "./arg-types.ts";
import type { BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { DIRECTIONS, outsideScreen } from "./device-actions.ts";
import { onScreenElement, UNVERIFIED_ACTION } from "./element-run.ts";
import { textQuery, type DeviceScreen, type ScreenNode } from "./screen-checks.ts";
import { show, SIMULATED_DEVICE_TOOLSET, type SimulatedDevice } from "./simulated-device.ts";

const meta = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET };
/** A tool the model calls by snapshot ref: never recorded as called (the ref is this screen's), but as what it names (`recordAs`). */
const byRef = { ...meta, "trailblaze/isRecordable": false };

/** Where a node's center is, when its bounds are known. */
function centerOf(node: ScreenNode): { x: number; y: number } | undefined {
  const b = node.match?.bounds;
  return b ? { x: Math.trunc((b.left + b.right) / 2), y: Math.trunc((b.top + b.bottom) / 2) } : undefined;
}

/**
 * A tap by ref as a recording keeps it (upstream's TapTrailblazeTool): tapOnElementBySelector with
 * the node's selector, or for a node nothing names, a tap on its center.
 */
export function tapRecordedAs(node: ScreenNode, screen: DeviceScreen, longPress: boolean, why?: string): Success["recordAs"] {
  const nodeSelector = screen.selectorOf(node);
  const hold = longPress ? { longPress: true } : {};
  if (nodeSelector) return { tool: "tapOnElementBySelector", args: { nodeSelector, ...hold, ...(why ? { reason: why } : {}) } };
  const center = centerOf(node);
  return center ? { tool: "tapOnPoint", args: { ...center, ...hold, ...(why ? { reasoning: why } : {}) } } : undefined;
}

/** An `index` written as a string upstream (`index: "1"`): a number, or undefined when absent or not a number. */
const indexOf = (index: string | undefined) => (index !== undefined && /^\d+$/.test(index.trim()) ? Number(index) : undefined);
const filters = { enabled: bool().optional(), selected: bool().optional() };

export const ELEMENT_ACTIONS = {
  tap: {
    description:
      'Taps the element with ref `ref`: the id in square brackets before it in the screen outline (n12 from `[n12] Button "Sign in"`). Set longPress for a press and hold; to enter a value on a keypad, tap each key. Recorded as the element\'s selector, so the recording still finds it when ids move.' +
      UNVERIFIED_ACTION,
    args: () => ({ ref: str(1), longPress: withDefault(bool(), false), ...reasoning }),
    meta: byRef,
  },
  longPress: {
    description:
      "Presses and holds the element with ref `ref` (from the screen outline): context menus, drag handles, hold-to-delete. Recorded as the element's selector." +
      UNVERIFIED_ACTION,
    args: () => ({ ref: str(1), ...reasoning }),
    meta: byRef,
  },
  dragTo: {
    description: `Drags the element \`ref\` onto \`toRef\`, or to the point toX, toY, in one press-move-release over durationMs (default 1000). Recorded as dragByPoints.${UNVERIFIED_ACTION}`,
    args: () => ({
      ref: str(1),
      toRef: str().optional(),
      toX: int().optional(),
      toY: int().optional(),
      durationMs: withDefault(int(0), 1000),
      ...reasoning,
    }),
    meta: byRef,
  },
  tapOnElementWithText: {
    description: `Taps the element showing \`text\` (a regular expression; index among matches, id to narrow).${UNVERIFIED_ACTION}`,
    args: () => ({ text: str(1), index: withDefault(int(0), 0), id: str().optional(), ...filters }),
    meta,
  },
  longPressOnElementWithText: {
    description: `Long-presses the element showing \`text\` (index is a string upstream, e.g. "1").${UNVERIFIED_ACTION}`,
    args: () => ({ text: str(1), id: str().optional(), index: str().optional(), ...filters }),
    meta,
  },
  tapOnElementWithAccessibilityText: {
    description: `Taps the element whose accessibility text is \`accessibilityText\`.${UNVERIFIED_ACTION}`,
    args: () => ({ accessibilityText: str(1), id: str().optional(), index: str().optional(), ...filters }),
    meta,
  },
  longPressElementWithAccessibilityText: {
    description: `Long-presses the element whose accessibility text is \`accessibilityText\`.${UNVERIFIED_ACTION}`,
    args: () => ({ accessibilityText: str(1), id: str().optional(), index: str().optional(), ...filters }),
    meta,
  },
  tapOnElementBySelector: {
    description:
      "Taps the element `nodeSelector` finds (or, in older recordings, the legacy `selector`; longPress default false)." +
      UNVERIFIED_ACTION,
    args: () => ({
      reason: str().optional(),
      selector: selector().optional(),
      longPress: withDefault(bool(), false),
      nodeSelector: selector().optional(),
    }),
    meta,
  },
  tapOn: {
    description: `Taps the element \`selector\` finds, at relativePoint inside it (e.g. "50%, 50%").${UNVERIFIED_ACTION}`,
    args: () => ({ selector: selector(), relativePoint: str().optional(), longPress: withDefault(bool(), false) }),
    meta,
  },
  tapOnAccessibilityNode: {
    description: `Taps the accessibility node matching the given regexes (content description, text, class name, resource id).${UNVERIFIED_ACTION}`,
    args: () => ({
      contentDescriptionRegex: str().optional(),
      textRegex: str().optional(),
      classNameRegex: str().optional(),
      resourceIdRegex: str().optional(),
      longPress: withDefault(bool(), false),
    }),
    meta,
  },
  scrollUntilTextIsVisible: {
    description:
      "Scrolls (direction UP/DOWN (default)/LEFT/RIGHT, any case) until the element with `text`, `textRegex` or `id` is visible." +
      UNVERIFIED_ACTION,
    args: () => ({
      text: str().optional(),
      textRegex: str().optional(),
      id: str().optional(),
      index: withDefault(int(0), 0),
      direction: withDefault(anyCase(DIRECTIONS), "DOWN"),
      visibilityPercentage: withDefault(int(0, 100), 100),
      centerElement: withDefault(bool(), false),
      scrollStartPosition: withDefault(anyCase(["CENTER", "TOP", "BOTTOM"]), "CENTER"),
      ...reasoning,
    }),
    meta,
  },
} satisfies BuiltinTable;

export const ELEMENT_ACTION_RUNS: BuiltinRuns<typeof ELEMENT_ACTIONS, SimulatedDevice> = {
  tap: onScreenElement({
    find: (a, screen) => screen.findByRef(a.ref),
    what: (a) => `ref ${show(a.ref)}`,
    record: (a) => ({
      details: { ref: a.ref, ...(a.longPress ? { longPress: true } : {}) },
      summary: `tap ref ${show(a.ref)}${a.longPress ? " (long press)" : ""}`,
    }),
    recordAs: (a, node, screen) => tapRecordedAs(node, screen, a.longPress, a.reasoning),
  }),
  longPress: onScreenElement({
    find: (a, screen) => screen.findByRef(a.ref),
    what: (a) => `ref ${show(a.ref)}`,
    record: (a) => ({ details: { ref: a.ref }, summary: `longPress ref ${show(a.ref)}` }),
    recordAs: (a, node, screen) => tapRecordedAs(node, screen, true, a.reasoning),
  }),
  dragTo: onScreenElement({
    precheck: (a, context) => {
      const point = a.toX !== undefined || a.toY !== undefined;
      if (point && a.toRef !== undefined) return "give either toRef or toX/toY, not both";
      if (!point && a.toRef === undefined) return "say where to drag: toRef, or toX and toY";
      if (point && (a.toX === undefined || a.toY === undefined))
        return `give both toX and toY (got only ${a.toX === undefined ? "toY" : "toX"})`;
      return point ? outsideScreen(a.toX!, a.toY!, context) : undefined;
    },
    find: (a, screen) => screen.findByRef(a.ref),
    what: (a) => `ref ${show(a.ref)}`,
    record: (a) => {
      const to = a.toRef !== undefined ? `ref ${show(a.toRef)}` : `(${a.toX}, ${a.toY})`;
      return {
        details: { ref: a.ref, ...(a.toRef !== undefined ? { toRef: a.toRef } : { to: [a.toX, a.toY] }), durationMs: a.durationMs },
        summary: `drag ref ${show(a.ref)} → ${to}`,
      };
    },
    // As upstream: the points of the drag, from the source's center to the target's (or the point).
    recordAs: (a, node, screen) => {
      const from = centerOf(node);
      const target = a.toRef !== undefined ? screen.findByRef(a.toRef).nodes[0] : undefined;
      const to = a.toRef !== undefined ? target && centerOf(target) : { x: a.toX!, y: a.toY! };
      if (!from || !to) return undefined;
      return {
        tool: "dragByPoints",
        args: { startX: from.x, startY: from.y, endX: to.x, endY: to.y, durationMs: a.durationMs },
      };
    },
  }),
  tapOnElementWithText: onScreenElement({
    find: (a, screen) => screen.findByText(textQuery(a.text, a), "contains"),
    index: (a) => a.index,
    what: (a) => `text ${show(a.text)}`,
    record: (a) => ({
      details: { text: a.text, ...(a.index ? { index: a.index } : {}), ...(a.id ? { id: a.id } : {}) },
      summary: `tapOnElementWithText text ${show(a.text)}`,
    }),
  }),
  longPressOnElementWithText: onScreenElement({
    find: (a, screen) => screen.findByText(textQuery(a.text, a), "contains"),
    index: (a) => indexOf(a.index),
    what: (a) => `text ${show(a.text)}`,
    record: (a) => ({
      details: { text: a.text, longPress: true, ...(a.index !== undefined ? { index: a.index } : {}) },
      summary: `longPressOnElementWithText text ${show(a.text)}`,
    }),
  }),
  tapOnElementWithAccessibilityText: onScreenElement({
    // As upstream (Maestro's text matcher also reads accessibility text): the text as a pattern.
    find: (a, screen) => screen.findByText(textQuery(a.accessibilityText, a), "pattern"),
    index: (a) => indexOf(a.index),
    what: (a) => `accessibility text ${show(a.accessibilityText)}`,
    record: (a) => ({
      details: { accessibilityText: a.accessibilityText },
      summary: `tap accessibility text ${show(a.accessibilityText)}`,
    }),
  }),
  longPressElementWithAccessibilityText: onScreenElement({
    // As upstream (Maestro's text matcher also reads accessibility text): the text as a pattern.
    find: (a, screen) => screen.findByText(textQuery(a.accessibilityText, a), "pattern"),
    index: (a) => indexOf(a.index),
    what: (a) => `accessibility text ${show(a.accessibilityText)}`,
    record: (a) => ({
      details: { accessibilityText: a.accessibilityText, longPress: true },
      summary: `long press accessibility text ${show(a.accessibilityText)}`,
    }),
  }),
  tapOnElementBySelector: onScreenElement({
    precheck: (a) => (a.nodeSelector === undefined && a.selector === undefined ? "give the nodeSelector of the element to tap" : undefined),
    // As upstream: the rich nodeSelector when a recording has both.
    find: (a, screen) => screen.resolve((a.nodeSelector ?? a.selector)!),
    what: (a) => `the element ${show(a.nodeSelector ?? a.selector)}`,
    record: (a) => ({
      details: {
        ...(a.nodeSelector !== undefined ? { nodeSelector: a.nodeSelector } : { selector: a.selector }),
        ...(a.longPress ? { longPress: true } : {}),
      },
      summary: `tap ${show(a.nodeSelector ?? a.selector)}${a.longPress ? " (long press)" : ""}`,
    }),
  }),
  tapOn: onScreenElement({
    find: (a, screen) => screen.resolve(a.selector),
    what: (a) => `the element ${show(a.selector)}`,
    record: (a) => ({
      details: {
        selector: a.selector,
        ...(a.relativePoint ? { relativePoint: a.relativePoint } : {}),
        ...(a.longPress ? { longPress: true } : {}),
      },
      summary: `tapOn ${show(a.selector)}`,
    }),
  }),
  tapOnAccessibilityNode: onScreenElement({
    precheck: (a) =>
      [a.contentDescriptionRegex, a.textRegex, a.classNameRegex, a.resourceIdRegex].every((v) => v === undefined)
        ? "give at least one of contentDescriptionRegex, textRegex, classNameRegex, resourceIdRegex"
        : undefined,
    find: (a, screen) => screen.resolve({ androidAccessibility: nodeRegexes(a) }),
    what: (a) => `the node ${show(nodeRegexes(a))}`,
    record: (a) => ({
      details: { ...nodeRegexes(a), ...(a.longPress ? { longPress: true } : {}) },
      summary: `tap node ${show(nodeRegexes(a))}`,
    }),
  }),
  scrollUntilTextIsVisible: onScreenElement({
    precheck: (a) => (!a.text && !a.textRegex && !a.id ? "give text, textRegex or id" : undefined),
    find: (a, screen) =>
      a.text
        ? screen.findByText({ text: a.text }, "pattern")
        : screen.resolve({ ...(a.textRegex ? { textRegex: a.textRegex } : {}), ...(a.id ? { idRegex: a.id } : {}) }),
    index: (a) => a.index,
    what: (a) => show(a.text || a.textRegex || a.id),
    record: (a) => ({
      details: { until: a.text || a.textRegex || a.id, direction: a.direction },
      summary: `scroll ${a.direction} until ${show(a.text || a.textRegex || a.id)}`,
    }),
  }),
};

function nodeRegexes(a: {
  contentDescriptionRegex?: string;
  textRegex?: string;
  classNameRegex?: string;
  resourceIdRegex?: string;
}): Record<string, string> {
  return Object.fromEntries(
    Object.entries({
      contentDescriptionRegex: a.contentDescriptionRegex,
      textRegex: a.textRegex,
      classNameRegex: a.classNameRegex,
      resourceIdRegex: a.resourceIdRegex,
    }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
}
