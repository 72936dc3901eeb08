// Session memory: values tools and trails share, and the keys that hold secrets. A secret's key
// stays secret for the whole session: writing it (rememberValue, a tool's memoryDelta) gives it a
// new secret value, never a plain one, and deleting it unbinds the key but keeps its values
// masked. Masking itself belongs to the run's Secrets, which memory only adds to.

import { secretText } from "../core/secret-forms.ts";
import { Secrets } from "../core/secrets.ts";

export class Memory {
  readonly #values = new Map<string, unknown>();
  /** Every key that was ever a secret's, with its value now (undefined once deleted). */
  readonly #secretKeys = new Map<string, string | undefined>();
  /** What is masked in everything the session writes; shared with the run, only ever added to. */
  readonly secrets: Secrets;

  constructor(initial: Record<string, unknown> = {}, secrets: Secrets = new Secrets()) {
    this.secrets = secrets;
    for (const [key, value] of Object.entries(initial)) this.#values.set(key, value);
  }

  /**
   * A plain value; on a secret's key, a new secret value: a non-string is read as its JSON, and
   * masked as that and as each number and string in it (Secrets.add).
   */
  set(key: string, value: unknown): void {
    if (this.#secretKeys.has(key)) {
      const text = secretText(value) ?? "";
      this.secrets.add(key, value);
      this.#secretKeys.set(key, text);
      return;
    }
    this.#values.set(key, value);
  }

  /** A secret is readable through `lookup` (interpolation) only; snapshots omit it and every output masks it. */
  setSecret(key: string, value: string): void {
    this.#values.delete(key);
    this.#secretKeys.set(key, undefined);
    this.set(key, value);
  }

  isSecret(key: string): boolean {
    return this.#secretKeys.has(key);
  }

  delete(key: string): void {
    if (this.#secretKeys.has(key)) this.#secretKeys.set(key, undefined);
    else this.#values.delete(key);
  }

  has(key: string): boolean {
    return this.lookup(key).found;
  }

  lookup(key: string): { found: true; value: unknown } | { found: false } {
    const secret = this.#secretKeys.get(key);
    if (secret !== undefined) return { found: true, value: secret };
    if (this.#values.has(key)) return { found: true, value: this.#values.get(key) };
    return { found: false };
  }

  keys(): string[] {
    return [...this.#values.keys(), ...[...this.#secretKeys].filter(([, value]) => value !== undefined).map(([key]) => key)];
  }

  /** Non-secret values: what `_trailblazeContext.memory` carries and `dumpMemory` shows (masked, as every output is). */
  snapshot(): Record<string, unknown> {
    return Object.fromEntries(this.#values);
  }

  apply(delta: Record<string, unknown> | undefined, deletions: readonly string[] | undefined): void {
    for (const key of deletions ?? []) this.delete(key);
    for (const [key, value] of Object.entries(delta ?? {})) this.set(key, value);
  }
}
