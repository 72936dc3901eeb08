// Session memory: values tools and trails share, plus secrets that can be used
// in interpolation but never leave the process unmasked.

export const MASK = "***";

export class Memory {
  readonly #values = new Map<string, unknown>();
  readonly #secrets = new Map<string, string>();

  constructor(initial: Record<string, unknown> = {}) {
    for (const [key, value] of Object.entries(initial)) this.#values.set(key, value);
  }

  set(key: string, value: unknown): void {
    this.#secrets.delete(key);
    this.#values.set(key, value);
  }

  /** A secret is readable through `lookup` (interpolation) only; snapshots omit it and `mask` hides it. */
  setSecret(key: string, value: string): void {
    this.#values.delete(key);
    this.#secrets.set(key, value);
  }

  delete(key: string): void {
    this.#values.delete(key);
    this.#secrets.delete(key);
  }

  has(key: string): boolean {
    return this.#values.has(key) || this.#secrets.has(key);
  }

  lookup(key: string): { found: true; value: unknown } | { found: false } {
    if (this.#values.has(key)) return { found: true, value: this.#values.get(key) };
    if (this.#secrets.has(key)) return { found: true, value: this.#secrets.get(key) };
    return { found: false };
  }

  keys(): string[] {
    return [...this.#values.keys(), ...this.#secrets.keys()];
  }

  /** Non-secret values: what `_trailblazeContext.memory` carries and `dumpMemory` shows. */
  snapshot(): Record<string, unknown> {
    return Object.fromEntries(this.#values);
  }

  apply(delta: Record<string, unknown> | undefined, deletions: readonly string[] | undefined): void {
    for (const key of deletions ?? []) this.delete(key);
    for (const [key, value] of Object.entries(delta ?? {})) this.set(key, value);
  }

  /** Replaces every secret value in `text` with `***` (longest first, so overlaps mask fully). */
  mask(text: string): string {
    const values = [...this.#secrets.values()].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
    let masked = text;
    for (const value of values) masked = masked.replaceAll(value, MASK);
    return masked;
  }

  /** Deep copy of a JSON-like value with every string masked. */
  maskValue<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    if (typeof value === "string") return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v)) as T;
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.maskValue(v)])) as T;
    }
    return value;
  }
}
