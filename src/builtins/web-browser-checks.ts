// Upstream's web_verify* checks on a real page: each passes or fails on what the page shows, waiting
// up to the page's check timeout (5 s) for it to come true; never unverified.

import type { WebPage } from "../browser/web-page.ts";
import { exceptionThrown, success } from "../core/tool-result.ts";
import type { BuiltinRuns } from "./define-builtin.ts";
import { eventually, onElement, show } from "./web-browser-element.ts";
import type { WEB_TOOLS } from "./web-tool-definitions.ts";

type Checks = "web_verifyElementVisible" | "web_verifyTextVisible" | "web_verifyListVisible" | "web_verifyValue";

export const BROWSER_CHECK_RUNS: Pick<BuiltinRuns<typeof WEB_TOOLS, WebPage>, Checks> = {
  web_verifyElementVisible: (web, { ref, nodeSelector }) =>
    onElement(web, "web_verifyElementVisible", { ref, nodeSelector }, async (element, what) =>
      (await eventually(() => element.first().isVisible(), web.checkTimeoutMs))
        ? success(`Verified ${what} is visible.`)
        : exceptionThrown(`web_verifyElementVisible: ${what} is on the page but not visible (waited ${web.checkTimeoutMs} ms)`),
    ),
  web_verifyTextVisible: async (web, { text }) => {
    const found = (await web.page()).getByText(text).first();
    if (await eventually(() => found.isVisible(), web.checkTimeoutMs)) return success(`Verified ${show(text)} is visible on the page.`);
    return exceptionThrown(`web_verifyTextVisible: ${show(text)} is not visible on the page (waited ${web.checkTimeoutMs} ms)`);
  },
  web_verifyListVisible: (web, { items, ref, nodeSelector }) => {
    if (items.length === 0) return exceptionThrown("web_verifyListVisible: items is empty; give at least one expected item");
    return onElement(web, "web_verifyListVisible", { ref, nodeSelector }, async (list, what) => {
      const container = list.first();
      if (!(await eventually(() => container.isVisible(), web.checkTimeoutMs)))
        return exceptionThrown(`web_verifyListVisible: ${what} is not visible (waited ${web.checkTimeoutMs} ms)`);
      let missing: string[] = items;
      await eventually(async () => {
        const counts = await Promise.all(items.map((item) => container.getByText(item).count()));
        missing = items.filter((_, i) => counts[i] === 0);
        return missing.length === 0;
      }, web.checkTimeoutMs);
      if (missing.length > 0)
        return exceptionThrown(
          `web_verifyListVisible: ${what} is missing ${missing.map((m) => show(m)).join(", ")} (waited ${web.checkTimeoutMs} ms)`,
        );
      return success(`Verified ${what} shows all ${items.length} items.`);
    });
  },
  web_verifyValue: (web, { ref, nodeSelector, type, expected, attribute }) => {
    if (type === "ATTRIBUTE" && attribute === "")
      return Promise.resolve(exceptionThrown("web_verifyValue: type ATTRIBUTE needs the attribute name"));
    return onElement(web, "web_verifyValue", { ref, nodeSelector }, async (located, what) => {
      const element = located.first();
      const isField = () => element.evaluate((e) => ["INPUT", "TEXTAREA", "SELECT"].includes((e as { tagName: string }).tagName));
      const read = async (): Promise<string | null> => {
        if (type === "VALUE") return element.inputValue();
        if (type === "ATTRIBUTE") return element.getAttribute(attribute);
        return (await isField()) ? element.inputValue() : element.innerText();
      };
      let actual: string | null = null;
      const ok = await eventually(async () => {
        actual = await read();
        if (actual === null) return false;
        return type === "TEXT" && !(await isField()) ? actual.replace(/\s+/g, " ").includes(expected) : actual === expected;
      }, web.checkTimeoutMs);
      const label = type === "ATTRIBUTE" ? `attribute ${attribute}` : type.toLowerCase();
      if (ok) return success(`Verified the ${label} of ${what} is ${show(expected)}.`);
      return exceptionThrown(
        `web_verifyValue: the ${label} of ${what} is ${actual === null ? "not set" : show(actual)}, expected ${type === "TEXT" ? "it to contain " : ""}${show(expected)} (waited ${web.checkTimeoutMs} ms)`,
      );
    });
  },
};
