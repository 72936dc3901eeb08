// check-bundle's reading of a bundle's syntax tree (src/bundle/on-device-uses.ts): a guard is what
// the code tests and the branch it takes on-device, with the real guest's globals, whatever the
// formatting. Each case is bundle-shaped code (esbuild's ESM output) read as check-bundle reads it.
import { beforeAll, describe, expect, test } from "bun:test";
import { guestGlobals } from "../runtime-quickjs/index.ts";
import { onDeviceUses } from "../src/bundle/on-device-uses.ts";
import { byEngine } from "./support/quickjs-engine.ts";

let guest: ReadonlyMap<string, string>;
beforeAll(async () => {
  guest = await guestGlobals();
});

/** `kind name` of each use that runs on-device, `… (undecided: test)` where the scan cannot tell. */
function found(code: string): string[] {
  return onDeviceUses(code, guest).map(
    (use) => `${use.kind} ${use.name}${use.undecided === undefined ? "" : ` (undecided: ${use.undecided})`}`,
  );
}

describe("a guard that tests another global: the branch the guest takes, however it is written", () => {
  const forms = {
    unminified: `export const encode = typeof Buffer === "undefined" ? (text) => crypto.getRandomValues(text) : (text) => Buffer.from(text);`,
    minified: `export const encode=typeof Buffer>"u"?e=>crypto.getRandomValues(e):e=>Buffer.from(e);`,
    "minified, the other way round": `export const encode=typeof Buffer<"u"?e=>Buffer.from(e):e=>crypto.getRandomValues(e);`,
    "if / else": `export function encode(text) { if (typeof Buffer !== "undefined") { return Buffer.from(text); } else { return crypto.getRandomValues(text); } }`,
    "an early return": `export function encode(text) { if (typeof Buffer != "undefined") return Buffer.from(text); return crypto.getRandomValues(text); }`,
    "a constant": `const hasBuffer = typeof globalThis.Buffer === "function"; export const encode = (text) => hasBuffer ? Buffer.from(text) : crypto.getRandomValues(text);`,
    "|| with a call on data": `export const encode = typeof Buffer > "u" || !isEncoding("base64") ? (e) => crypto.getRandomValues(e) : (e) => Buffer.from(e);`,
  };
  for (const [form, code] of Object.entries(forms)) {
    test(form, () => {
      // Buffer's branch never runs on-device; crypto's always does, and throws there.
      expect(found(code)).toEqual(["missing crypto.getRandomValues"]);
    });
  }
});

describe("feature tests of the global itself", () => {
  test("typeof, globalThis.X, `in globalThis`, optional chaining, && and ??: nothing runs that throws", () => {
    const code = `
export const a = typeof Intl === "object" ? new Intl.NumberFormat().format(1) : "1";
export const b = globalThis.Intl ? Intl.DateTimeFormat : undefined;
export const c = "Intl" in globalThis ? Intl.Collator : undefined;
export const d = globalThis.Intl?.NumberFormat;
export const e = typeof process !== "undefined" && process.env.HOME;
export const f = globalThis.process ?? { env: {} };
export const g = typeof Intl;
export const h = typeof navigator !== "undefined" && navigator.product === "ReactNative" ? navigator.userAgent : "none";`;
    expect(found(code)).toEqual([]);
  });

  test("a read of the missing global in the test itself, or through typeof X.y, throws", () => {
    expect(found(`export const a = Intl ? 1 : 2; export const b = typeof Intl.NumberFormat;`)).toEqual([
      "missing Intl",
      "missing Intl.NumberFormat",
    ]);
  });

  test("a test the guest passes leaves the use in the branch it takes", () => {
    expect(found(`export const a = typeof setTimeout === "function" ? fetch("/a") : null;`)).toEqual(["missing fetch"]);
  });

  test("a branch on data alone is taken to run; a feature test the scan cannot decide is named", () => {
    expect(found(`export function f(x) { if (x > 1) return fetch(x); }`)).toEqual(["missing fetch"]);
    expect(found(`export const a = typeof Symbol.prototype.description === "string" ? fetch("/a") : null;`)).toEqual([
      'missing fetch (undecided: typeof Symbol.prototype.description === "string")',
    ]);
  });

  test("a feature test whose branch throws on-device is where the call throws", () => {
    expect(
      found(`export function get(url) { if (typeof fetch !== "function") throw new Error("needs fetch"); return fetch(url); }`),
    ).toEqual(['throws typeof fetch !== "function"']);
    expect(
      found(`export function get(url) { if (typeof fetch === "function") return fetch(url); throw new Error("needs fetch"); }`),
    ).toEqual([]);
  });
});

describe("try / catch", () => {
  test("a use caught by a catch that handles it runs nothing that throws", () => {
    expect(found(`export function copy(v) { try { return structuredClone(v); } catch { return JSON.parse(JSON.stringify(v)); } }`)).toEqual(
      [],
    );
  });

  test("a catch that rethrows, a callback that runs later and a dynamic import() are not caught", () => {
    const code = `
export function get(url) { try { return fetch(url); } catch (error) { throw new Error("offline: " + error.message); } }
export function later(url) { try { setTimeout(() => fetch(url), 1); } catch {} }
export async function load(name) { try { return await import(name); } catch { return undefined; } }`;
    expect(found(code)).toEqual(["missing fetch", "missing fetch", "import import()"]);
  });
});

describe("bindings and polyfills", () => {
  test("a parameter or local of the same name is not the global", () => {
    expect(found(`export function f(fetch) { return fetch(1); } export function g() { const self = {}; return self.x; }`)).toEqual([]);
  });

  test("a variable written again is not a constant", () => {
    const code = `let hasBuffer = typeof Buffer !== "undefined"; export function on() { hasBuffer = true; } export const f = (x) => hasBuffer ? Buffer.from(x) : x;`;
    expect(found(code)).toEqual(["missing Buffer.from"]);
  });

  test("a global the bundle defines where that runs is not missing; one defined in a branch the guest skips is", () => {
    const polyfill = `if (typeof globalThis.structuredClone === "undefined") globalThis.structuredClone = (v) => JSON.parse(JSON.stringify(v));
export const copy = structuredClone({ a: 1 });`;
    expect(found(polyfill)).toEqual([]);
    expect(found(`globalThis.structuredClone ??= (v) => v; export const copy = structuredClone(1);`)).toEqual([]);
    // As esbuild writes ??= for ES2020.
    expect(found(`globalThis.structuredClone ?? (globalThis.structuredClone = (v) => v); export const copy = structuredClone(1);`)).toEqual(
      [],
    );
    const skipped = `if (typeof window !== "undefined") globalThis.structuredClone = (v) => v;
export const copy = structuredClone({ a: 1 });`;
    expect(found(skipped)).toEqual(["missing structuredClone"]);
  });

  test("a static method the guest's global lacks, called unguarded; guarded, nothing", () => {
    const code = `export class E extends Error { constructor(m) { super(m); Error.captureStackTrace(this, E); } }
export class F extends Error { constructor(m) { super(m); if (Error.captureStackTrace) Error.captureStackTrace(this, F); } }`;
    expect(found(code)).toEqual(byEngine({ quickjs: ["missing Error.captureStackTrace"], "quickjs-ng": [] }));
  });

  test("esbuild's require() shim with a computed name", () => {
    expect(
      found(`var __require = (x) => { throw Error("Dynamic require of " + x); }; export const m = __require(["f", "s"].join(""));`),
    ).toEqual(["require require"]);
  });
});

describe("locales the guest ignores", () => {
  test("a call that passes a locale or options is named; without them it is not", () => {
    const code = `
export const a = (1234567.891).toLocaleString("de-DE");
export const b = new Date(0).toLocaleDateString(undefined, { month: "long" });
export const c = ["b", "a"].sort((x, y) => x.localeCompare(y, "sv"));
export const d = (1).toLocaleString();
export const e = "b".localeCompare("a");
export const f = typeof window === "object" ? (2).toLocaleString("fr") : "2";`;
    expect(found(code)).toEqual([
      'locale toLocaleString("de-DE")',
      'locale toLocaleDateString(undefined, { month: "long" })',
      'locale localeCompare(y, "sv")',
    ]);
  });
});
