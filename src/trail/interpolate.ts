// `{{key}}` / `${key}` placeholders in recorded arguments, replaced from session
// memory before dispatch.

import { InterpolationError } from "../errors.ts";
import { byCloseness } from "../core/did-you-mean.ts";

type LookupResult = { found: true; value: unknown } | { found: false };
/** Memory.lookup has this shape; `{{args.NAME}}` asks for the key `args.NAME`. */
export type Lookup = (key: string) => LookupResult;

interface InterpolateOptions {
  /** Keys offered when a placeholder names an unknown one (e.g. `() => memory.keys()`). */
  knownKeys?: () => Iterable<string>;
  /** Prefix for the error message, e.g. `login.trail.yaml:12:9 myapp_logIn`. */
  context?: string;
}

const MEMORY_PREFIX = "memory.";
const PLACEHOLDER = /\{\{\s*([^{}\s][^{}]*?)\s*\}\}|\$\{\s*([^{}\s][^{}]*?)\s*\}/g;
const WHOLE = /^(?:\{\{\s*([^{}\s][^{}]*?)\s*\}\}|\$\{\s*([^{}\s][^{}]*?)\s*\})$/;

/** The keys of every `{{key}}` / `${key}` placeholder in `value` (strings, arrays, maps), each once, in order. */
export function placeholderKeys(value: unknown): string[] {
  const keys = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") for (const m of v.matchAll(PLACEHOLDER)) keys.add((m[1] ?? m[2])!);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(visit);
  };
  visit(value);
  return [...keys];
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * Replaces placeholders in strings, recursively through arrays and objects
 * (keys are left alone). A string that is exactly one placeholder takes the
 * value itself, keeping its type (`"{{count}}"` → 3); inside longer text values
 * are stringified (objects as JSON). `{{memory.name}}` falls back to the key
 * `name` when `memory.name` itself is unknown. An unknown key throws
 * InterpolationError naming it and the known keys, closest first.
 */
export function interpolate(value: unknown, lookup: Lookup, options: InterpolateOptions = {}): unknown {
  const resolve = (key: string, written: string): unknown => {
    const result = lookup(key);
    if (result.found) return result.value;
    // Upstream trails also write memory keys as `{{memory.name}}`.
    if (key.startsWith(MEMORY_PREFIX)) {
      const bare = lookup(key.slice(MEMORY_PREFIX.length));
      if (bare.found) return bare.value;
    }
    throw unknownKey(key, written, options);
  };
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") {
      const whole = WHOLE.exec(v);
      if (whole) return resolve((whole[1] ?? whole[2])!, v);
      return v.replace(PLACEHOLDER, (written, a: string | undefined, b: string | undefined) => asText(resolve((a ?? b)!, written)));
    }
    if (Array.isArray(v)) return v.map(visit);
    if (typeof v === "object" && v !== null && !(v instanceof Date)) {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, visit(inner)]));
    }
    return v;
  };
  return visit(value);
}

function unknownKey(key: string, written: string, options: InterpolateOptions): InterpolationError {
  const known = byCloseness(key, new Set(options.knownKeys?.() ?? []));
  const prefix = options.context ? `${options.context}: ` : "";
  const list = known.length
    ? `known keys, closest first: ${known.join(", ")}`
    : "no keys are set (set them with config.memory, --memory KEY=VALUE or --arg NAME=VALUE)";
  return new InterpolationError(`${prefix}unknown key "${key}" in ${written}; ${list}`, key, known);
}
