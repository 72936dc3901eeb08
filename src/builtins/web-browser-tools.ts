// The real browser's runs of the web_* tools (web-tool-definitions.ts), for the playwright-native
// driver with a browser: each acts on the session's WebPage; the checks (web-browser-checks.ts) pass
// or fail on what the page shows; nothing here is unverified. Tools with nothing real to do here
// (web_wait, web_requestDetails, playwright_desktop_launchGoose) are run by the simulated page
// (web-simulated.ts) in every session.

import type { WebPage } from "../browser/web-page.ts";
import { exceptionThrown, success } from "../core/tool-result.ts";
import type { BuiltinRuns } from "./define-builtin.ts";
import { BROWSER_CHECK_RUNS } from "./web-browser-checks.ts";
import { eventually, firstLine, onElement, show } from "./web-browser-element.ts";
import { parseCookies, type WEB_TOOLS } from "./web-tool-definitions.ts";

function navigated(before: string, after: string): string {
  return before === after
    ? ` The page URL is unchanged (${after}): the click may have updated the page in place.`
    : ` The page navigated to ${after}.`;
}

export const BROWSER_WEB_RUNS: Partial<BuiltinRuns<typeof WEB_TOOLS, WebPage>> = {
  web_navigate: async (web, { action, url }) => {
    const page = await web.page();
    try {
      if (action === "GOTO") {
        if (url === "") return exceptionThrown("web_navigate: GOTO needs a url");
        const resolved = web.resolveUrl(url);
        await page.goto(resolved);
        return success(page.url() === resolved ? `Navigated to ${page.url()}` : `Navigated to ${resolved} (now at ${page.url()})`, {
          structuredContent: { url: page.url() },
        });
      }
      const before = page.url();
      const response = action === "BACK" ? await page.goBack() : await page.goForward();
      if (response === null && page.url() === before)
        return exceptionThrown(`web_navigate: nothing to go ${action.toLowerCase()} to; the page is ${before}`);
      return success(`Navigated ${action.toLowerCase()} to ${page.url()}`, { structuredContent: { url: page.url() } });
    } catch (error) {
      return exceptionThrown(`web_navigate: ${firstLine(error)}`);
    }
  },
  web_currentUrl: async (web) => {
    const url = (await web.page()).url();
    return success(url, { structuredContent: { url } });
  },
  web_waitForUrl: async (web, { pattern, timeoutMs }) => {
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch (error) {
      return exceptionThrown(`web_waitForUrl: ${show(pattern)} is not a valid regular expression: ${(error as Error).message}`);
    }
    const page = await web.page();
    if (await eventually(async () => regex.test(page.url()), timeoutMs))
      return success(page.url(), { structuredContent: { url: page.url() } });
    return exceptionThrown(`web_waitForUrl: the page URL ${show(page.url())} did not match ${show(pattern)} within ${timeoutMs} ms`);
  },
  // As upstream: the event name anywhere in a request's URL or body (any case), polled up to timeoutMs, one scan at least.
  web_assertNetworkEvent: async (web, { eventName, timeoutMs }) => {
    const wanted = eventName.toLowerCase();
    let found: { url: string } | undefined;
    await eventually(async () => {
      found = web.requests.find((r) => r.url.toLowerCase().includes(wanted) || r.body.toLowerCase().includes(wanted));
      return found !== undefined;
    }, timeoutMs);
    if (found) return success(`Network event ${show(eventName)} seen in a request to ${found.url}.`);
    return exceptionThrown(
      `web_assertNetworkEvent: no request of this session carried ${show(eventName)} in its URL or body (${web.requests.length} requests seen, waited ${timeoutMs} ms)`,
    );
  },
  web_resize: async (web, { width, height }) => {
    await (await web.page()).setViewportSize({ width, height });
    return success(`Resized the viewport to ${width}x${height}.`);
  },
  web_pressKey: async (web, { key }) => {
    try {
      await (await web.page()).keyboard.press(key);
      return success(`Pressed ${key}.`);
    } catch (error) {
      return exceptionThrown(`web_pressKey: ${firstLine(error)}`);
    }
  },
  web_snapshot: async (web, { screenName }) => {
    const page = await web.page();
    const list = await web.elements();
    return success(`${screenName}: ${page.url()}\n${list.text}`, {
      structuredContent: { screenName, url: page.url(), elements: list.elements },
    });
  },
  web_applyCookies: async (web, { cookiesJson }) => {
    const list = parseCookies("web_applyCookies", cookiesJson);
    if (typeof list === "string") return exceptionThrown(list);
    try {
      await (await web.context()).addCookies(list as never);
    } catch (error) {
      return exceptionThrown(`web_applyCookies: ${firstLine(error)}`);
    }
    return success(`Applied ${list.length} cookie${list.length === 1 ? "" : "s"}.`);
  },
  web_getStorageState: async (web) => {
    const state = await (await web.context()).storageState();
    return success(JSON.stringify(state), { structuredContent: state as unknown as Record<string, unknown> });
  },
  web_evaluate: async (web, { script }) => {
    try {
      const value = await (await web.page()).evaluate(script);
      return success(value === undefined ? "undefined" : JSON.stringify(value), { structuredContent: { result: value ?? null } });
    } catch (error) {
      return exceptionThrown(`web_evaluate: ${firstLine(error)}`);
    }
  },
  web_fillSecret: (web, { ref, value }) =>
    onElement(
      web,
      "web_fillSecret",
      { ref },
      async (field, what) => (await field.first().fill(value, { timeout: web.findTimeoutMs }), success(`Filled ${what} with a secret.`)),
      true,
    ),
  web_click: (web, { ref, nodeSelector }) =>
    onElement(
      web,
      "web_click",
      { ref, nodeSelector },
      async (element, what) => {
        const page = await web.page();
        const before = page.url();
        await element.first().click({ timeout: web.findTimeoutMs });
        return success(`Clicked ${what}.${navigated(before, page.url())}`);
      },
      true,
    ),
  web_hover: (web, { ref, nodeSelector }) =>
    onElement(
      web,
      "web_hover",
      { ref, nodeSelector },
      async (element, what) => (await element.first().hover({ timeout: web.findTimeoutMs }), success(`Hovered over ${what}.`)),
      true,
    ),
  web_type: (web, { text, ref, nodeSelector, clearFirst }) =>
    onElement(
      web,
      "web_type",
      { ref, nodeSelector },
      async (field, what) => {
        if (clearFirst) await field.first().fill(text, { timeout: web.findTimeoutMs });
        else await field.first().pressSequentially(text, { timeout: web.findTimeoutMs });
        return success(`${clearFirst ? "Filled" : "Typed"} ${show(text)} into ${what}.`);
      },
      true,
    ),
  web_selectOption: (web, { values, ref, nodeSelector }) =>
    onElement(
      web,
      "web_selectOption",
      { ref, nodeSelector },
      async (select, what) => {
        const chosen = await select.first().selectOption(values, { timeout: web.findTimeoutMs });
        return success(`Selected ${values.join(", ")} in ${what}.`, { structuredContent: { selected: chosen } });
      },
      true,
    ),
  web_scroll: async (web, { direction, amount, ref, nodeSelector }) => {
    const [dx, dy] =
      direction === "DOWN" ? [0, amount] : direction === "UP" ? [0, -amount] : direction === "RIGHT" ? [amount, 0] : [-amount, 0];
    const page = await web.page();
    const wheel = async (what: string) => {
      await page.mouse.wheel(dx, dy);
      return success(`Scrolled ${what} ${direction} by ${amount} px.`);
    };
    if ((ref === undefined || ref.trim() === "") && nodeSelector === undefined) return wheel("the page");
    return onElement(
      web,
      "web_scroll",
      { ref, nodeSelector },
      async (container, what) => (await container.first().hover({ timeout: web.findTimeoutMs }), wheel(what)),
      true,
    );
  },
  ...BROWSER_CHECK_RUNS,
};
