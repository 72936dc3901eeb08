// The selector a recording keeps for one node of a screen (upstream's
// TrailblazeNodeSelectorGenerator, simplified): what the model acted on by ref (`tap n12`,
// `assertVisible n12`) is written as the node's own properties, so the recording still finds it
// when ids and positions move. The first of these that finds the node alone on the screen wins:
// one stable field (a developer id before text, text before a class name), two together, all of
// them, then all of them with the node's `index` among their matches. Each candidate is checked by
// resolving it on the screen, so what is returned always finds the node.

import { resolveSelector } from "./resolve-selector.ts";
import { type DriverClass, nodeText, type Screen, type ScreenNode } from "./screen-model.ts";
import { parseSelector } from "./selector.ts";

/** A node selector as recordings write it: `{ androidAccessibility: { resourceIdRegex: "…" } }`. */
export type RawNodeSelector = Record<string, unknown>;

/**
 * Per driver: the matcher fields tried, most stable first, each with where its value comes from
 * (`text` is the node's shown text, which is what a `textRegex` matches; any other name is the
 * detail field). A field whose matcher ends in `Regex` gets the value as a literal pattern.
 */
const FIELDS: Readonly<Record<DriverClass, readonly (readonly [matcher: string, source: string])[]>> = {
  androidAccessibility: [
    ["uniqueId", "uniqueId"],
    ["resourceIdRegex", "resourceId"],
    ["composeTestTagRegex", "composeTestTag"],
    ["textRegex", "text"],
    ["contentDescriptionRegex", "contentDescription"],
    ["hintTextRegex", "hintText"],
    ["classNameRegex", "className"],
  ],
  androidMaestro: [
    ["resourceIdRegex", "resourceId"],
    ["textRegex", "text"],
    ["accessibilityTextRegex", "accessibilityText"],
    ["hintTextRegex", "hintText"],
    ["classNameRegex", "className"],
  ],
  iosMaestro: [
    ["resourceIdRegex", "resourceId"],
    ["textRegex", "text"],
    ["accessibilityTextRegex", "accessibilityText"],
    ["hintTextRegex", "hintText"],
    ["classNameRegex", "className"],
  ],
  iosAxe: [
    ["uniqueId", "uniqueId"],
    ["labelRegex", "label"],
    ["valueRegex", "value"],
    ["titleRegex", "title"],
    ["typeRegex", "type"],
  ],
  compose: [
    ["testTag", "testTag"],
    ["textRegex", "text"],
    ["contentDescriptionRegex", "contentDescription"],
    ["role", "role"],
  ],
  web: [
    ["dataTestId", "dataTestId"],
    ["ariaNameRegex", "ariaName"],
    ["ariaRole", "ariaRole"],
    ["cssSelector", "cssSelector"],
  ],
};

/** A literal quoted as a pattern (Java's `\\Q…\\E`, which the screen's patterns read), so it matches exactly it. */
function quoted(text: string): string {
  return `\\Q${text.replaceAll("\\E", "\\E\\\\E\\Q")}\\E`;
}

/**
 * The node's matcher fields, most stable first: only those it has a (non-blank) value for. A
 * pattern field holds the value as written (a pattern always matches text equal to it, and reads
 * well: `com.app:id/save`), or with `quote`, quoted where it has characters a pattern reads
 * (`Items (2)` would also match `Items 2`).
 */
function fieldsOf(node: ScreenNode, quote: boolean): [string, string][] {
  const out: [string, string][] = [];
  for (const [matcher, source] of FIELDS[node.detail.class]) {
    const value = source === "text" ? textField(node) : node.detail[source];
    if (typeof value !== "string" || value.trim() === "") continue;
    const special = /[.*+?^${}()|[\]\\]/.test(value);
    out.push([matcher, quote && special && matcher.endsWith("Regex") ? quoted(value) : value]);
  }
  return out;
}

/** What `textRegex` matches is the node's shown text; offered only when the node has a `text` of its own (else the field it falls back to is tried by name). */
function textField(node: ScreenNode): string | undefined {
  const own = node.detail.text ?? node.detail.editableText;
  return typeof own === "string" ? nodeText(node.detail) : undefined;
}

/** Combinations of the fields to try, in order: each alone, each pair, all of them. */
function* combinations<T>(items: readonly T[]): Generator<T[]> {
  for (const item of items) yield [item];
  for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) yield [items[i]!, items[j]!];
  if (items.length > 2) yield [...items];
}

/** How `raw` resolves on `screen`: the matches in order, or undefined when it does not parse. */
function matchesOf(screen: Screen, raw: RawNodeSelector): ScreenNode[] | undefined {
  try {
    return resolveSelector(screen, parseSelector(raw, "generated selector", "node")).nodes;
  } catch {
    return undefined;
  }
}

/**
 * A node selector that finds `node` alone on `screen`, in upstream's `nodeSelector:` shape;
 * undefined when the node has no property to name it by (a bare container: record its point).
 */
export function nodeSelectorFor(screen: Screen, node: ScreenNode): RawNodeSelector | undefined {
  const driver = node.detail.class;
  const selectorOf = (chosen: [string, unknown][]): RawNodeSelector => ({ [driver]: Object.fromEntries(chosen) });
  let fields = fieldsOf(node, false);
  if (fields.length === 0) return undefined;
  for (const quote of [false, true]) {
    fields = fieldsOf(node, quote);
    for (const chosen of combinations(fields)) {
      const raw = selectorOf(chosen);
      const found = matchesOf(screen, raw);
      if (found?.length === 1 && found[0] === node) return raw;
    }
  }
  // Several nodes share every property: the node's place among them.
  const raw = selectorOf(fields);
  const index = matchesOf(screen, raw)?.indexOf(node) ?? -1;
  if (index < 0) return undefined;
  const indexed = { ...raw, index };
  const found = matchesOf(screen, indexed);
  return found?.length === 1 && found[0] === node ? indexed : undefined;
}
