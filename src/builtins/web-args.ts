// Upstream's web_* tool parameters and _meta, shared by the simulated page (web-tools.ts) and the
// real browser (web-browser-tools.ts): a tool has the same arguments whichever answers it.

import { z } from "zod";
import { anyCase, bool, int, reasoning, selector, str, strings, withDefault } from "./arg-types.ts";

export const webMeta = { "trailblaze/toolset": "web_core", "trailblaze/supportedPlatforms": ["web"] };
export const verificationMeta = { ...webMeta, "trailblaze/toolset": "web_verification" };

/** How a web tool names an element: its `ref` and/or `nodeSelector`. */
export const target = { ref: str().optional(), ...reasoning, nodeSelector: selector().optional() };

export const WEB_ARGS = {
  web_navigate: { action: withDefault(anyCase(["GOTO", "BACK", "FORWARD"]), "GOTO"), url: withDefault(str(), ""), ...reasoning },
  web_currentUrl: {},
  web_waitForUrl: { pattern: str(1), timeoutMs: withDefault(int(0), 30_000) },
  web_resize: { width: int(1), height: int(1), ...reasoning },
  web_pressKey: { key: str(1), ...reasoning },
  web_wait: { seconds: withDefault(int(), 1), ...reasoning },
  web_snapshot: { screenName: str(1), ...reasoning },
  web_applyCookies: { cookiesJson: withDefault(str(), "") },
  web_getStorageState: {},
  web_requestDetails: { include: z.array(anyCase(["BOUNDS", "CSS_SELECTORS", "OFFSCREEN_ELEMENTS", "OCCLUDED_ELEMENTS"])), ...reasoning },
  web_assertNetworkEvent: { eventName: str(1), timeoutMs: withDefault(int(0), 5000), ...reasoning },
  web_evaluate: { script: str(1) },
  web_fillSecret: { ref: str(1), value: str() },
  web_click: target,
  web_hover: target,
  web_type: { text: str(), ...target, clearFirst: withDefault(bool(), true) },
  web_selectOption: { values: strings(), ...target },
  web_scroll: { direction: withDefault(anyCase(["UP", "DOWN", "LEFT", "RIGHT"]), "DOWN"), amount: withDefault(int(), 500), ...target },
  web_verifyElementVisible: target,
  web_verifyTextVisible: { text: str(1), ...reasoning },
  web_verifyListVisible: { items: strings(), ...target },
  web_verifyValue: { ...target, type: withDefault(anyCase(["TEXT", "VALUE", "ATTRIBUTE"]), "TEXT"), expected: str(), attribute: withDefault(str(), "") },
} as const;

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
