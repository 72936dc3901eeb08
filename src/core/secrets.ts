// The values a run keeps secret, and the one place that decides how they are masked: every value a
// `--secret` gave, and every value a secret's key was set to since. The set only grows: once a
// value has been secret it is masked in everything the run writes (output lines, logs, calls.jsonl,
// reports, MCP answers, the model's requests) for as long as the run lasts, whatever key, copy or
// message it travels in, in each form a writer may have put it in (core/secret-forms.ts: escaped,
// line by line, the numbers and strings inside an object). A secret shorter than
// SHORT_SECRET_CHARS is masked only where it stands alone. Recorded trails write `{{KEY}}` in its place.

import { SHORT_SECRET_CHARS, secretForms, secretParts, secretText } from "./secret-forms.ts";

export const MASK = "***";

/** One text to replace: what it is replaced by in a recording (`{{KEY}}` for the value a key holds, else `***`). */
interface Rule {
  text: string;
  /** The key whose whole value this is; undefined for another form (a line, an escape, a part). */
  key: string | undefined;
}

interface SecretsOptions {
  /** Told once per key when a secret is shorter than SHORT_SECRET_CHARS (what happens to it instead). */
  warn?(message: string): void;
}

/** A letter, digit or `_` on either side: a short secret next to one is part of a word, not masked. */
const WORD = "[\\p{L}\\p{N}_]";
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** The two UTF-16 units of `text` at `at` as one 32-bit integer: the key forms are found by. */
const headKey = (text: string, at: number): number => (text.charCodeAt(at) << 16) | text.charCodeAt(at + 1);

/** Most forms matched with one regex (see Secrets.#innerPattern); measured: 1 MiB with 128 forms ~85 ms, about the pass over #inner. */
const PATTERN_FORMS = 128;

/** Whether a global `pattern` matches `text` (a test is cheaper than a replace that finds nothing). */
function found(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

const escapeRegex = (text: string) => text.replace(REGEX_SYNTAX, "\\$&");

export class Secrets {
  /** Each secret value (the text a key held), with the key it was first given under (for `{{KEY}}` in recordings). */
  readonly #keyOf = new Map<string, string>();
  /** Every form masked inside any text, by its text. */
  readonly #innerRules = new Map<string, Rule>();
  /**
   * The same forms by their first two UTF-16 units (headKey; every such form has at least
   * SHORT_SECRET_CHARS), longest first: one pass over a text finds, at each place, the longest
   * form that starts there, however many forms there are (a 4 KB secret of many lines has hundreds).
   */
  readonly #inner = new Map<number, Rule[]>();
  /**
   * While there are at most PATTERN_FORMS forms, one pattern of them all, longest first (the same
   * leftmost-longest matches): the regex engine skips ahead to each candidate, so a text of many
   * MiB with no secret in it costs little. With more forms the engine tries each at every place,
   * and the pass over #inner is faster.
   */
  #innerPattern: RegExp | undefined;
  /** The forms of short secrets, masked only where they stand alone, and the pattern that finds them. */
  readonly #alone = new Map<string, Rule>();
  #alonePattern: RegExp | undefined;
  readonly #seen = new Set<string>();
  readonly #warned = new Set<string>();
  readonly #warn: ((message: string) => void) | undefined;
  /** Each value made secret, with its key, as it was given (entries()). */
  readonly #added: [key: string, value: unknown][] = [];
  /** Told of each value made secret (onAdd). */
  readonly #listeners: ((key: string, value: unknown) => void)[] = [];
  /** The secrets a session starts with (`--secret KEY=VALUE`): each session binds these keys afresh. */
  readonly given: Readonly<Record<string, string>>;

  constructor(given: Readonly<Record<string, string>> = {}, options: SecretsOptions = {}) {
    this.given = { ...given };
    this.#warn = options.warn;
    for (const [key, value] of Object.entries(given)) this.add(key, value);
  }

  /**
   * Keeps `value` secret from now on: a string as it is, a number or an object as its JSON and each
   * number and string in it. An empty value hides nothing and is not kept.
   */
  add(key: string, value: unknown): void {
    const text = secretText(value);
    if (text === undefined || text === "") return;
    if (!this.#keyOf.has(text)) this.#keyOf.set(text, key);
    const parts = typeof value === "string" ? [] : secretParts(value).filter((part) => part !== text);
    const added = [this.#addText(text, key), ...parts.map((part) => this.#addText(part, undefined))].some(Boolean);
    if (!added) return;
    this.#added.push([key, value]);
    const longestFirst = (texts: Iterable<string>) => [...texts].sort((a, b) => b.length - a.length).map(escapeRegex);
    const inner = this.#innerRules.size;
    this.#innerPattern = inner > 0 && inner <= PATTERN_FORMS ? new RegExp(longestFirst(this.#innerRules.keys()).join("|"), "g") : undefined;
    this.#alonePattern =
      this.#alone.size === 0 ? undefined : new RegExp(`(?<!${WORD})(?:${longestFirst(this.#alone.keys()).join("|")})(?!${WORD})`, "gu");
    if (text.length < SHORT_SECRET_CHARS && !this.#warned.has(key)) {
      this.#warned.add(key);
      this.#warn?.(
        `secret ${key} has a value of fewer than ${SHORT_SECRET_CHARS} characters: it is masked only where it stands alone ` +
          "(a whole value, or a word of its own), not inside other words, so the output stays readable; a value this short is easy to guess, use a longer one",
      );
    }
    for (const listener of this.#listeners) listener(key, value);
  }

  /** Tells `listener` of every value made secret from now on (a run thread's sessions tell the run's other threads). */
  onAdd(listener: (key: string, value: unknown) => void): void {
    this.#listeners.push(listener);
  }

  /** Every value made secret so far, with its key, as it was given to `add`. */
  entries(): [key: string, value: unknown][] {
    return [...this.#added];
  }

  /** Adds the forms of `text`; false when it was already kept. */
  #addText(text: string, key: string | undefined): boolean {
    if (this.#seen.has(text)) return false;
    this.#seen.add(text);
    for (const form of secretForms(text)) {
      const rule = { text: form.text, key: form.text === text ? key : undefined };
      if (form.alone) {
        if (!this.#alone.has(form.text)) this.#alone.set(form.text, rule);
      } else if (!this.#innerRules.has(form.text)) {
        this.#innerRules.set(form.text, rule);
        const head = headKey(form.text, 0);
        const rules = this.#inner.get(head) ?? [];
        rules.push(rule);
        rules.sort((a, b) => b.text.length - a.text.length);
        this.#inner.set(head, rules);
      }
    }
    return true;
  }

  /** How many values are kept secret. */
  get size(): number {
    return this.#keyOf.size;
  }

  /** `text` with every form of every secret replaced by `***`. */
  mask(text: string): string {
    return this.#replace(text, () => MASK);
  }

  /** `text` with each form replaced by `by(its rule)`: left to right, the longest form at each place; then the short secrets standing alone. */
  #replace(text: string, by: (rule: Rule) => string): string {
    const inner = this.#innerPattern;
    const out = inner ? (found(inner, text) ? text.replace(inner, (form) => by(this.#innerRules.get(form)!)) : text) : this.#scan(text, by);
    const alone = this.#alonePattern;
    return alone && found(alone, out) ? out.replace(alone, (form) => by(this.#alone.get(form)!)) : out;
  }

  /** The pass over #inner: at each place the longest form that starts there. */
  #scan(text: string, by: (rule: Rule) => string): string {
    let out = "";
    let kept = 0;
    if (this.#inner.size > 0) {
      for (let at = 0; at <= text.length - SHORT_SECRET_CHARS; ) {
        const rule = this.#inner.get(headKey(text, at))?.find((known) => text.startsWith(known.text, at));
        if (rule === undefined) {
          at++;
          continue;
        }
        out += text.slice(kept, at) + by(rule);
        at += rule.text.length;
        kept = at;
      }
    }
    return kept === 0 ? text : out + text.slice(kept);
  }

  /**
   * A deep copy of a JSON-like value with every string masked (keys of objects too), and every
   * number whose text holds a secret replaced by its masked text; the value itself when nothing is secret.
   */
  maskValue<T>(value: T): T {
    return this.#keyOf.size === 0 ? value : (this.#walk(value, (text) => this.mask(text)) as T);
  }

  /**
   * A deep copy of a document of ours (a report) with every secret masked where data can hold one,
   * but its own structure intact: keys are kept, and so are the values of `kept` keys (statuses,
   * kinds) and numbers outside data (counts, positions); below a `data` key (a tool's arguments or
   * result, memory) everything is masked, keys and numbers included, as `maskValue` does.
   */
  maskDocument<T>(value: T, shape: { kept: ReadonlySet<string>; data: ReadonlySet<string> }): T {
    if (this.#keyOf.size === 0) return value;
    const mask = (text: string) => this.mask(text);
    const visit = (node: unknown): unknown => {
      if (typeof node === "string") return mask(node);
      if (Array.isArray(node)) return node.map(visit);
      if (typeof node !== "object" || node === null) return node;
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [
          key,
          shape.kept.has(key) ? item : shape.data.has(key) ? this.#walk(item, mask) : visit(item),
        ]),
      );
    };
    return visit(value) as T;
  }

  /**
   * `value` with every secret written as its placeholder, for a trail file: a string equal to a
   * secret becomes `{{KEY}}`, and a secret inside a longer string is replaced in place; any other
   * form of a secret (a line of it, an escaped copy, a part of an object) becomes `***`, as a trail
   * file never holds a secret.
   */
  withPlaceholders<T>(value: T): T {
    if (this.#keyOf.size === 0) return value;
    const placeholder = (rule: Rule) => (rule.key === undefined ? MASK : `{{${rule.key}}}`);
    return this.#walk(value, (text) => {
      const exact = this.#keyOf.get(text);
      return exact !== undefined ? `{{${exact}}}` : this.#replace(text, placeholder);
    }) as T;
  }

  #walk(value: unknown, onText: (text: string) => string): unknown {
    if (typeof value === "string") return onText(value);
    if (typeof value === "number") {
      const text = String(value);
      const masked = onText(text);
      return masked === text ? value : masked;
    }
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, onText));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [onText(key), this.#walk(item, onText)]));
    }
    return value;
  }
}
