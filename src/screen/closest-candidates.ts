// For a failed match: the nodes whose text or id come closest to what was asked for, so an error
// can say `no node matches "Log in"; closest: #7 Button "Login" …`.

import { editDistance } from "../core/did-you-mean.ts";
import { nodeResourceId, nodeText, type Screen, type ScreenNode } from "./screen-model.ts";
import type { Selector } from "./selector.ts";

/** The strings a selector's own fields ask for (not its anchors'), regex syntax stripped; class names aside. */
export function wantedStrings(selector: Selector): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(selector.match?.fields ?? {})) {
    if (typeof value !== "string" || field === "classNameRegex") continue;
    const plain = value
      .replace(/\\Q|\\E/g, "")
      .replace(/\.\*|\\(.)|[\^$()[\]{}|?+*]/g, "$1")
      .trim();
    if (plain) out.push(plain);
  }
  return out;
}

function distance(wanted: string, candidate: string): number {
  const a = wanted.toLowerCase();
  const b = candidate.toLowerCase();
  if (a === b) return 0;
  if (b.includes(a) || a.includes(b)) return Math.abs(b.length - a.length) / Math.max(a.length, b.length);
  return editDistance(a, b) / Math.max(a.length, b.length);
}

function labels(node: ScreenNode): string[] {
  const out: string[] = [];
  for (const value of [nodeText(node.detail), nodeResourceId(node.detail), node.detail.contentDescription, node.detail.accessibilityText]) {
    if (typeof value === "string" && value.trim() !== "" && !out.includes(value)) out.push(value);
  }
  return out;
}

/** Up to `max` nodes closest to any of `wanted` (relative edit distance under 0.6), closest first. */
export function closestNodes(screen: Screen, wanted: readonly string[], max = 3): ScreenNode[] {
  if (wanted.length === 0) return [];
  const scored: { node: ScreenNode; score: number }[] = [];
  for (const node of screen.nodes) {
    const names = labels(node);
    if (names.length === 0) continue;
    const score = Math.min(...wanted.flatMap((w) => names.map((n) => distance(w, n))));
    if (score < 0.6) scored.push({ node, score });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, max)
    .map((s) => s.node);
}
