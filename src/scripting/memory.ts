// `ctx.memory`: the session memory a tool sees, as strings. Reads see the snapshot sent with
// the call plus the tool's own writes; the writes are sent back with the result as memory changes
// (applied by the session once the tool succeeds).

import type { MemoryChanges } from "./result.ts";

export interface TrailblazeMemory {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  has(key: string): boolean;
  keys(): readonly string[];
  delete(key: string): void;
  /** Replaces `${key}` and `{{key}}` (also `${memory.key}`) with values; unknown keys stay as written. */
  interpolate(template: string): string;
  /** Stores `JSON.stringify(value)`. */
  setJson<T>(key: string, value: T): void;
  /** Parses a value stored as JSON; undefined when absent or not JSON. */
  getJson<T = unknown>(key: string): T | undefined;
}

/** A memory that can tell what the tool changed. */
export interface TrackedMemory extends TrailblazeMemory {
  /** What was set or deleted relative to the snapshot. */
  changes(): MemoryChanges;
}

const TOKENS = [/\$\{([^}]+)\}/g, /\{\{([^}]+)\}\}/g];

const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** A memory over `snapshot` (values that are not strings are shown as JSON). */
export function createMemory(snapshot: Record<string, unknown> = {}): TrackedMemory {
  const initial = new Map(
    Object.entries(snapshot)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, asText(v)] as const),
  );
  const current = new Map(initial);
  const get = (key: string) => current.get(key);
  const lookup = (token: string) => (token.startsWith("memory.") ? (get(token.slice("memory.".length)) ?? get(token)) : get(token));
  return {
    get,
    set(key, value) {
      current.set(key, String(value));
    },
    has: (key) => current.has(key),
    keys: () => [...current.keys()],
    delete(key) {
      current.delete(key);
    },
    interpolate(template) {
      let out = template;
      for (const token of TOKENS) out = out.replace(token, (whole, name: string) => lookup(name.trim()) ?? whole);
      return out;
    },
    setJson(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) current.delete(key);
      else current.set(key, text);
    },
    getJson<T>(key: string): T | undefined {
      const text = current.get(key);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as T;
      } catch {
        return undefined;
      }
    },
    changes() {
      const memoryDelta: Record<string, string> = {};
      for (const [key, value] of current) if (initial.get(key) !== value) memoryDelta[key] = value;
      const memoryDeletions = [...initial.keys()].filter((key) => !current.has(key));
      return { memoryDelta, memoryDeletions };
    },
  };
}
