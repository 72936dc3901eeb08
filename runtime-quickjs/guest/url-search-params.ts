// Guest `URLSearchParams`: application/x-www-form-urlencoded parsing and serialization, and the
// live link that keeps a URL's `search` in step with its `searchParams`.

type SearchInit = string | URLSearchParams | Record<string, string> | Iterable<readonly [string, string]>;

const formDecode = (text: string) => {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
};
const formEncode = (text: string) =>
  encodeURIComponent(text)
    .replace(/%20/g, "+")
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export class URLSearchParams {
  private list: [string, string][] = [];
  /** @internal Called after every change, so a URL's `search` follows its `searchParams`. */
  _onChange: (() => void) | undefined;

  constructor(init: SearchInit = "") {
    if (typeof init === "string") this._parse(init);
    else if (init instanceof URLSearchParams) this.list = init.list.map(([k, v]) => [k, v]);
    else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<readonly [string, string]>) {
        const [key, value] = [...pair];
        this.list.push([String(key), String(value)]);
      }
    } else for (const [k, v] of Object.entries(init)) this.list.push([k, String(v)]);
  }

  /** @internal */
  _parse(query: string): void {
    this.list = [];
    for (const piece of query.replace(/^\?/, "").split("&")) {
      if (piece === "") continue;
      const eq = piece.indexOf("=");
      this.list.push(eq < 0 ? [formDecode(piece), ""] : [formDecode(piece.slice(0, eq)), formDecode(piece.slice(eq + 1))]);
    }
  }

  get size(): number {
    return this.list.length;
  }
  append(name: string, value: string): void {
    this.list.push([String(name), String(value)]);
    this._onChange?.();
  }
  delete(name: string, value?: string): void {
    this.list = this.list.filter(([k, v]) => k !== name || (value !== undefined && v !== String(value)));
    this._onChange?.();
  }
  get(name: string): string | null {
    return this.list.find(([k]) => k === name)?.[1] ?? null;
  }
  getAll(name: string): string[] {
    return this.list.filter(([k]) => k === name).map(([, v]) => v);
  }
  has(name: string, value?: string): boolean {
    return this.list.some(([k, v]) => k === name && (value === undefined || v === String(value)));
  }
  set(name: string, value: string): void {
    const at = this.list.findIndex(([k]) => k === name);
    if (at < 0) this.list.push([String(name), String(value)]);
    else {
      this.list[at] = [String(name), String(value)];
      this.list = this.list.filter(([k], i) => k !== name || i === at);
    }
    this._onChange?.();
  }
  sort(): void {
    this.list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this._onChange?.();
  }
  forEach(fn: (value: string, key: string, params: URLSearchParams) => void): void {
    for (const [k, v] of this.list) fn(v, k, this);
  }
  keys(): IterableIterator<string> {
    return this.list.map(([k]) => k)[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    return this.list.map(([, v]) => v)[Symbol.iterator]();
  }
  entries(): IterableIterator<[string, string]> {
    return this.list.map(([k, v]): [string, string] => [k, v])[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  toString(): string {
    return this.list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join("&");
  }
}
