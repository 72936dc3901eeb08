// What the real-page web_* tools share: acting on one element (found, or a failure saying what was
// not), waiting for a condition, and an error's first line for messages.

import type { Locator } from "playwright-core";
import { describeTarget, notFound, type ElementTarget } from "../browser/locate.ts";
import type { WebPage } from "../browser/web-page.ts";
import { exceptionThrown, type ToolResult } from "../core/tool-result.ts";

export const show = (value: unknown): string => JSON.stringify(value);
export const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0]!.replace(/^\w+\.\w+: /, "");

/** Polls `check` until it is true or `timeoutMs` has passed (at least one try). */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A tool that acts on one element: found (or the failure says what was not), then `act`. An action
 * (`acts`) waits for its element itself, up to findTimeoutMs: a timeout with nothing matching is "not found".
 */
export function onElement(
  page: WebPage,
  tool: string,
  target: ElementTarget,
  act: (locator: Locator, what: string) => Promise<ToolResult>,
  acts = false,
): Promise<ToolResult> {
  return (async () => {
    const what = describeTarget(target);
    const found = await page.locate(target, !acts);
    if (typeof found === "string") return exceptionThrown(`${tool}: ${found}`);
    try {
      return await act(found, what);
    } catch (error) {
      const missing = acts && /Timeout/i.test(firstLine(error)) && (await found.count().catch(() => 1)) === 0;
      return exceptionThrown(`${tool}: ${missing ? notFound(target, page.findTimeoutMs) : `on ${what}: ${firstLine(error)}`}`);
    }
  })();
}
