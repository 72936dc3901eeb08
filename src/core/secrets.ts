// The values a run keeps secret: every value a `--secret` gave, and every value a secret's key was
// set to since. The set only grows: once a value has been secret it is masked in everything the
// run writes (output lines, logs, calls.jsonl, reports, MCP answers) for as long as the run lasts,
// whatever key, copy or message it travels in. Recorded trails write `{{KEY}}` in its place.

export const MASK = "***";

export class Secrets {
  /** Each secret value, with the key it was first given under (for `{{KEY}}` in recordings). */
  readonly #keyOf = new Map<string, string>();
  /** The values, longest first, so a value inside a longer one is masked with it. */
  #ordered: string[] = [];
  /** The secrets a session starts with (`--secret KEY=VALUE`): each session binds these keys afresh. */
  readonly given: Readonly<Record<string, string>>;

  constructor(given: Readonly<Record<string, string>> = {}) {
    this.given = { ...given };
    for (const [key, value] of Object.entries(given)) this.add(key, value);
  }

  /** Keeps `value` secret from now on (an empty value hides nothing and is not kept). */
  add(key: string, value: string): void {
    if (value.length === 0 || this.#keyOf.has(value)) return;
    this.#keyOf.set(value, key);
    this.#ordered = [...this.#keyOf.keys()].sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.#ordered.length;
  }

  /** `text` with every secret value replaced by `***`. */
  mask(text: string): string {
    let masked = text;
    for (const value of this.#ordered) if (masked.includes(value)) masked = masked.replaceAll(value, MASK);
    return masked;
  }

  /** A deep copy of a JSON-like value with every string masked (keys of objects too); the value itself when nothing is secret. */
  maskValue<T>(value: T): T {
    return this.#ordered.length === 0 ? value : (this.#walk(value, (text) => this.mask(text)) as T);
  }

  /**
   * A deep copy of a document of ours (a report) with every secret masked where data can hold one,
   * but its own structure intact (a short secret such as `t` must not rename `status`): keys are kept,
   * and so are the values of `kept` keys (statuses, kinds); below a `data` key (a tool's arguments
   * or result, memory) everything is masked, keys included, as `maskValue` does.
   */
  maskDocument<T>(value: T, shape: { kept: ReadonlySet<string>; data: ReadonlySet<string> }): T {
    if (this.#ordered.length === 0) return value;
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
   * secret becomes `{{KEY}}`, and a secret inside a longer string is replaced in place.
   */
  withPlaceholders<T>(value: T): T {
    if (this.#ordered.length === 0) return value;
    return this.#walk(value, (text) => {
      const exact = this.#keyOf.get(text);
      if (exact !== undefined) return `{{${exact}}}`;
      let written = text;
      for (const secret of this.#ordered)
        if (written.includes(secret)) written = written.replaceAll(secret, `{{${this.#keyOf.get(secret)}}}`);
      return written;
    }) as T;
  }

  #walk(value: unknown, onText: (text: string) => string): unknown {
    if (typeof value === "string") return onText(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, onText));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [onText(key), this.#walk(item, onText)]));
    }
    return value;
  }
}
