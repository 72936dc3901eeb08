// The simulated page's runs of the web_* tools (web-tool-definitions.ts): navigation and the page
// URL, viewport, cookies and keys are kept on the simulated device; anything that finds an element
// on the page (click, type, verify…) is recorded, and unverified without a screen. A session with a
// real browser uses these for the tools it has nothing real to do for (BROWSER_WEB_RUNS lacks them).

import { exceptionThrown } from "../core/tool-result.ts";
import type { BuiltinRuns } from "./define-builtin.ts";
import { onScreenElement } from "./element-run.ts";
import { unverified, type DeviceScreen } from "./screen-checks.ts";
import { show, type SimulatedDevice } from "./simulated-device.ts";
import { parseCookies, type WEB_TOOLS } from "./web-tool-definitions.ts";

type Target = { ref?: string | undefined; nodeSelector?: Record<string, unknown> | undefined };

// The element runs below pass these through lambdas: a lambda's argument type comes from the tool's
// arguments (the run's expected type), where a named function would fix it to Target.

/** How a web element is named: its ref, else its nodeSelector. */
const element = (a: Target) =>
  a.ref !== undefined ? `ref ${show(a.ref)}` : a.nodeSelector ? `the element ${show(a.nodeSelector)}` : "the page";
const needsTarget = (a: Target) =>
  a.ref === undefined && a.nodeSelector === undefined ? "give the element's ref or nodeSelector" : undefined;
const findTarget = (a: Target, screen: DeviceScreen) =>
  a.ref !== undefined ? screen.findByRef(a.ref) : screen.resolve(a.nodeSelector ?? {});
const targetDetails = (a: Target) => (a.ref !== undefined ? { ref: a.ref } : { nodeSelector: a.nodeSelector });

function go(device: SimulatedDevice, url: string): void {
  const { page } = device;
  page.history.splice(page.position + 1, page.history.length, url);
  page.position = page.history.length - 1;
  page.url = url;
}

const scrollElement = onScreenElement<{ direction: string; amount: number } & Target>({
  find: findTarget,
  what: element,
  record: (a) => ({
    details: { direction: a.direction, amount: a.amount, ...targetDetails(a) },
    summary: `scroll ${element(a)} ${a.direction} ${a.amount} px`,
  }),
});

export const SIMULATED_WEB_RUNS: BuiltinRuns<typeof WEB_TOOLS, SimulatedDevice> = {
  web_navigate: (device, { action, url }) => {
    const { page } = device;
    if (action === "GOTO") {
      if (url === "") return exceptionThrown("web_navigate: GOTO needs a url");
      go(device, url);
    } else {
      const next = page.position + (action === "BACK" ? -1 : 1);
      if (next < 0 || next >= page.history.length) return exceptionThrown(`web_navigate: nothing to go ${action.toLowerCase()} to`);
      page.position = next;
      page.url = page.history[next];
    }
    return device.record(
      "web_navigate",
      { navigate: action, url: page.url },
      `${action === "GOTO" ? "navigate to" : action.toLowerCase()} ${page.url}`,
    );
  },
  web_currentUrl: (device) =>
    device.page.url === undefined
      ? exceptionThrown("web_currentUrl: no page is open; navigate first with web_navigate")
      : device.answer(device.page.url, { structuredContent: { url: device.page.url } }),
  web_waitForUrl: (device, { pattern }) => {
    const { page } = device;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch (error) {
      return exceptionThrown(`web_waitForUrl: ${show(pattern)} is not a valid regular expression: ${(error as Error).message}`);
    }
    if (page.url !== undefined && regex.test(page.url)) return device.answer(page.url, { structuredContent: { url: page.url } });
    return exceptionThrown(
      `web_waitForUrl: the page URL ${page.url === undefined ? "is not set (no page is open)" : show(page.url)} does not match ${show(pattern)}`,
    );
  },
  web_resize: (device, { width, height }) => {
    device.page.viewport = { width, height };
    return device.record("web_resize", { width, height }, `viewport ${width}x${height}`);
  },
  web_pressKey: (device, { key }) => device.record("web_pressKey", { key }, `press ${key}`),
  web_wait: async (device, { seconds }) => {
    const capped = Math.min(30, Math.max(1, seconds));
    await device.sleep(capped * 1000);
    return device.waited(`Waited ${capped} seconds.`);
  },
  web_snapshot: (device, { screenName }) => {
    device.snapshots.push(screenName);
    return device.record(
      "web_snapshot",
      { screenName },
      `snapshot ${show(screenName)}${device.screen ? "" : " (no screen loaded: nothing captured)"}`,
    );
  },
  web_applyCookies: (device, { cookiesJson }) => {
    const list = parseCookies("web_applyCookies", cookiesJson);
    if (typeof list === "string") return exceptionThrown(list);
    device.cookies.push(...list);
    return device.record("web_applyCookies", { cookies: list.length }, `applied ${list.length} cookie${list.length === 1 ? "" : "s"}`);
  },
  web_getStorageState: (device) => {
    const state = { cookies: device.cookies, origins: [] };
    return device.answer(JSON.stringify(state), { structuredContent: state });
  },
  web_requestDetails: (device, { include }) =>
    device.record("web_requestDetails", { include }, `next snapshot with ${include.join(", ") || "no extra detail"}`),
  web_assertNetworkEvent: (_device, { eventName }) => unverified("no network traffic is simulated", `would look for ${show(eventName)}`),
  web_evaluate: () => unverified("no page is simulated", "the script was not run"),
  // The value is never recorded or shown: only that a secret went into the field.
  web_fillSecret: onScreenElement({
    find: (a, screen) => screen.findByRef(a.ref),
    what: (a) => `ref ${show(a.ref)}`,
    record: (a) => ({ details: { ref: a.ref }, summary: `fill ref ${show(a.ref)} with a secret` }),
  }),
  web_click: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({ details: targetDetails(a), summary: `click ${element(a)}` }),
  }),
  web_hover: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({ details: targetDetails(a), summary: `hover ${element(a)}` }),
  }),
  web_type: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({
      details: { text: a.text, ...targetDetails(a), clearFirst: a.clearFirst },
      summary: `type ${show(a.text)} into ${element(a)}`,
    }),
  }),
  web_selectOption: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({ details: { values: a.values, ...targetDetails(a) }, summary: `select ${a.values.join(", ")} in ${element(a)}` }),
  }),
  // Scrolling the page needs no screen (it is recorded); scrolling a container has to find it.
  web_scroll: (device, args, context, tool) => {
    if (args.ref !== undefined || args.nodeSelector !== undefined) return scrollElement(device, args, context, tool);
    return device.record(tool, { direction: args.direction, amount: args.amount }, `scroll the page ${args.direction} ${args.amount} px`);
  },
  web_verifyElementVisible: onScreenElement({
    precheck: (a) => needsTarget(a),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({ details: targetDetails(a), summary: `verify ${element(a)} is visible` }),
  }),
  web_verifyTextVisible: onScreenElement({
    find: (a, screen) => screen.findByText({ text: a.text }, "contains"),
    what: (a) => show(a.text),
    record: (a) => ({ details: { text: a.text }, summary: `verify ${show(a.text)} is visible` }),
  }),
  web_verifyListVisible: onScreenElement({
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({ details: { items: a.items }, summary: `verify ${element(a)} lists ${a.items.join(", ")}` }),
  }),
  web_verifyValue: onScreenElement({
    precheck: (a) =>
      needsTarget(a) ?? (a.type === "ATTRIBUTE" && a.attribute === "" ? "type ATTRIBUTE needs the attribute name" : undefined),
    find: (a, screen) => findTarget(a, screen),
    what: (a) => element(a),
    record: (a) => ({
      details: { type: a.type, expected: a.expected },
      summary: `verify ${a.type.toLowerCase()} of ${element(a)} is ${show(a.expected)}`,
    }),
  }),
  playwright_desktop_launchGoose: (device) => {
    device.foregroundApp = "goose";
    return device.record("playwright_desktop_launchGoose", { app: "goose" }, "launched Goose");
  },
};
