// Selector text patterns with upstream's rules: the whole text must match (not a substring); a
// pattern that is not a valid regex — or a valid one that cannot match, like "$3.00" — still
// matches text equal to it; Java's leading inline flags ((?i), (?s-i)) and \Q…\E quoting work.
// Two dialects: "native" (driver-native selectors: case-sensitive, no flags) and "maestro"
// (Maestro-shaped selectors: case-insensitive, dot-all, multiline; an invalid pattern is a
// case-insensitive literal).

export type PatternDialect = "native" | "maestro";

const MAESTRO_FLAGS = "ism";
/** Java inline flags that have a JS equivalent; others (x, u, d) are dropped. */
const TRANSLATABLE = "ism";

const cache = new Map<string, RegExp | null>();

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Java's `\Q…\E` (what Kotlin's Regex.escape writes) as an escaped JS literal; `\\Q` is not a quote. */
function unquote(pattern: string): string {
  if (!pattern.includes("\\Q")) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; ) {
    if (pattern[i] === "\\" && i + 1 < pattern.length) {
      if (pattern[i + 1] === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        out += escapeLiteral(end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end));
        i = end < 0 ? pattern.length : end + 2;
      } else {
        out += pattern.slice(i, i + 2);
        i += 2;
      }
    } else {
      out += pattern[i];
      i += 1;
    }
  }
  return out;
}

/** Splits a leading `(?is)` / `(?-i)` / `(?s-i)` group off the pattern. */
function leadingFlags(pattern: string): { body: string; on: string; off: string } {
  const m = /^\(\?([a-z]*)(?:-([a-z]+))?\)/.exec(pattern);
  if (!m || (m[1] === "" && m[2] === undefined)) return { body: pattern, on: "", off: "" };
  const keep = (letters = "") => [...new Set(letters)].filter((c) => TRANSLATABLE.includes(c)).join("");
  return { body: pattern.slice(m[0].length), on: keep(m[1]), off: keep(m[2]) };
}

/**
 * Anchors a pattern to the whole input. Lookarounds on [\s\S] instead of ^…$ so the anchoring
 * holds under the multiline flag too (a pattern "ok" must not match the second line of "book\nok").
 */
function whole(pattern: string): string {
  return `(?<![\\s\\S])(?:${pattern})(?![\\s\\S])`;
}

function compile(pattern: string, dialect: PatternDialect): RegExp | null {
  const key = `${dialect}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const base = dialect === "maestro" ? MAESTRO_FLAGS : "";
  const { body, on, off } = leadingFlags(pattern);
  const flags = [...new Set(base + on)].filter((c) => !off.includes(c)).join("");
  let regex: RegExp | null;
  try {
    const translated = unquote(body);
    // Judge validity on the bare pattern: "[x" + the anchor's "]" would otherwise compile.
    new RegExp(translated, flags);
    regex = new RegExp(whole(translated), flags);
  } catch {
    regex = dialect === "maestro" ? new RegExp(whole(escapeLiteral(pattern)), base) : null;
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, regex);
  return regex;
}

/** Whether `text` matches `pattern` under the dialect's rules (see the file header). */
export function matchesPattern(pattern: string, text: string, dialect: PatternDialect = "native"): boolean {
  const regex = compile(pattern, dialect);
  if (regex?.test(text)) return true;
  return text === pattern;
}
