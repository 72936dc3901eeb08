// Element addressing on a real page, as upstream's playwright-native tools do it: a `ref`
// (an element id of the page's element list, `css=…`, or an ARIA descriptor such as
// `button "Submit"`) and/or a `nodeSelector.web` (cssSelector, dataTestId, ariaRole with
// ariaNameRegex and nthIndex), the two raced with Locator.or when both are given.

import type { Locator, Page } from "playwright-core";
import { isAriaRole, type AriaElementList } from "./aria-elements.ts";

type Role = Parameters<Page["getByRole"]>[0];

/** What a tool names an element by. */
export interface ElementTarget {
  ref?: string | undefined;
  nodeSelector?: Record<string, unknown> | undefined;
}

/** Roles tried, in order, for a bare name (`Search Wikipedia`). */
const NAMED_ROLES: Role[] = ["textbox", "searchbox", "combobox", "button", "link", "checkbox", "radio", "tab", "menuitem", "option"];
const ELEMENT_ID = /^\[?(e\d+)\]?$/;

/** A regex written for a literal name (`\QA.B\E`, `^Name$`) back to the name. */
function literalName(regex: string): string {
  if (regex.startsWith("\\Q") && regex.endsWith("\\E")) return regex.slice(2, -2);
  return regex.replace(/^\^/, "").replace(/\$$/, "");
}

async function matches(locator: Locator): Promise<boolean> {
  return (await locator.count()) > 0;
}

/** An ARIA descriptor (`button "Submit"`, `navigation`, `textbox Email`, `text: Hello`, a bare name) as a locator. */
async function byDescriptor(page: Page, descriptor: string): Promise<Locator> {
  const text = descriptor.trim().replace(/\s+\[.*]$/, "");
  const role = (word: string): Role => word as Role;
  const quoted = /^(\w+)\s+"(.+)"$/.exec(text);
  if (quoted && isAriaRole(quoted[1]!)) return page.getByRole(role(quoted[1]!), { name: quoted[2]!, exact: true });
  if (isAriaRole(text)) return page.getByRole(role(text));
  const plain = /^text:\s*(.+)$/.exec(text);
  if (plain) return page.getByText(plain[1]!, { exact: true });
  const unquoted = /^(\w+)\s+(.+)$/.exec(text);
  if (unquoted && isAriaRole(unquoted[1]!)) {
    const locator = page.getByRole(role(unquoted[1]!), { name: unquoted[2]!.replace(/^'(.*)'$/, "$1"), exact: true });
    if (await matches(locator)) return locator;
  }
  for (const candidate of NAMED_ROLES) {
    const locator = page.getByRole(candidate, { name: text, exact: true });
    if (await matches(locator)) return locator;
  }
  const labelled = page.getByLabel(text, { exact: true });
  if (await matches(labelled)) return labelled;
  return page.getByText(text);
}

/** `nodeSelector.web` as a locator; undefined when it has no web matcher (e.g. `{ index: 2 }` alone). */
async function byNodeSelector(page: Page, nodeSelector: Record<string, unknown>): Promise<Locator | undefined> {
  const web = nodeSelector.web as Record<string, unknown> | undefined;
  if (typeof web !== "object" || web === null) return undefined;
  if (typeof web.cssSelector === "string") return page.locator(`css=${web.cssSelector}`);
  if (typeof web.dataTestId === "string") return page.locator(`[data-testid=${JSON.stringify(web.dataTestId)}]`);
  if (typeof web.ariaRole !== "string") return undefined;
  const locator = await byDescriptor(
    page,
    typeof web.ariaNameRegex === "string" ? `${web.ariaRole} "${literalName(web.ariaNameRegex)}"` : web.ariaRole,
  );
  return typeof web.nthIndex === "number" ? locator.nth(web.nthIndex) : locator;
}

/**
 * A `ref` as a locator: `css=…` as is, an element id (`e5`) through the page's element list
 * (its descriptor, then its occurrence), anything else as an ARIA descriptor.
 * `elements` is called only for an element id. Undefined for an element id the list does not hold.
 */
async function byRef(page: Page, ref: string, elements: () => Promise<AriaElementList>): Promise<Locator | undefined> {
  if (ref.startsWith("css=")) return page.locator(ref);
  const id = ELEMENT_ID.exec(ref.trim());
  if (id) {
    const element = (await elements()).elements.find((e) => e.ref === id[1]);
    return element ? (await byDescriptor(page, element.descriptor)).nth(element.nth) : undefined;
  }
  return byDescriptor(page, ref);
}

/** How a target is named in messages: `ref "e5"`, `nodeSelector {"web":{…}}`, or both. */
export function describeTarget(target: ElementTarget): string {
  const parts: string[] = [];
  if (target.ref !== undefined && target.ref.trim() !== "") parts.push(`ref ${JSON.stringify(target.ref)}`);
  if (target.nodeSelector !== undefined) parts.push(`nodeSelector ${JSON.stringify(target.nodeSelector)}`);
  return parts.join(" or ") || "no element";
}

/** What a tool says when nothing matched its target within `timeoutMs`. */
export const notFound = (target: ElementTarget, timeoutMs: number) =>
  `nothing on the page matches ${describeTarget(target)} (waited ${timeoutMs} ms; web_snapshot lists the page's elements)`;

/**
 * The element a tool acts on: the nodeSelector's and the ref's locators raced (Locator.or), waiting
 * up to `timeoutMs` for one to be attached (unless `wait` is false: an action that waits for its
 * element itself saves the round trip). Returns the locator, or a message saying what was not found.
 */
export async function locate(
  page: Page,
  target: ElementTarget,
  elements: () => Promise<AriaElementList>,
  timeoutMs: number,
  wait = true,
): Promise<Locator | string> {
  const ref = target.ref?.trim() ? target.ref : undefined;
  if (ref === undefined && target.nodeSelector === undefined) return "give the element's ref or nodeSelector";
  const fromSelector = target.nodeSelector ? await byNodeSelector(page, target.nodeSelector) : undefined;
  const fromRef = ref !== undefined ? await byRef(page, ref, elements) : undefined;
  const candidate = fromSelector && fromRef ? fromSelector.or(fromRef) : (fromSelector ?? fromRef);
  if (candidate === undefined) {
    if (ref !== undefined && ELEMENT_ID.test(ref.trim())) {
      const count = (await elements()).elements.length;
      return `the page has no element ${ref.trim()} (its element list has ${count}: e1…e${count}; web_snapshot lists them)${target.nodeSelector ? ", and the nodeSelector has no web matcher (cssSelector, dataTestId or ariaRole)" : ""}`;
    }
    return "the nodeSelector has no web matcher (cssSelector, dataTestId or ariaRole) and no ref is given";
  }
  if (!wait) return candidate;
  try {
    await candidate.first().waitFor({ state: "attached", timeout: timeoutMs });
    return candidate;
  } catch (error) {
    const message = (error as Error).message.split("\n")[0]!;
    return /Timeout/i.test(message) ? notFound(target, timeoutMs) : `could not look for ${describeTarget(target)}: ${message}`;
  }
}
