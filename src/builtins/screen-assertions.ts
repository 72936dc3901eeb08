// Checks of what the screen shows: visible / not visible by text, ref, selector,
// accessibility text or resource id, waypoints, matches. All go through `screenCheck`:
// unverified on a device with no screen loaded.

import { exceptionThrown, success, type Success } from "../core/tool-result.ts";
import { anyCase, bool, int, reasoning, selector, str, withDefault } from "./arg-types.ts";
import type { BuiltinRun, BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import {
  closestHint,
  isNode,
  nodeName,
  oneNode,
  screenCheck,
  textQuery,
  type DeviceScreen,
  type ScreenNode,
  type SelectorMatch,
} from "./screen-checks.ts";
import { show, SIMULATED_DEVICE_TOOLSET, type SimulatedDevice } from "./simulated-device.ts";

const meta = { "trailblaze/toolset": SIMULATED_DEVICE_TOOLSET };

/** The end of the description of a check whose run is `visibility`'s. */
const UNVERIFIED_CHECK = " Unverified without a screen.";

const filters = { enabled: bool().optional(), selected: bool().optional() };

export const SCREEN_ASSERTIONS = {
  assertVisible: {
    description:
      'Asserts that the element with ref `ref` (the id in square brackets in the screen outline, n12 from `[n12] Text "Total"`) is visible; with expectedText, that it shows exactly that text (trimmed): give it whenever the step asks for a value, leaving out what changes from run to run. Recorded as assertVisibleBySelector with the element\'s selector.' +
      UNVERIFIED_CHECK,
    args: () => ({ ref: str(1), expectedText: str().optional(), ...reasoning }),
    meta: { ...meta, "trailblaze/isRecordable": false },
  },
  assertVisibleWithText: {
    description: `Asserts that an element showing \`text\` (a regular expression) is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ text: str(1), index: withDefault(int(0), 0), id: str().optional(), ...filters }),
    meta,
  },
  assertNotVisibleWithText: {
    description: `Asserts that no element showing \`text\` (a regular expression) is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ text: str(1), index: withDefault(int(0), 0), id: str().optional(), ...filters }),
    meta,
  },
  assertVisibleBySelector: {
    description:
      "Asserts that the element `nodeSelector` finds is visible (expectedText compared by textMatchMode EXACT (default), PREFIX or REGEX, any case)." +
      UNVERIFIED_CHECK,
    args: () => ({
      reason: str().optional(),
      nodeSelector: selector().optional(),
      timeoutMs: int(0).optional(),
      expectedText: str().optional(),
      textMatchMode: withDefault(anyCase(["EXACT", "PREFIX", "REGEX"]), "EXACT"),
    }),
    meta,
  },
  assertNotVisibleBySelector: {
    description: `Asserts that nothing \`nodeSelector\` finds is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ reason: str().optional(), nodeSelector: selector().optional(), timeoutMs: int(0).optional() }),
    meta,
  },
  assertVisibleWithAccessibilityText: {
    description: `Asserts that an element with accessibility text \`accessibilityText\` is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ accessibilityText: str(1), id: str().optional(), index: withDefault(int(0), 0), ...filters }),
    meta,
  },
  assertVisibleWithResourceId: {
    description: `Asserts that an element with resource id \`resourceId\` is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ resourceId: str(1), accessibilityText: str().optional(), index: withDefault(int(0), 0), ...filters }),
    meta,
  },
  waitUntilNotVisible: {
    description: `Waits (up to timeoutMs) until nothing \`nodeSelector\` finds is visible.${UNVERIFIED_CHECK}`,
    args: () => ({ nodeSelector: selector(), timeoutMs: int(0).optional() }),
    meta,
  },
  assertWaypoint: {
    description:
      "Asserts that the screen is at waypoint `waypoint` (timeoutMs default 5000, pollIntervalMs default 250). Unverified without a screen.",
    args: () => ({ waypoint: str(1), timeoutMs: withDefault(int(0), 5000), pollIntervalMs: withDefault(int(1), 250) }),
    meta,
  },
  findMatches: {
    description:
      "Lists the elements `selector` finds (kind singleMatch, multipleMatches or noMatch, node ids, and upstream's match descriptors). Unverified without a screen.",
    args: () => ({ selector: selector(), timeoutMs: int(0).optional() }),
    meta,
  },
  requestDetailedViewHierarchy: {
    description: "Lists the full view hierarchy, off-screen elements included. Unverified without a screen.",
    args: () => ({ ...reasoning }),
    meta,
  },
} satisfies BuiltinTable;

interface VisibilityCheck<A> {
  /** true: the element must be there; false: it must not. */
  visible: boolean;
  find(args: A, screen: DeviceScreen): SelectorMatch;
  what(args: A): string;
  index?(args: A): number | undefined;
  /** Text the found element must show (after trimming), when the call asks for it. */
  expectedText?(args: A): { text: string; mode: "EXACT" | "PREFIX" | "REGEX" } | undefined;
  /** What a recording keeps instead of the call (a check by ref: the node named durably). */
  recordAs?(args: A, node: ScreenNode, screen: DeviceScreen): Success["recordAs"];
}

function textMatches(actual: string, expected: { text: string; mode: "EXACT" | "PREFIX" | "REGEX" }): boolean {
  const trimmed = actual.trim();
  if (expected.mode === "PREFIX") return trimmed.startsWith(expected.text.trim());
  if (expected.mode === "REGEX") return new RegExp(`^(?:${expected.text})$`).test(trimmed);
  return trimmed === expected.text.trim();
}

/** The run of a visibility check: on the loaded screen, else unverified. */
function visibility<A>(def: VisibilityCheck<A>): BuiltinRun<A, SimulatedDevice> {
  return (device, args, _context, tool) => {
    const what = def.what(args);
    return screenCheck(device, {
      wouldCheck: `that ${what} is ${def.visible ? "" : "not "}visible`,
      check: (screen) => {
        const match = def.find(args, screen);
        if (!def.visible) {
          return match.kind === "noMatch"
            ? success(`${what} is not visible`)
            : exceptionThrown(`${tool}: ${what} is visible (${match.nodes.map(nodeName).join(", ")})`);
        }
        const node = oneNode(tool, match, what, def.index?.(args));
        if (!isNode(node)) return node;
        const expected = def.expectedText?.(args);
        const shown = screen.textOf(node) ?? "";
        if (expected && !textMatches(shown, expected)) {
          return exceptionThrown(
            `${tool}: ${what} shows ${show(shown)}, expected ${expected.mode === "EXACT" ? "" : `${expected.mode.toLowerCase()} `}${show(expected.text)}`,
          );
        }
        const recordAs = def.recordAs?.(args, node, screen);
        return success(`${what} is visible (${nodeName(node)})`, recordAs ? { recordAs } : {});
      },
    });
  };
}

export const SCREEN_ASSERTION_RUNS: BuiltinRuns<typeof SCREEN_ASSERTIONS, SimulatedDevice> = {
  assertVisible: visibility({
    visible: true,
    find: (a, screen) => screen.findByRef(a.ref),
    what: (a) => `ref ${show(a.ref)}`,
    expectedText: (a) => (a.expectedText !== undefined ? { text: a.expectedText, mode: "EXACT" } : undefined),
    // As upstream's AssertVisibleTrailblazeTool: the check of the node's selector (and its text).
    recordAs: (a, node, screen) => {
      const nodeSelector = screen.selectorOf(node);
      if (!nodeSelector) return undefined;
      return {
        tool: "assertVisibleBySelector",
        args: {
          nodeSelector,
          ...(a.expectedText !== undefined ? { expectedText: a.expectedText } : {}),
          ...(a.reasoning ? { reason: a.reasoning } : {}),
        },
      };
    },
  }),
  assertVisibleWithText: visibility({
    visible: true,
    find: (a, screen) => screen.findByText(textQuery(a.text, a), "pattern"),
    index: (a) => a.index,
    what: (a) => show(a.text),
  }),
  assertNotVisibleWithText: visibility({
    visible: false,
    find: (a, screen) => screen.findByText(textQuery(a.text, a), "pattern"),
    what: (a) => show(a.text),
  }),
  assertVisibleBySelector: visibility({
    visible: true,
    find: (a, screen) => screen.resolve(a.nodeSelector ?? {}),
    what: (a) => `the element ${show(a.nodeSelector ?? {})}`,
    expectedText: (a) => (a.expectedText !== undefined ? { text: a.expectedText, mode: a.textMatchMode } : undefined),
  }),
  assertNotVisibleBySelector: visibility({
    visible: false,
    find: (a, screen) => screen.resolve(a.nodeSelector ?? {}),
    what: (a) => `the element ${show(a.nodeSelector ?? {})}`,
  }),
  assertVisibleWithAccessibilityText: visibility({
    visible: true,
    find: (a, screen) => screen.findByText(textQuery(a.accessibilityText, a), "pattern"),
    index: (a) => a.index,
    what: (a) => `accessibility text ${show(a.accessibilityText)}`,
  }),
  assertVisibleWithResourceId: visibility({
    visible: true,
    find: (a, screen) => screen.resolve({ idRegex: a.resourceId, ...(a.accessibilityText ? { textRegex: a.accessibilityText } : {}) }),
    index: (a) => a.index,
    what: (a) => `resource id ${show(a.resourceId)}`,
  }),
  waitUntilNotVisible: visibility({
    visible: false,
    find: (a, screen) => screen.resolve(a.nodeSelector),
    what: (a) => `the element ${show(a.nodeSelector)}`,
  }),
  assertWaypoint: (device, { waypoint }) =>
    screenCheck(device, {
      wouldCheck: `that the screen is at waypoint ${show(waypoint)}`,
      check: (screen) => {
        const { ok, detail } = screen.checkWaypoint(waypoint);
        return ok
          ? success(`at waypoint ${waypoint} (${detail})`)
          : exceptionThrown(`assertWaypoint: the screen is not at waypoint ${show(waypoint)}: ${detail}`);
      },
    }),
  findMatches: (device, { selector: wanted }) =>
    screenCheck(device, {
      wouldCheck: `what ${show(wanted)} finds`,
      check: (screen) => {
        const match = screen.resolve(wanted);
        return success(`${match.kind}: ${match.nodes.map(nodeName).join(", ") || `no nodes${closestHint(match)}`}`, {
          structuredContent: {
            kind: match.kind,
            nodeIds: match.nodes.map((n) => n.nodeId),
            matches: match.nodes.map((n) => n.match ?? { indexPath: [] }),
          },
        });
      },
    }),
  requestDetailedViewHierarchy: (device) =>
    screenCheck(device, {
      wouldCheck: "the full view hierarchy",
      check: (screen) => {
        const match = screen.resolve({});
        return success(`${match.nodes.length} elements`, { structuredContent: { nodeIds: match.nodes.map((n) => n.nodeId) } });
      },
    }),
};
