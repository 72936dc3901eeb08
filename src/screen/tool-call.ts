// What a recorded or live tool call points at on a screen, by upstream's tool semantics: a
// selector (tapOnElementBySelector's nodeSelector or legacy selector, assertVisibleBySelector,
// findMatches), text (tapOnElementWithText: the text anywhere in the node's text, Maestro-style;
// assertVisibleWithText: the text as a Maestro pattern), a snapshot ref, a point, or a key press.

import { BUILTIN_TOOLS } from "../core/builtin-tools.ts";
import { parseSelector, type Selector } from "./selector.ts";

export type CallTarget =
  | { kind: "selector"; selector: Selector }
  | { kind: "point"; x: number; y: number }
  /** A snapshot ref (`tap`, `longPress`, `dragTo`, `assertVisible`, a web tool's element id): the node the screen shows it on. */
  | { kind: "ref"; ref: string }
  | { kind: "key"; key: string }
  | { kind: "none" };

/** Tools that tap or check a node by text, and how their text becomes a pattern (from the built-in table). */
const TEXT_TOOLS: Readonly<Record<string, "contains" | "pattern">> = Object.fromEntries(
  Object.entries(BUILTIN_TOOLS).flatMap(([name, info]) => (info.text ? [[name, info.text]] : [])),
);

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export interface TextQuery {
  text: string;
  index?: number;
  id?: string;
  enabled?: boolean;
  selected?: boolean;
}

/**
 * The legacy selector a text tool resolves with: `.*<text>.*` (the text anywhere, case-insensitive)
 * for taps, the text itself as a pattern for assertions; `id` is an idRegex; index 0 means none.
 */
export function textSelector(query: TextQuery, mode: "contains" | "pattern"): Selector {
  const raw: Record<string, unknown> = { textRegex: mode === "contains" ? `.*${escapeForPattern(query.text)}.*` : query.text };
  if (query.id !== undefined) raw.idRegex = query.id;
  if (query.enabled !== undefined) raw.enabled = query.enabled;
  if (query.selected !== undefined) raw.selected = query.selected;
  if (query.index !== undefined && query.index !== 0) raw.index = query.index;
  return parseSelector(raw, "text", "legacy");
}

function num(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** What the call acts on; `source` names it in selector errors. */
export function callTarget(name: string, args: Record<string, unknown>, source: string): CallTarget {
  const mode = TEXT_TOOLS[name];
  if (mode && typeof args.text === "string") {
    const query: TextQuery = { text: args.text };
    if (typeof args.index === "number") query.index = args.index;
    if (typeof args.id === "string") query.id = args.id;
    if (typeof args.enabled === "boolean") query.enabled = args.enabled;
    if (typeof args.selected === "boolean") query.selected = args.selected;
    return { kind: "selector", selector: textSelector(query, mode) };
  }
  if (args.nodeSelector != null) return { kind: "selector", selector: parseSelector(args.nodeSelector, `${source} nodeSelector`, "node") };
  if (args.selector != null && typeof args.selector === "object")
    return { kind: "selector", selector: parseSelector(args.selector, `${source} selector`) };
  if (typeof args.ref === "string" && args.ref.trim() !== "") return { kind: "ref", ref: args.ref };
  if (name === "pressBack" || name === "back") return { kind: "key", key: "BACK" };
  if (name === "pressKey" || name === "pressKeyCode") {
    const key = args.keyCode ?? args.key ?? args.code;
    return { kind: "key", key: String(key ?? "").toUpperCase() };
  }
  const x = num(args.x);
  const y = num(args.y);
  if (x !== undefined && y !== undefined) return { kind: "point", x, y };
  return { kind: "none" };
}
