// The forms a secret value takes in what the CLI writes, so that masking finds it whichever form a
// writer put it in: the value itself; JSON-escaped (once, and twice: JSON text inside a JSON
// string); XML/HTML-escaped; trimmed; and, for a value of several lines, each line on its own, as
// CI systems register each line of a multi-line secret (a log keeps lines apart, so no line holds
// the whole value). A number or an object kept secret also has the text of each number and string
// in it. Writers mask before they format: these forms are the second line of defence, for text
// that was formatted first.

/**
 * A secret shorter than this (in UTF-16 code units) is masked only where it stands alone: not
 * next to a letter, digit or `_`. Masking every `x` inside words would mangle the output and
 * hide nothing a secret of one to three characters can hide.
 */
export const SHORT_SECRET_CHARS = 4;

/**
 * A line of a multi-line secret is masked on its own (anywhere in text) when it has at least this
 * many characters, trimmed; shorter lines (`}`, `null,`) are common text, and the whole value is
 * masked with them in it.
 */
export const SECRET_LINE_CHARS = 8;

/** One text to mask, and how: inside any text, or only where it stands alone (a short secret's). */
export interface SecretForm {
  text: string;
  alone: boolean;
}

const XML_TEXT: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const XML_ATTRIBUTE: Record<string, string> = { ...XML_TEXT, '"': "&quot;", "'": "&#39;" };

/** The escapes writers apply to a string: JSON (once and twice), XML/HTML text, XML/HTML attribute. */
const ESCAPES: readonly ((text: string) => string)[] = [
  (text) => JSON.stringify(text).slice(1, -1),
  (text) => JSON.stringify(JSON.stringify(text).slice(1, -1)).slice(1, -1),
  (text) => text.replace(/[&<>]/g, (c) => XML_TEXT[c]!),
  (text) => text.replace(/[&<>"']/g, (c) => XML_ATTRIBUTE[c]!),
];

function withEscapes(text: string, into: Set<string>): void {
  into.add(text);
  for (const escape of ESCAPES) into.add(escape(text));
}

/** Every form of one secret text: see the header. A short text's forms are masked only where they stand alone. */
export function secretForms(value: string): SecretForm[] {
  const texts = new Set<string>();
  withEscapes(value, texts);
  const trimmed = value.trim();
  if (trimmed.length >= SHORT_SECRET_CHARS) withEscapes(trimmed, texts);
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r\n|\r|\n/)) {
      const kept = line.trim();
      if (kept.length >= SECRET_LINE_CHARS) withEscapes(kept, texts);
    }
  }
  texts.delete("");
  const alone = value.length < SHORT_SECRET_CHARS;
  return [...texts].map((text) => ({ text, alone }));
}

/**
 * The text a value kept secret is read as (a placeholder's value): a string as it is, anything else
 * as its JSON. Undefined for a value with no JSON (`undefined`, a function).
 */
export function secretText(value: unknown): string | undefined {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The texts inside a number or an object kept secret that output may show apart from its JSON:
 * each number and string in it, at any depth (`{sess: {token: "…"}}` shows `token`'s value in a
 * copy, `987654` shows as a number). Booleans and nulls hold nothing to hide; keys are structure.
 */
export function secretParts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "bigint") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(secretParts);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(secretParts);
  return [];
}
