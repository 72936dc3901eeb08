// Upstream's web_* (Playwright) tools, each defined once: what a session lists (name, description,
// arguments, `_meta`) is the same whether the simulated page (web-simulated.ts) or the real browser
// (web-browser-tools.ts, web-browser-checks.ts) answers a call. A description says what the tool
// does on a page, and what the simulated page does instead where that differs.

import { z } from "zod";
import { anyCase, bool, int, reasoning, selector, str, strings, withDefault } from "./arg-types.ts";
import type { BuiltinTable } from "./define-builtin.ts";

const web = { "trailblaze/toolset": "web_core", "trailblaze/supportedPlatforms": ["web"] };
const verification = { ...web, "trailblaze/toolset": "web_verification" };
const notForLlm = { ...web, "trailblaze/isForLlm": false };

/** How a web tool names an element: its `ref` and/or `nodeSelector`. */
const target = { ref: str().optional(), ...reasoning, nodeSelector: selector().optional() };

/** What the simulated page does instead, for a tool that acts on or checks an element (element-run.ts). */
const SIMULATED_ELEMENT = " Simulated page: only finds the element on the screen; unverified without one (the call is still recorded).";

export const WEB_TOOLS = {
  web_navigate: {
    description:
      "GOTO `url` (default action; a relative path resolves against the trail's folder, else the working directory), or BACK / FORWARD in the history (any case).",
    args: () => ({ action: withDefault(anyCase(["GOTO", "BACK", "FORWARD"]), "GOTO"), url: withDefault(str(), ""), ...reasoning }),
    meta: web,
  },
  web_currentUrl: {
    description: "Returns the page's URL.",
    args: () => ({}),
    meta: web,
  },
  web_waitForUrl: {
    description:
      "Waits until the page's URL matches the regular expression `pattern` (timeoutMs default 30000). The simulated page's URL changes only by navigation, so there it does not wait.",
    args: () => ({ pattern: str(1), timeoutMs: withDefault(int(0), 30_000) }),
    meta: web,
  },
  web_resize: {
    description: "Resizes the browser viewport to width x height CSS pixels.",
    args: () => ({ width: int(1), height: int(1), ...reasoning }),
    meta: web,
  },
  web_pressKey: {
    description: "Presses a key or combination (e.g. Enter, Control+A) on the focused element.",
    args: () => ({ key: str(1), ...reasoning }),
    meta: web,
  },
  web_wait: {
    description: "Waits `seconds` seconds (default 1, at least 1, at most 30).",
    args: () => ({ seconds: withDefault(int(), 1), ...reasoning }),
    meta: web,
  },
  web_snapshot: {
    description:
      "Lists the page's elements with their ids (e1, e2…: what `ref` names), as `screenName`. The simulated page records the name only.",
    args: () => ({ screenName: str(1), ...reasoning }),
    meta: web,
  },
  web_applyCookies: {
    description: "Adds cookies (`cookiesJson`: a cookie array or a storage-state object) to the session's browser context.",
    args: () => ({ cookiesJson: withDefault(str(), "") }),
    meta: web,
  },
  web_getStorageState: {
    description:
      "Returns the session's browser context storage state (cookies and local storage; on the simulated page, the cookies applied so far).",
    args: () => ({}),
    meta: web,
  },
  web_requestDetails: {
    description: "Asks for more detail (BOUNDS, CSS_SELECTORS, OFFSCREEN_ELEMENTS, OCCLUDED_ELEMENTS) in the next snapshot.",
    args: () => ({ include: z.array(anyCase(["BOUNDS", "CSS_SELECTORS", "OFFSCREEN_ELEMENTS", "OCCLUDED_ELEMENTS"])), ...reasoning }),
    meta: web,
  },
  web_assertNetworkEvent: {
    description:
      "Asserts that a request the session's pages sent carries `eventName` in its URL or body (any case), waiting up to timeoutMs (default 5000) for it. The simulated page sends no requests: unverified.",
    args: () => ({ eventName: str(1), timeoutMs: withDefault(int(0), 5000), ...reasoning }),
    meta: web,
  },
  web_evaluate: {
    description: "Runs JavaScript in the page and returns its result as JSON. The simulated page has nothing to run it in: unverified.",
    args: () => ({ script: str(1) }),
    meta: notForLlm,
  },
  web_fillSecret: {
    description:
      "Fills the field `ref` (element id, ARIA descriptor or css=selector) with a secret: write its placeholder as `value` (e.g. {{password}}). The value is never shown or logged; a secret goes into no other tool's arguments." +
      SIMULATED_ELEMENT,
    args: () => ({ ref: str(1), value: str() }),
    // Upstream offers it to the model (surface_to_llm: true); `value` is the one argument a secret may fill.
    meta: { ...web, "trailblaze/sensitiveArgs": ["value"] },
  },
  web_click: {
    description:
      "Clicks the element `ref` (element id such as e5, ARIA descriptor such as 'button \"Submit\"', or css=selector) or `nodeSelector`." +
      SIMULATED_ELEMENT,
    args: () => target,
    meta: web,
  },
  web_hover: {
    description: `Hovers over the element \`ref\` or \`nodeSelector\`.${SIMULATED_ELEMENT}`,
    args: () => target,
    meta: web,
  },
  web_type: {
    description:
      "Types `text` into the element `ref` or `nodeSelector`: replaces its content (clearFirst, default true) or appends to it." +
      SIMULATED_ELEMENT,
    args: () => ({ text: str(), ...target, clearFirst: withDefault(bool(), true) }),
    meta: web,
  },
  web_selectOption: {
    description: `Selects \`values\` (option values or labels) in the <select> \`ref\` or \`nodeSelector\`.${SIMULATED_ELEMENT}`,
    args: () => ({ values: strings(), ...target }),
    meta: web,
  },
  web_scroll: {
    description:
      "Scrolls the page, or the container `ref` / `nodeSelector` (the mouse over it), UP, DOWN (default), LEFT or RIGHT by `amount` pixels (default 500)." +
      SIMULATED_ELEMENT,
    args: () => ({ direction: withDefault(anyCase(["UP", "DOWN", "LEFT", "RIGHT"]), "DOWN"), amount: withDefault(int(), 500), ...target }),
    meta: web,
  },
  web_verifyElementVisible: {
    description: `Verifies that the element \`ref\` or \`nodeSelector\` is visible (waits up to 5 s).${SIMULATED_ELEMENT}`,
    args: () => target,
    meta: verification,
  },
  web_verifyTextVisible: {
    description: `Verifies that \`text\` is visible on the page (case-insensitive substring; waits up to 5 s).${SIMULATED_ELEMENT}`,
    args: () => ({ text: str(1), ...reasoning }),
    meta: verification,
  },
  web_verifyListVisible: {
    description: `Verifies that the list \`ref\` or \`nodeSelector\` is visible and shows each of \`items\`.${SIMULATED_ELEMENT}`,
    args: () => ({ items: strings(), ...target }),
    meta: verification,
  },
  web_verifyValue: {
    description:
      "Verifies the TEXT (default: contains, or the field's value equals), VALUE or ATTRIBUTE (any case) of the element `ref` or `nodeSelector` against `expected` (waits up to 5 s)." +
      SIMULATED_ELEMENT,
    args: () => ({
      ...target,
      type: withDefault(anyCase(["TEXT", "VALUE", "ATTRIBUTE"]), "TEXT"),
      expected: str(),
      attribute: withDefault(str(), ""),
    }),
    meta: verification,
  },
  playwright_desktop_launchGoose: {
    description: "Launches the Goose desktop app (Electron) and connects to it.",
    args: () => ({ ...reasoning }),
    meta: web,
  },
} satisfies BuiltinTable;

/** `cookiesJson` as a cookie list: a cookie array, or a storage state's `cookies`; else the problem. */
export function parseCookies(tool: string, cookiesJson: string): Record<string, unknown>[] | string {
  let parsed: unknown;
  try {
    parsed = cookiesJson.trim() === "" ? [] : JSON.parse(cookiesJson);
  } catch (error) {
    return `${tool}: cookiesJson is not JSON: ${(error as Error).message}`;
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { cookies?: unknown })?.cookies;
  if (!Array.isArray(list)) return `${tool}: cookiesJson should be a cookie array or a storage state with a cookies array`;
  return list as Record<string, unknown>[];
}
