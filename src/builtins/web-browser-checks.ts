// Upstream's web_verify* checks on a real page: each passes or fails on what the page shows, waiting
// up to the page's check timeout (5 s) for it to come true; never unverified.

import type { WebPage } from "../browser/web-page.ts";
import { exceptionThrown, success } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { defineBuiltin } from "./define-builtin.ts";
import { verificationMeta, WEB_ARGS } from "./web-args.ts";
import { eventually, onElement, show } from "./web-browser-element.ts";

export function browserChecks(web: WebPage): RegisteredTool[] {
  const checkMs = web.checkTimeoutMs;
  return [
    defineBuiltin({
      name: "web_verifyElementVisible",
      description: "Verifies that the element `ref` or `nodeSelector` is visible (waits up to 5 s).",
      args: () => WEB_ARGS.web_verifyElementVisible,
      meta: verificationMeta,
      run: ({ ref, nodeSelector }) =>
        onElement(web, "web_verifyElementVisible", { ref, nodeSelector }, async (element, what) =>
          (await eventually(() => element.first().isVisible(), checkMs)) ? success(`Verified ${what} is visible.`) : exceptionThrown(`web_verifyElementVisible: ${what} is on the page but not visible (waited ${checkMs} ms)`),
        ),
    }),
    defineBuiltin({
      name: "web_verifyTextVisible",
      description: "Verifies that `text` is visible on the page (case-insensitive substring; waits up to 5 s).",
      args: () => WEB_ARGS.web_verifyTextVisible,
      meta: verificationMeta,
      run: async ({ text }) => {
        const found = (await web.page()).getByText(text).first();
        if (await eventually(() => found.isVisible(), checkMs)) return success(`Verified ${show(text)} is visible on the page.`);
        return exceptionThrown(`web_verifyTextVisible: ${show(text)} is not visible on the page (waited ${checkMs} ms)`);
      },
    }),
    defineBuiltin({
      name: "web_verifyListVisible",
      description: "Verifies that the list `ref` or `nodeSelector` is visible and shows each of `items`.",
      args: () => WEB_ARGS.web_verifyListVisible,
      meta: verificationMeta,
      run: ({ items, ref, nodeSelector }) => {
        if (items.length === 0) return exceptionThrown("web_verifyListVisible: items is empty; give at least one expected item");
        return onElement(web, "web_verifyListVisible", { ref, nodeSelector }, async (list, what) => {
          const container = list.first();
          if (!(await eventually(() => container.isVisible(), checkMs))) return exceptionThrown(`web_verifyListVisible: ${what} is not visible (waited ${checkMs} ms)`);
          let missing: string[] = items;
          await eventually(async () => {
            const counts = await Promise.all(items.map((item) => container.getByText(item).count()));
            missing = items.filter((_, i) => counts[i] === 0);
            return missing.length === 0;
          }, checkMs);
          if (missing.length > 0) return exceptionThrown(`web_verifyListVisible: ${what} is missing ${missing.map((m) => show(m)).join(", ")} (waited ${checkMs} ms)`);
          return success(`Verified ${what} shows all ${items.length} items.`);
        });
      },
    }),
    defineBuiltin({
      name: "web_verifyValue",
      description: "Verifies the TEXT (default: contains, or the field's value equals), VALUE or ATTRIBUTE (any case) of the element `ref` or `nodeSelector` against `expected` (waits up to 5 s).",
      args: () => WEB_ARGS.web_verifyValue,
      meta: verificationMeta,
      run: ({ ref, nodeSelector, type, expected, attribute }) => {
        if (type === "ATTRIBUTE" && attribute === "") return Promise.resolve(exceptionThrown("web_verifyValue: type ATTRIBUTE needs the attribute name"));
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
          }, checkMs);
          const label = type === "ATTRIBUTE" ? `attribute ${attribute}` : type.toLowerCase();
          if (ok) return success(`Verified the ${label} of ${what} is ${show(expected)}.`);
          return exceptionThrown(`web_verifyValue: the ${label} of ${what} is ${actual === null ? "not set" : show(actual)}, expected ${type === "TEXT" ? "it to contain " : ""}${show(expected)} (waited ${checkMs} ms)`);
        });
      },
    }),
  ];
}
