// Upstream's web_* (Playwright) tools for web sessions: navigation and the page URL,
// viewport, cookies and keys are simulated; anything that finds an element on the page
// (click, type, verify…) is recorded and unverified without a screen.

import { exceptionThrown, success } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { reasoning } from "./arg-types.ts";
import { defineBuiltin } from "./define-builtin.ts";
import { parseCookies, verificationMeta, WEB_ARGS, webMeta as web } from "./web-args.ts";
import { elementTool } from "./element-actions.ts";
import { unverified, type DeviceScreen } from "./screen-checks.ts";
import { show, type SimulatedDevice } from "./simulated-device.ts";


/** How a web element is named: its ref, else its nodeSelector. */
const element = (a: { ref?: string; nodeSelector?: Record<string, unknown> }) => (a.ref !== undefined ? `ref ${show(a.ref)}` : a.nodeSelector ? `the element ${show(a.nodeSelector)}` : "the page");
const needsTarget = (a: { ref?: string; nodeSelector?: Record<string, unknown> }) => (a.ref === undefined && a.nodeSelector === undefined ? "give the element's ref or nodeSelector" : undefined);
const findTarget = (a: { ref?: string; nodeSelector?: Record<string, unknown> }, screen: DeviceScreen) => (a.ref !== undefined ? screen.findByRef(a.ref) : screen.resolve(a.nodeSelector ?? {}));

/**
 * A tool that acts on the whole page unless given an element: scrolling the page needs no
 * screen (it is recorded); scrolling a container has to find it (see elementTool).
 */
function pageOrElement(device: SimulatedDevice, onElement: RegisteredTool): RegisteredTool {
  return {
    ...onElement,
    invoke: (call) => {
      const { ref, nodeSelector, direction = "DOWN", amount = 500 } = call.args as { ref?: unknown; nodeSelector?: unknown; direction?: unknown; amount?: unknown };
      if (ref !== undefined || nodeSelector !== undefined || onElement.checkArgs!(call.args).length > 0) return onElement.invoke(call);
      const dir = String(direction).trim().toUpperCase();
      return Promise.resolve(device.record(onElement.name, { direction: dir, amount: Number(amount) }, `scroll the page ${dir} ${Number(amount)} px`));
    },
  };
}

export function webTools(device: SimulatedDevice): RegisteredTool[] {
  const page = device.page;
  const go = (url: string) => {
    page.history.splice(page.position + 1, page.history.length, url);
    page.position = page.history.length - 1;
    page.url = url;
  };
  return [
    defineBuiltin({
      name: "web_navigate",
      description: "GOTO `url` (default action), or BACK / FORWARD in the history (any case).",
      args: () => WEB_ARGS.web_navigate,
      meta: web,
      run: ({ action, url }) => {
        if (action === "GOTO") {
          if (url === "") return exceptionThrown("web_navigate: GOTO needs a url");
          go(url);
        } else {
          const next = page.position + (action === "BACK" ? -1 : 1);
          if (next < 0 || next >= page.history.length) return exceptionThrown(`web_navigate: nothing to go ${action.toLowerCase()} to`);
          page.position = next;
          page.url = page.history[next];
        }
        return device.record("web_navigate", { navigate: action, url: page.url }, `${action === "GOTO" ? "navigate to" : action.toLowerCase()} ${page.url}`);
      },
    }),
    defineBuiltin({
      name: "web_currentUrl",
      description: "Returns the page's URL.",
      args: () => WEB_ARGS.web_currentUrl,
      meta: web,
      run: () => (page.url === undefined ? exceptionThrown("web_currentUrl: no page is open; navigate first with web_navigate") : success(page.url, { structuredContent: { url: page.url } })),
    }),
    defineBuiltin({
      name: "web_waitForUrl",
      description: "Succeeds when the page's URL matches the regular expression `pattern` (timeoutMs default 30000); the simulated URL changes only by navigation, so it does not wait.",
      args: () => WEB_ARGS.web_waitForUrl,
      meta: web,
      run: ({ pattern }) => {
        let regex: RegExp;
        try {
          regex = new RegExp(pattern);
        } catch (error) {
          return exceptionThrown(`web_waitForUrl: ${show(pattern)} is not a valid regular expression: ${(error as Error).message}`);
        }
        if (page.url !== undefined && regex.test(page.url)) return success(page.url, { structuredContent: { url: page.url } });
        return exceptionThrown(`web_waitForUrl: the page URL ${page.url === undefined ? "is not set (no page is open)" : show(page.url)} does not match ${show(pattern)}`);
      },
    }),
    defineBuiltin({
      name: "web_resize",
      description: "Resizes the browser viewport to width x height CSS pixels.",
      args: () => WEB_ARGS.web_resize,
      meta: web,
      run: ({ width, height }) => {
        page.viewport = { width, height };
        return device.record("web_resize", { width, height }, `viewport ${width}x${height}`);
      },
    }),
    defineBuiltin({
      name: "web_pressKey",
      description: "Presses a key or combination (e.g. Enter, Control+A).",
      args: () => WEB_ARGS.web_pressKey,
      meta: web,
      run: ({ key }) => device.record("web_pressKey", { key }, `press ${key}`),
    }),
    defineBuiltin({
      name: "web_wait",
      description: "Waits `seconds` seconds (default 1, at least 1, at most 30).",
      args: () => WEB_ARGS.web_wait,
      meta: web,
      run: async ({ seconds }) => {
        const capped = Math.min(30, Math.max(1, seconds));
        await device.sleep(capped * 1000);
        return success(`Waited ${capped} seconds.`);
      },
    }),
    defineBuiltin({
      name: "web_snapshot",
      description: "Saves a snapshot of the page as `screenName`.",
      args: () => WEB_ARGS.web_snapshot,
      meta: web,
      run: ({ screenName }) => {
        device.snapshots.push(screenName);
        return device.record("web_snapshot", { screenName }, `snapshot ${show(screenName)}${device.screen ? "" : " (no screen loaded: nothing captured)"}`);
      },
    }),
    defineBuiltin({
      name: "web_applyCookies",
      description: "Adds cookies (`cookiesJson`: a cookie array or a storage-state object) to the browser context.",
      args: () => WEB_ARGS.web_applyCookies,
      meta: web,
      run: ({ cookiesJson }) => {
        const list = parseCookies("web_applyCookies", cookiesJson);
        if (typeof list === "string") return exceptionThrown(list);
        device.cookies.push(...list);
        return device.record("web_applyCookies", { cookies: list.length }, `applied ${list.length} cookie${list.length === 1 ? "" : "s"}`);
      },
    }),
    defineBuiltin({
      name: "web_getStorageState",
      description: "Returns the browser context's storage state (the cookies applied so far).",
      args: () => WEB_ARGS.web_getStorageState,
      meta: web,
      run: () => {
        const state = { cookies: device.cookies, origins: [] };
        return success(JSON.stringify(state), { structuredContent: state });
      },
    }),
    defineBuiltin({
      name: "web_requestDetails",
      description: "Asks for more detail (BOUNDS, CSS_SELECTORS, OFFSCREEN_ELEMENTS, OCCLUDED_ELEMENTS) in the next snapshot.",
      args: () => WEB_ARGS.web_requestDetails,
      meta: web,
      run: ({ include }) => device.record("web_requestDetails", { include }, `next snapshot with ${include.join(", ") || "no extra detail"}`),
    }),
    defineBuiltin({
      name: "web_assertNetworkEvent",
      description: "Asserts that `eventName` appeared in the session's network traffic (timeoutMs default 5000). The simulated session has no traffic: unverified.",
      args: () => WEB_ARGS.web_assertNetworkEvent,
      meta: web,
      run: ({ eventName }) => unverified("no network traffic is simulated", `would look for ${show(eventName)}`),
    }),
    defineBuiltin({
      name: "web_evaluate",
      description: "Runs JavaScript in the page. The simulated session has no page to run it in: unverified.",
      args: () => WEB_ARGS.web_evaluate,
      meta: { ...web, "trailblaze/isForLlm": false },
      run: () => unverified("no page is simulated", "the script was not run"),
    }),
    defineBuiltin({
      name: "web_fillSecret",
      description: "Fills the field `ref` with a secret `value` (never shown).",
      args: () => WEB_ARGS.web_fillSecret,
      meta: { ...web, "trailblaze/isForLlm": false },
      run: ({ ref }) => device.record("web_fillSecret", { ref, value: "***" }, `filled ref ${show(ref)} with a secret`),
    }),
    elementTool(device, {
      name: "web_click",
      description: "Clicks the element `ref` (element id, ARIA descriptor or css=selector) or `nodeSelector`.",
      args: () => WEB_ARGS.web_click,
      meta: web,
      precheck: needsTarget,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }, summary: `click ${element(a)}` }),
    }),
    elementTool(device, {
      name: "web_hover",
      description: "Hovers over the element `ref` or `nodeSelector`.",
      args: () => WEB_ARGS.web_hover,
      meta: web,
      precheck: needsTarget,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }, summary: `hover ${element(a)}` }),
    }),
    elementTool(device, {
      name: "web_type",
      description: "Types `text` into the element `ref` or `nodeSelector` (clearFirst default true).",
      args: () => WEB_ARGS.web_type,
      meta: web,
      precheck: needsTarget,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: { text: a.text, ...(a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }), clearFirst: a.clearFirst }, summary: `type ${show(a.text)} into ${element(a)}` }),
    }),
    elementTool(device, {
      name: "web_selectOption",
      description: "Selects `values` in the <select> `ref` or `nodeSelector`.",
      args: () => WEB_ARGS.web_selectOption,
      meta: web,
      precheck: needsTarget,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: { values: a.values, ...(a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }) }, summary: `select ${a.values.join(", ")} in ${element(a)}` }),
    }),
    pageOrElement(
      device,
      elementTool(device, {
        name: "web_scroll",
        description: "Scrolls the page (or the container `ref` / `nodeSelector`) UP, DOWN (default), LEFT or RIGHT by `amount` pixels (default 500).",
        args: () => WEB_ARGS.web_scroll,
        meta: web,
        find: (a, screen) => findTarget(a, screen),
        what: element,
        record: (a) => ({ details: { direction: a.direction, amount: a.amount, ...(a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }) }, summary: `scroll ${element(a)} ${a.direction} ${a.amount} px` }),
      }),
    ),
    elementTool(device, {
      name: "web_verifyElementVisible",
      description: "Verifies that the element `ref` or `nodeSelector` is visible.",
      args: () => WEB_ARGS.web_verifyElementVisible,
      meta: verificationMeta,
      precheck: needsTarget,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector }, summary: `verify ${element(a)} is visible` }),
    }),
    elementTool(device, {
      name: "web_verifyTextVisible",
      description: "Verifies that `text` is visible on the page.",
      args: () => WEB_ARGS.web_verifyTextVisible,
      meta: verificationMeta,
      find: (a, screen) => screen.findByText({ text: a.text }, "contains"),
      what: (a) => show(a.text),
      record: (a) => ({ details: { text: a.text }, summary: `verify ${show(a.text)} is visible` }),
    }),
    elementTool(device, {
      name: "web_verifyListVisible",
      description: "Verifies that the list `ref` or `nodeSelector` shows `items`.",
      args: () => WEB_ARGS.web_verifyListVisible,
      meta: verificationMeta,
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: { items: a.items }, summary: `verify ${element(a)} lists ${a.items.join(", ")}` }),
    }),
    elementTool(device, {
      name: "web_verifyValue",
      description: "Verifies the TEXT (default), VALUE or ATTRIBUTE (any case) of the element `ref` or `nodeSelector` equals `expected`.",
      args: () => WEB_ARGS.web_verifyValue,
      meta: verificationMeta,
      precheck: (a) => needsTarget(a) ?? (a.type === "ATTRIBUTE" && a.attribute === "" ? "type ATTRIBUTE needs the attribute name" : undefined),
      find: (a, screen) => findTarget(a, screen),
      what: element,
      record: (a) => ({ details: { type: a.type, expected: a.expected }, summary: `verify ${a.type.toLowerCase()} of ${element(a)} is ${show(a.expected)}` }),
    }),
    defineBuiltin({
      name: "playwright_desktop_launchGoose",
      description: "Launches the Goose desktop app (Electron) and connects to it.",
      args: () => ({ ...reasoning }),
      meta: web,
      run: () => {
        device.foregroundApp = "goose";
        return device.record("playwright_desktop_launchGoose", { app: "goose" }, "launched Goose");
      },
    }),
  ];
}
