// Upstream's web_* tools on a real page (the playwright-native driver with a browser): each acts
// on the session's WebPage; the checks (web-browser-checks.ts) pass or fail on what the page shows; nothing here
// is unverified. Tools with nothing real to do here (web_wait, web_requestDetails,
// web_assertNetworkEvent, playwright_desktop_launchGoose) stay with the simulated page (web-tools.ts).

import type { WebPage } from "../browser/web-page.ts";
import { exceptionThrown, success } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { defineBuiltin } from "./define-builtin.ts";
import { parseCookies, WEB_ARGS, webMeta } from "./web-args.ts";
import { browserChecks } from "./web-browser-checks.ts";
import { eventually, firstLine, onElement, show } from "./web-browser-element.ts";

function navigated(before: string, after: string): string {
  return before === after ? ` The page URL is unchanged (${after}): the click may have updated the page in place.` : ` The page navigated to ${after}.`;
}

export function browserWebTools(web: WebPage): RegisteredTool[] {
  return [
    defineBuiltin({
      name: "web_navigate",
      description: "GOTO `url` (default action; a relative path resolves against the trail's folder, else the working directory), or BACK / FORWARD in the history (any case).",
      args: () => WEB_ARGS.web_navigate,
      meta: webMeta,
      run: async ({ action, url }) => {
        const page = await web.page();
        try {
          if (action === "GOTO") {
            if (url === "") return exceptionThrown("web_navigate: GOTO needs a url");
            const resolved = web.resolveUrl(url);
            await page.goto(resolved);
            return success(page.url() === resolved ? `Navigated to ${page.url()}` : `Navigated to ${resolved} (now at ${page.url()})`, { structuredContent: { url: page.url() } });
          }
          const before = page.url();
          const response = action === "BACK" ? await page.goBack() : await page.goForward();
          if (response === null && page.url() === before) return exceptionThrown(`web_navigate: nothing to go ${action.toLowerCase()} to; the page is ${before}`);
          return success(`Navigated ${action.toLowerCase()} to ${page.url()}`, { structuredContent: { url: page.url() } });
        } catch (error) {
          return exceptionThrown(`web_navigate: ${firstLine(error)}`);
        }
      },
    }),
    defineBuiltin({
      name: "web_currentUrl",
      description: "Returns the page's URL.",
      args: () => WEB_ARGS.web_currentUrl,
      meta: webMeta,
      run: async () => {
        const url = (await web.page()).url();
        return success(url, { structuredContent: { url } });
      },
    }),
    defineBuiltin({
      name: "web_waitForUrl",
      description: "Waits until the page's URL matches the regular expression `pattern` (timeoutMs default 30000).",
      args: () => WEB_ARGS.web_waitForUrl,
      meta: webMeta,
      run: async ({ pattern, timeoutMs }) => {
        let regex: RegExp;
        try {
          regex = new RegExp(pattern);
        } catch (error) {
          return exceptionThrown(`web_waitForUrl: ${show(pattern)} is not a valid regular expression: ${(error as Error).message}`);
        }
        const page = await web.page();
        if (await eventually(async () => regex.test(page.url()), timeoutMs)) return success(page.url(), { structuredContent: { url: page.url() } });
        return exceptionThrown(`web_waitForUrl: the page URL ${show(page.url())} did not match ${show(pattern)} within ${timeoutMs} ms`);
      },
    }),
    defineBuiltin({
      name: "web_resize",
      description: "Resizes the browser viewport to width x height CSS pixels.",
      args: () => WEB_ARGS.web_resize,
      meta: webMeta,
      run: async ({ width, height }) => {
        await (await web.page()).setViewportSize({ width, height });
        return success(`Resized the viewport to ${width}x${height}.`);
      },
    }),
    defineBuiltin({
      name: "web_pressKey",
      description: "Presses a key or combination (e.g. Enter, Control+A) on the focused element.",
      args: () => WEB_ARGS.web_pressKey,
      meta: webMeta,
      run: async ({ key }) => {
        try {
          await (await web.page()).keyboard.press(key);
          return success(`Pressed ${key}.`);
        } catch (error) {
          return exceptionThrown(`web_pressKey: ${firstLine(error)}`);
        }
      },
    }),
    defineBuiltin({
      name: "web_snapshot",
      description: "Lists the page's elements with their ids (e1, e2…: what `ref` names), as `screenName`.",
      args: () => WEB_ARGS.web_snapshot,
      meta: webMeta,
      run: async ({ screenName }) => {
        const page = await web.page();
        const list = await web.elements();
        return success(`${screenName}: ${page.url()}\n${list.text}`, { structuredContent: { screenName, url: page.url(), elements: list.elements } });
      },
    }),
    defineBuiltin({
      name: "web_applyCookies",
      description: "Adds cookies (`cookiesJson`: a cookie array or a storage-state object) to the session's browser context.",
      args: () => WEB_ARGS.web_applyCookies,
      meta: webMeta,
      run: async ({ cookiesJson }) => {
        const list = parseCookies("web_applyCookies", cookiesJson);
        if (typeof list === "string") return exceptionThrown(list);
        try {
          await (await web.context()).addCookies(list as never);
        } catch (error) {
          return exceptionThrown(`web_applyCookies: ${firstLine(error)}`);
        }
        return success(`Applied ${list.length} cookie${list.length === 1 ? "" : "s"}.`);
      },
    }),
    defineBuiltin({
      name: "web_getStorageState",
      description: "Returns the session's browser context storage state (cookies and local storage).",
      args: () => WEB_ARGS.web_getStorageState,
      meta: webMeta,
      run: async () => {
        const state = await (await web.context()).storageState();
        return success(JSON.stringify(state), { structuredContent: state as unknown as Record<string, unknown> });
      },
    }),
    defineBuiltin({
      name: "web_evaluate",
      description: "Runs JavaScript in the page and returns its result as JSON.",
      args: () => WEB_ARGS.web_evaluate,
      meta: { ...webMeta, "trailblaze/isForLlm": false },
      run: async ({ script }) => {
        try {
          const value = await (await web.page()).evaluate(script);
          return success(value === undefined ? "undefined" : JSON.stringify(value), { structuredContent: { result: value ?? null } });
        } catch (error) {
          return exceptionThrown(`web_evaluate: ${firstLine(error)}`);
        }
      },
    }),
    defineBuiltin({
      name: "web_fillSecret",
      description: "Fills the field `ref` with a secret `value` (never shown).",
      args: () => WEB_ARGS.web_fillSecret,
      meta: { ...webMeta, "trailblaze/isForLlm": false },
      run: ({ ref, value }) => onElement(web, "web_fillSecret", { ref }, async (field, what) => (await field.first().fill(value, { timeout: web.findTimeoutMs }), success(`Filled ${what} with a secret.`)), true),
    }),
    defineBuiltin({
      name: "web_click",
      description: "Clicks the element `ref` (element id such as e5, ARIA descriptor such as 'button \"Submit\"', or css=selector) or `nodeSelector`.",
      args: () => WEB_ARGS.web_click,
      meta: webMeta,
      run: ({ ref, nodeSelector }) =>
        onElement(web, "web_click", { ref, nodeSelector }, async (element, what) => {
          const page = await web.page();
          const before = page.url();
          await element.first().click({ timeout: web.findTimeoutMs });
          return success(`Clicked ${what}.${navigated(before, page.url())}`);
        }, true),
    }),
    defineBuiltin({
      name: "web_hover",
      description: "Hovers over the element `ref` or `nodeSelector`.",
      args: () => WEB_ARGS.web_hover,
      meta: webMeta,
      run: ({ ref, nodeSelector }) => onElement(web, "web_hover", { ref, nodeSelector }, async (element, what) => (await element.first().hover({ timeout: web.findTimeoutMs }), success(`Hovered over ${what}.`)), true),
    }),
    defineBuiltin({
      name: "web_type",
      description: "Types `text` into the element `ref` or `nodeSelector`: replaces its content (clearFirst, default true) or appends to it.",
      args: () => WEB_ARGS.web_type,
      meta: webMeta,
      run: ({ text, ref, nodeSelector, clearFirst }) =>
        onElement(web, "web_type", { ref, nodeSelector }, async (field, what) => {
          if (clearFirst) await field.first().fill(text, { timeout: web.findTimeoutMs });
          else await field.first().pressSequentially(text, { timeout: web.findTimeoutMs });
          return success(`${clearFirst ? "Filled" : "Typed"} ${show(text)} into ${what}.`);
        }, true),
    }),
    defineBuiltin({
      name: "web_selectOption",
      description: "Selects `values` (option values or labels) in the <select> `ref` or `nodeSelector`.",
      args: () => WEB_ARGS.web_selectOption,
      meta: webMeta,
      run: ({ values, ref, nodeSelector }) =>
        onElement(web, "web_selectOption", { ref, nodeSelector }, async (select, what) => {
          const chosen = await select.first().selectOption(values, { timeout: web.findTimeoutMs });
          return success(`Selected ${values.join(", ")} in ${what}.`, { structuredContent: { selected: chosen } });
        }, true),
    }),
    defineBuiltin({
      name: "web_scroll",
      description: "Scrolls the page, or the container `ref` / `nodeSelector` (the mouse over it), UP, DOWN (default), LEFT or RIGHT by `amount` pixels (default 500).",
      args: () => WEB_ARGS.web_scroll,
      meta: webMeta,
      run: async ({ direction, amount, ref, nodeSelector }) => {
        const [dx, dy] = direction === "DOWN" ? [0, amount] : direction === "UP" ? [0, -amount] : direction === "RIGHT" ? [amount, 0] : [-amount, 0];
        const page = await web.page();
        const wheel = async (what: string) => {
          await page.mouse.wheel(dx, dy);
          return success(`Scrolled ${what} ${direction} by ${amount} px.`);
        };
        if ((ref === undefined || ref.trim() === "") && nodeSelector === undefined) return wheel("the page");
        return onElement(web, "web_scroll", { ref, nodeSelector }, async (container, what) => (await container.first().hover({ timeout: web.findTimeoutMs }), wheel(what)), true);
      },
    }),
    ...browserChecks(web),
  ];
}
