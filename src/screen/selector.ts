// Selectors as recordings and waypoints write them, parsed into one checked form: upstream's
// TrailblazeNodeSelector (`{androidAccessibility: {textRegex…}, childOf: {…}, index: 1}`, what
// `nodeSelector:` holds) and the legacy Maestro-style TrailblazeElementSelector
// (`{textRegex, idRegex, index: "1", childOf: {…}}`, what older recordings' `selector:` holds).

import { didYouMean } from "../core/did-you-mean.ts";
import { SelectorError } from "../errors.ts";
import { DRIVER_CLASSES, type DriverClass } from "./screen-model.ts";
import { isPlainMap } from "../core/describe.ts";

/** How a matcher field compares: a text pattern, exact string/number/boolean equality, or list membership. */
type FieldKind = "pattern" | "string" | "boolean" | "int" | "member";

/** Every matcher field of every driver, with how it compares (upstream's DriverNodeMatch*). */
const MATCH_FIELDS: Record<DriverClass, Record<string, FieldKind>> = {
  androidAccessibility: {
    classNameRegex: "pattern",
    resourceIdRegex: "pattern",
    uniqueId: "string",
    composeTestTagRegex: "pattern",
    textRegex: "pattern",
    contentDescriptionRegex: "pattern",
    hintTextRegex: "pattern",
    labeledByTextRegex: "pattern",
    stateDescriptionRegex: "pattern",
    paneTitleRegex: "pattern",
    roleDescriptionRegex: "pattern",
    isEnabled: "boolean",
    isClickable: "boolean",
    isCheckable: "boolean",
    isChecked: "boolean",
    isSelected: "boolean",
    isFocused: "boolean",
    isEditable: "boolean",
    isScrollable: "boolean",
    isPassword: "boolean",
    isHeading: "boolean",
    isMultiLine: "boolean",
    inputType: "int",
    collectionItemRowIndex: "int",
    collectionItemColumnIndex: "int",
  },
  androidMaestro: {
    textRegex: "pattern",
    resourceIdRegex: "pattern",
    accessibilityTextRegex: "pattern",
    classNameRegex: "pattern",
    hintTextRegex: "pattern",
    clickable: "boolean",
    enabled: "boolean",
    focused: "boolean",
    checked: "boolean",
    selected: "boolean",
  },
  iosMaestro: {
    textRegex: "pattern",
    resourceIdRegex: "pattern",
    accessibilityTextRegex: "pattern",
    classNameRegex: "pattern",
    hintTextRegex: "pattern",
    focused: "boolean",
    selected: "boolean",
  },
  iosAxe: {
    roleRegex: "pattern",
    subroleRegex: "pattern",
    labelRegex: "pattern",
    valueRegex: "pattern",
    uniqueId: "string",
    typeRegex: "pattern",
    titleRegex: "pattern",
    customAction: "member",
    enabled: "boolean",
  },
  web: {
    ariaRole: "string",
    ariaNameRegex: "pattern",
    ariaDescriptorRegex: "pattern",
    headingLevel: "int",
    cssSelector: "string",
    dataTestId: "string",
    nthIndex: "int",
  },
  compose: {
    testTag: "string",
    role: "string",
    textRegex: "pattern",
    editableTextRegex: "pattern",
    contentDescriptionRegex: "pattern",
    toggleableState: "string",
    isEnabled: "boolean",
    isFocused: "boolean",
    isSelected: "boolean",
    isPassword: "boolean",
  },
};

/** The legacy selector's own matcher fields (relations and `index` aside). */
const LEGACY_FIELDS: Record<string, FieldKind> = {
  textRegex: "pattern",
  idRegex: "pattern",
  enabled: "boolean",
  selected: "boolean",
  checked: "boolean",
  focused: "boolean",
};

export type DriverMatch =
  | { driver: DriverClass; fields: Record<string, string | number | boolean> }
  | { driver: "legacy"; fields: Record<string, string | number | boolean>; size?: { width?: number; height?: number; tolerance?: number } };

export const RELATIONS = ["below", "above", "leftOf", "rightOf", "childOf", "containsChild"] as const;

export interface Selector {
  shape: "node" | "legacy";
  match?: DriverMatch;
  below?: Selector;
  above?: Selector;
  leftOf?: Selector;
  rightOf?: Selector;
  childOf?: Selector;
  containsChild?: Selector;
  /** Every one must match somewhere in the node's subtree. */
  containsDescendants?: Selector[];
  /** 0-based position among the matches sorted top-to-bottom, then left-to-right. */
  index?: number;
}

const NODE_KEYS = [...DRIVER_CLASSES, ...RELATIONS, "containsDescendants", "index"];
const LEGACY_KEYS = [...Object.keys(LEGACY_FIELDS), ...RELATIONS, "containsDescendants", "index", "size", "traits", "css"];

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}

class Parser {
  constructor(
    readonly source: string,
    /** Given: an unknown field is reported here and ignored (upstream's map loader ignores it); else an error. */
    readonly onUnknown?: (problem: string) => void,
  ) {}

  fail(path: string, problem: string): never {
    throw new SelectorError(this.source, path ? `${path}: ${problem}` : problem);
  }

  unknown(path: string, problem: string): void {
    if (!this.onUnknown) this.fail(path, problem);
    this.onUnknown(`${path}: ${problem}`);
  }

  field(path: string, kind: FieldKind, value: unknown): string | number | boolean {
    const ok = kind === "boolean" ? typeof value === "boolean" : kind === "int" ? Number.isInteger(value) : typeof value === "string";
    if (!ok)
      this.fail(
        path,
        `expected ${kind === "boolean" ? "true or false" : kind === "int" ? "an integer" : "a string"}, got ${typeName(value)}`,
      );
    return value as string | number | boolean;
  }

  fields(path: string, table: Record<string, FieldKind>, value: unknown, what: string): Record<string, string | number | boolean> {
    if (!isPlainMap(value)) this.fail(path, `expected an object of ${what} fields, got ${typeName(value)}`);
    const out: Record<string, string | number | boolean> = {};
    for (const [key, v] of Object.entries(value)) {
      const kind = table[key];
      if (!kind) {
        this.unknown(`${path}.${key}`, `unknown ${what} field${didYouMean(key, Object.keys(table))}`);
        continue;
      }
      if (v === null || v === undefined) continue;
      out[key] = this.field(`${path}.${key}`, kind, v);
    }
    return out;
  }

  index(path: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    // Legacy selectors record the index as a string ("1", even "1.0").
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0) this.fail(path, `expected a non-negative integer, got ${typeName(value)}`);
    return Math.trunc(n);
  }

  relations(path: string, raw: Record<string, unknown>, out: Selector, shape: "node" | "legacy"): void {
    for (const relation of RELATIONS) {
      if (raw[relation] != null) out[relation] = this.selector(`${path}.${relation}`, raw[relation], shape);
    }
    const descendants = raw.containsDescendants;
    if (descendants != null) {
      if (!Array.isArray(descendants))
        this.fail(`${path}.containsDescendants`, `expected a list of selectors, got ${typeName(descendants)}`);
      out.containsDescendants = descendants.map((d, i) => this.selector(`${path}.containsDescendants[${i}]`, d, shape));
    }
    const index = this.index(`${path}.index`, raw.index);
    if (index !== undefined) out.index = index;
  }

  selector(path: string, raw: unknown, shape?: "node" | "legacy"): Selector {
    if (!isPlainMap(raw)) this.fail(path, `expected a selector object, got ${typeName(raw)}`);
    const chosen = shape ?? (Object.keys(raw).some((k) => (DRIVER_CLASSES as readonly string[]).includes(k)) ? "node" : guessShape(raw));
    const keys = chosen === "node" ? NODE_KEYS : LEGACY_KEYS;
    for (const key of Object.keys(raw)) {
      if (!keys.includes(key)) {
        const hint = didYouMean(key, keys);
        this.unknown(
          `${path}.${key}`,
          `unknown ${chosen === "node" ? "selector" : "legacy selector"} field${hint || `; known fields: ${keys.join(", ")}`}`,
        );
      }
    }
    const out: Selector = { shape: chosen };
    if (chosen === "node") {
      const drivers = DRIVER_CLASSES.filter((d) => raw[d] != null);
      if (drivers.length > 1)
        this.fail(path, `sets several driver matchers (${drivers.join(", ")}); a selector matches one driver's nodes`);
      const driver = drivers[0];
      if (driver) out.match = { driver, fields: this.fields(`${path}.${driver}`, MATCH_FIELDS[driver], raw[driver], driver) };
    } else {
      if (raw.traits != null || raw.css != null)
        this.fail(
          path,
          `${raw.traits != null ? "traits" : "css"} selectors are not supported by the simulated screen; use textRegex, idRegex or a nodeSelector`,
        );
      const own = Object.fromEntries(Object.entries(raw).filter(([k]) => k in LEGACY_FIELDS));
      const match: DriverMatch = { driver: "legacy", fields: this.fields(path, LEGACY_FIELDS, own, "legacy selector") };
      if (raw.size != null) {
        const size = this.fields(`${path}.size`, { width: "int", height: "int", tolerance: "int" }, raw.size, "size");
        match.size = size as { width?: number; height?: number; tolerance?: number };
      }
      if (Object.keys(match.fields).length > 0 || match.size) out.match = match;
    }
    this.relations(path, raw, out, chosen);
    return out;
  }
}

const LEGACY_ONLY = ["textRegex", "idRegex", "enabled", "selected", "checked", "focused", "size", "traits", "css"];

/** A selector without a driver key is legacy when it, or a selector nested in it, uses a legacy-only field. */
function guessShape(raw: Record<string, unknown>): "node" | "legacy" {
  if (Object.keys(raw).some((k) => LEGACY_ONLY.includes(k))) return "legacy";
  const nested = [...RELATIONS.map((r) => raw[r]), ...(Array.isArray(raw.containsDescendants) ? raw.containsDescendants : [])];
  for (const inner of nested) {
    if (!isPlainMap(inner)) continue;
    if (Object.keys(inner).some((k) => (DRIVER_CLASSES as readonly string[]).includes(k))) return "node";
    if (guessShape(inner) === "legacy") return "legacy";
  }
  return typeof raw.index === "string" ? "legacy" : "node";
}

/**
 * Parses a selector of either shape (a driver key such as `androidAccessibility` means a node
 * selector; `textRegex`/`idRegex` at the top a legacy one). `source` names where it came from in
 * errors: `--selector #1: $.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?`.
 */
export function parseSelector(raw: unknown, source: string, shape?: "node" | "legacy", onUnknown?: (problem: string) => void): Selector {
  return new Parser(source, onUnknown).selector("$", raw, shape);
}

/** Short text for messages: `androidAccessibility{textRegex="Log in"} childOf(…) index=1`. */
export function describeSelector(selector: Selector): string {
  const parts: string[] = [];
  if (selector.match) {
    const fields = Object.entries(selector.match.fields).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    if (selector.match.driver === "legacy" && selector.match.size) fields.push(`size=${JSON.stringify(selector.match.size)}`);
    parts.push(selector.match.driver === "legacy" ? `{${fields.join(", ")}}` : `${selector.match.driver}{${fields.join(", ")}}`);
  }
  for (const relation of RELATIONS) if (selector[relation]) parts.push(`${relation}(${describeSelector(selector[relation])})`);
  if (selector.containsDescendants) parts.push(`containsDescendants(${selector.containsDescendants.map(describeSelector).join("; ")})`);
  if (selector.index !== undefined) parts.push(`index=${selector.index}`);
  return parts.length > 0 ? parts.join(" ") : "{} (any node)";
}
