// Resolves a selector on a screen with upstream's semantics: childOf narrows the search to the
// parent matches' descendants; driver fields, spatial relations (against the anchor's first
// match) and containsChild/containsDescendants filter; matches sort top-to-bottom then
// left-to-right; index picks one. Result: singleMatch, multipleMatches or noMatch, with node ids.

import { matchesPattern, type PatternDialect } from "./text-pattern.ts";
import { nodeResourceId, nodeText, subtree, type Bounds, type DriverDetail, type Screen, type ScreenNode } from "./screen-model.ts";
import { RELATIONS, type DriverMatch, type Selector } from "./selector.ts";

export type MatchKind = "singleMatch" | "multipleMatches" | "noMatch";

export interface Resolution {
  kind: MatchKind;
  /** Matches in order (top-to-bottom, then left-to-right); the first is the one a tap uses. */
  nodes: ScreenNode[];
}

/** Nesting limit for relations, as upstream: deeper selectors match nothing. */
const MAX_DEPTH = 10;

const DEFAULT_TRUE = new Set(["isEnabled", "enabled"]);

function fieldValue(detail: DriverDetail, field: string): unknown {
  return detail[field] ?? undefined;
}

function patternSource(detail: DriverDetail, matcherField: string): string | undefined {
  if (matcherField === "textRegex") return nodeText(detail);
  const value = fieldValue(detail, matcherField.slice(0, -"Regex".length));
  return typeof value === "string" ? value : undefined;
}

function intSource(detail: DriverDetail, field: string): number | undefined {
  if (field === "collectionItemRowIndex" || field === "collectionItemColumnIndex") {
    const info = detail.collectionItemInfo as { rowIndex?: number; columnIndex?: number } | undefined;
    return field === "collectionItemRowIndex" ? info?.rowIndex : info?.columnIndex;
  }
  const value = fieldValue(detail, field);
  if (typeof value === "number") return value;
  return field === "nthIndex" || field === "inputType" ? 0 : undefined;
}

function matchesDriver(detail: DriverDetail, match: Exclude<DriverMatch, { driver: "legacy" }>): boolean {
  if (detail.class !== match.driver) return false;
  const dialect: PatternDialect = match.driver === "androidMaestro" || match.driver === "iosMaestro" ? "maestro" : "native";
  for (const [field, expected] of Object.entries(match.fields)) {
    if (field.endsWith("Regex")) {
      const text = patternSource(detail, field);
      if (text === undefined || !matchesPattern(expected as string, text, dialect)) return false;
    } else if (typeof expected === "boolean") {
      const actual = fieldValue(detail, field);
      if ((typeof actual === "boolean" ? actual : DEFAULT_TRUE.has(field)) !== expected) return false;
    } else if (typeof expected === "number") {
      if (intSource(detail, field) !== expected) return false;
    } else if (field === "customAction") {
      const actions = detail.customActions;
      if (!Array.isArray(actions) || !actions.includes(expected)) return false;
    } else if (fieldValue(detail, field) !== expected) {
      return false;
    }
  }
  return true;
}

/** A node's Maestro-style state, whichever driver captured it (legacy selectors read these). */
function legacyState(detail: DriverDetail, state: string): boolean {
  const flag = (field: string, fallback = false) => (typeof detail[field] === "boolean" ? (detail[field] as boolean) : fallback);
  switch (detail.class) {
    case "androidAccessibility":
    case "compose":
      if (state === "checked" && detail.class === "compose") return detail.toggleableState === "On";
      return flag(`is${state[0]!.toUpperCase()}${state.slice(1)}`, state === "enabled");
    case "androidMaestro":
    case "iosMaestro":
      return flag(state, state === "enabled");
    case "iosAxe":
      return state === "enabled" ? flag("enabled", true) : false;
    case "web":
      return state === "enabled";
  }
}

function matchesLegacy(node: ScreenNode, match: Extract<DriverMatch, { driver: "legacy" }>): boolean {
  const detail = node.detail;
  for (const [field, expected] of Object.entries(match.fields)) {
    if (field === "textRegex" || field === "idRegex") {
      const text = field === "textRegex" ? nodeText(detail) : nodeResourceId(detail);
      if (text === undefined || !matchesPattern(expected as string, text, "maestro")) return false;
    } else if (legacyState(detail, field) !== expected) {
      return false;
    }
  }
  if (match.size) {
    if (!node.bounds) return false;
    const tolerance = match.size.tolerance ?? 0;
    const { width, height } = match.size;
    if (width !== undefined && Math.abs(node.bounds.right - node.bounds.left - width) > tolerance) return false;
    if (height !== undefined && Math.abs(node.bounds.bottom - node.bounds.top - height) > tolerance) return false;
  }
  return true;
}

class Resolver {
  /** Anchors and parents resolve once per call, not once per candidate node. */
  readonly #memo = new Map<Selector, Resolution>();
  constructor(readonly screen: Screen) {}

  resolve(selector: Selector, depth: number): Resolution {
    if (depth > MAX_DEPTH) return { kind: "noMatch", nodes: [] };
    const known = this.#memo.get(selector);
    if (known) return known;
    let scope: ScreenNode[];
    if (selector.childOf) {
      const parents = this.resolve(selector.childOf, depth + 1);
      scope = parents.nodes.flatMap((parent) => subtree(parent).slice(1));
    } else {
      scope = this.screen.nodes;
    }
    const matched = scope.filter((node) => this.matches(node, selector, depth));
    const key = (b: Bounds | undefined, side: "top" | "left") => b?.[side] ?? Number.MAX_SAFE_INTEGER;
    matched.sort((a, b) => key(a.bounds, "top") - key(b.bounds, "top") || key(a.bounds, "left") - key(b.bounds, "left"));
    const nodes = selector.index === undefined ? matched : matched[selector.index] ? [matched[selector.index]!] : [];
    const result: Resolution = { kind: nodes.length === 0 ? "noMatch" : nodes.length === 1 ? "singleMatch" : "multipleMatches", nodes };
    this.#memo.set(selector, result);
    return result;
  }

  anchor(selector: Selector, depth: number): Bounds | undefined {
    return this.resolve(selector, depth + 1).nodes[0]?.bounds;
  }

  /** Everything but childOf and index, which act on the candidate set. */
  matches(node: ScreenNode, selector: Selector, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    const match = selector.match;
    if (match) {
      if (match.driver === "legacy" ? !matchesLegacy(node, match) : !matchesDriver(node.detail, match)) return false;
    }
    for (const relation of RELATIONS) {
      const inner = selector[relation];
      if (!inner || relation === "childOf" || relation === "containsChild") continue;
      const anchor = this.anchor(inner, depth);
      const b = node.bounds;
      if (!anchor || !b) return false;
      if (relation === "below" && !(b.top >= anchor.bottom)) return false;
      if (relation === "above" && !(b.bottom <= anchor.top)) return false;
      if (relation === "leftOf" && !(b.right <= anchor.left)) return false;
      if (relation === "rightOf" && !(b.left >= anchor.right)) return false;
    }
    if (selector.containsChild) {
      const child = selector.containsChild;
      if (!node.children.some((c) => this.matches(c, child, depth + 1))) return false;
    }
    if (selector.containsDescendants) {
      const descendants = subtree(node).slice(1);
      for (const wanted of selector.containsDescendants) {
        if (!descendants.some((d) => this.matches(d, wanted, depth + 1))) return false;
      }
    }
    return true;
  }
}

/** Resolves `selector` on `screen`. */
export function resolveSelector(screen: Screen, selector: Selector): Resolution {
  return new Resolver(screen).resolve(selector, 0);
}
