// The static half of check-bundle: a second esbuild pass over the author's entry in which every
// host-only free global (fetch, process, Buffer...) is `define`d to a sentinel; each sentinel
// left in the output is a use, mapped back to its source file and line. These globals bundle
// silently and only fail at run time in QuickJS. Uses that only trailblaze's own runtime code
// reaches (its guest transport, serveTools and what they import) are left out: that code runs
// on-device in our own tests, so a host global in it is behind a path that never runs there.
// Each use is classed by the text before it on its generated line (esbuild prints one statement a
// line): a feature test of the same global (`typeof X`, a bare `globalThis.X`, anywhere in the
// file) guards it; a branch that cannot run on-device (a UMD wrapper's fallback) is left out; after
// a feature test of something else it is `featureTested` (check-bundle warns); otherwise it throws.
import { join, relative, resolve, sep } from "node:path";
import type { Metafile } from "esbuild";
import { PACKAGE_ROOT } from "../core/cache-files.ts";
import { buildOrThrow, onDeviceBuildOptions } from "./build-options.ts";
import { SdkPatchLedger } from "./sdk-patches.ts";
import { SourceMap, type SourceMapPayload } from "node:module";

/**
 * Globals that Node, Bun or browsers have and the on-device runtime does not: neither QuickJS
 * (quickjs-emscripten's quickjs and quickjs-ng) nor our prelude (runtime-quickjs/guest/prelude.ts)
 * defines them. test/check-bundle-packages.test.ts checks each against the real guest, and that
 * every global of Bun's the guest lacks is here. `performance` exists on quickjs-ng only; the
 * default engine lacks it.
 */
export const HOST_ONLY_GLOBALS = [
  // Node and Bun
  "process",
  "Buffer",
  "__dirname",
  "__filename",
  "global",
  "setImmediate",
  "clearImmediate",
  "Bun",
  "Deno",
  // Web APIs
  "fetch",
  "XMLHttpRequest",
  "WebSocket",
  "EventSource",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "Blob",
  "File",
  "FileReader",
  "TextEncoder",
  "TextDecoder",
  "TextEncoderStream",
  "TextDecoderStream",
  "crypto",
  "Crypto",
  "CryptoKey",
  "SubtleCrypto",
  "performance",
  "Performance",
  "PerformanceEntry",
  "PerformanceMark",
  "PerformanceMeasure",
  "PerformanceObserver",
  "PerformanceObserverEntryList",
  "PerformanceResourceTiming",
  "PerformanceServerTiming",
  "PerformanceTiming",
  "structuredClone",
  "reportError",
  "URLPattern",
  "Event",
  "EventTarget",
  "CustomEvent",
  "ErrorEvent",
  "CloseEvent",
  "MessageEvent",
  "MessageChannel",
  "MessagePort",
  "BroadcastChannel",
  "Worker",
  "addEventListener",
  "removeEventListener",
  "dispatchEvent",
  "postMessage",
  "ReadableStream",
  "ReadableStreamDefaultReader",
  "ReadableStreamBYOBReader",
  "ReadableStreamBYOBRequest",
  "ReadableStreamDefaultController",
  "ReadableByteStreamController",
  "WritableStream",
  "WritableStreamDefaultWriter",
  "WritableStreamDefaultController",
  "TransformStream",
  "TransformStreamDefaultController",
  "ByteLengthQueuingStrategy",
  "CountQueuingStrategy",
  "CompressionStream",
  "DecompressionStream",
  // ECMAScript built-ins this QuickJS leaves out
  "Intl",
  "Temporal",
  "Atomics",
  "WebAssembly",
  "ShadowRealm",
  "DisposableStack",
  "AsyncDisposableStack",
  "SuppressedError",
  // browsers
  "navigator",
  "window",
  "document",
  "self",
  "location",
  "history",
  "localStorage",
  "sessionStorage",
  "indexedDB",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "requestIdleCallback",
  "alert",
  "confirm",
  "prompt",
] as const;

const SENTINEL = "__trailblaze_host_global_";
const sentinelOf = (name: string) => `${SENTINEL}${name}__`;
/** `globalThis.X`: reading it is no error (it is undefined), only calling it or reading through it is. */
const PROPERTY = "__trailblaze_host_property_";
const propertyOf = (name: string) => `${PROPERTY}${name}__`;
/**
 * A feature test that always passes on-device, then a later branch of the same conditional: a UMD
 * wrapper's `typeof exports == "object" && typeof module != "undefined" ? module.exports = f() : …
 * (g = typeof globalThis != "undefined" ? globalThis : g || self).lib = f()`. esbuild wraps such a
 * file in a function of `exports` and `module`, and QuickJS has `globalThis`, so the fallback never runs.
 */
const BOUND = String.raw`(?:exports|module|globalThis)`;
const PRESENT = String.raw`(?:typeof\s+${BOUND}\s*(?:===?\s*["']object["']|!==?\s*["']undefined["']|<\s*["']u["'])|(?:["']object["']\s*===?|["']undefined["']\s*!==?|["']u["']\s*>)\s*typeof\s+${BOUND}\b)`;
const AFTER_PASSING_TEST = new RegExp(String.raw`${PRESENT}[^;{}]*\?[^;{}]*:[^;{}]*$`);

/** A `typeof` feature test (not a type check such as `typeof x === "string"`), then `?`, `&&` or `||`. */
const KIND = String.raw`["'](?:undefined|u|object|function)["']`;
const FEATURE_TEST = new RegExp(
  String.raw`(?:\btypeof\s+[\w$.]+\s*[=!<>]=?=?\s*${KIND}|${KIND}\s*[=!<>]=?=?\s*typeof\s+[\w$.]+)[^;{}]*(?:\?|&&|\|\|)`,
);

/** esbuild's stand-in for a `require(x)` it could not bundle: it throws at run time. */
const REQUIRE_SHIM = "__require";

export interface HostGlobalUse {
  /** `fetch`, `process.env`, `require`, `import()` (a dynamic import esbuild could not bundle)... */
  name: string;
  /** Source file relative to the working directory. */
  source: string;
  line: number;
  column: number;
  /**
   * A feature test of the global itself (`typeof X`, a bare `globalThis.X`), or a use in a file
   * that tests the same global so: the file is taken to check before it uses.
   */
  guarded: boolean;
  /**
   * Not guarded, but after a feature test of something else in the same expression (`typeof
   * exports === "object" ? … : self`, a UMD wrapper's fallback): it throws on-device only if that
   * branch is taken, which the scan cannot tell.
   */
  featureTested: boolean;
}

/** The host-only globals the code reachable from `entry` uses; `cacheRoot` holds the supplied packages in its `.cache/` (default `cwd`). */
export async function scanHostGlobals(entry: string, cwd: string, cacheRoot = cwd): Promise<HostGlobalUse[]> {
  const options = onDeviceBuildOptions({
    entry,
    cwd,
    cacheRoot,
    minify: false,
    swaps: { stubZod3: true, seen: { authorUsesZod3: false }, ledger: new SdkPatchLedger("on-device") },
  });
  const define: Record<string, string> = { ...options.define };
  for (const name of HOST_ONLY_GLOBALS) {
    define[name] = sentinelOf(name);
    define[`globalThis.${name}`] = propertyOf(name);
  }
  const result = await buildOrThrow({ ...options, define, sourcemap: "external", outfile: resolve(cwd, "trailblaze-scan.js") }, entry, cwd);
  const authors = authorReachable(result.metafile, relative(cwd, entry), cwd);
  const js = result.outputFiles.find((file) => file.path.endsWith(".js"));
  const map = result.outputFiles.find((file) => file.path.endsWith(".js.map"));
  if (!js || !map) return [];
  const mapper = new SourceMap(JSON.parse(map.text) as SourceMapPayload);
  const mapDir = resolve(cwd);

  const uses: HostGlobalUse[] = [];
  /** `file\0global` for each file that feature-tests the global. */
  const tested = new Set<string>();
  const pattern = new RegExp(
    `(typeof\\s+)?(?:(${SENTINEL}|${PROPERTY})(\\w+?)__(\\.[A-Za-z_$][\\w$]*)?|(?<![.\\w$])(${REQUIRE_SHIM}|import)\\()`,
    "g",
  );
  js.text.split("\n").forEach((lineText, lineIndex) => {
    if (/^\s*var __require\b/.test(lineText)) return;
    for (const match of lineText.matchAll(pattern)) {
      const [, typeOf, kind, global, member, call] = match;
      const name =
        global !== undefined ? global + (global === "process" && member ? member : "") : call === "import" ? "import()" : "require";
      const column = match.index! + (typeOf?.length ?? 0);
      // The nearest mapping at or before the position, on the same generated line.
      const at = mapper.findEntry(lineIndex, column);
      if (!("originalSource" in at) || at.generatedLine !== lineIndex) continue;
      // `typeof X` is safe; `typeof X.y`, `typeof X(...)` and `typeof require(...)` still evaluate X.
      const next = lineText[match.index! + match[0].length] ?? "";
      const before = lineText.slice(0, match.index!);
      const bare = global !== undefined && member === undefined && !/[([.]/.test(next);
      // A bare `globalThis.X` is undefined, no error; `new globalThis.X` and `globalThis.X(...)` throw.
      const test = bare && (typeOf !== undefined || (kind === PROPERTY && !/\bnew\s+$/.test(before)));
      // The rest of the expression after a feature test: `typeof a == "object" ? … : X`, `typeof b < "u" && X`.
      const featureTested = FEATURE_TEST.test(before);
      const source = relative(cwd, resolve(mapDir, at.originalSource));
      if (!authors.has(source)) continue;
      if (test) tested.add(`${source}\0${name.split(".")[0]}`);
      const guarded = test || AFTER_PASSING_TEST.test(before);
      uses.push({ name, source, line: at.originalLine + 1, column: at.originalColumn + 1, guarded, featureTested });
    }
  });
  // A file that tests `typeof X` is taken to guard its other uses of X (the usual feature check).
  return uses.map((use) => ({ ...use, guarded: use.guarded || tested.has(`${use.source}\0${use.name.split(".")[0]}`) }));
}

/** This runtime's own code: its sources, and an installed copy of it or of @trailblaze/scripting a workspace resolves to. */
const RUNTIME_FOLDERS = [join(PACKAGE_ROOT, "src") + sep, join(PACKAGE_ROOT, "runtime-quickjs") + sep];
const RUNTIME_PACKAGES = /[\\/]node_modules[\\/](?:trailblaze-ts|@trailblaze[\\/]scripting)[\\/]/;

/**
 * The bundle's inputs (paths relative to `cwd`, as the metafile and source map name them) that the
 * entry reaches without passing through trailblaze's own runtime files: the author's files and
 * every package they import themselves.
 */
function authorReachable(metafile: Metafile, entry: string, cwd: string): Set<string> {
  const ours = (input: string) => {
    const path = resolve(cwd, input);
    return RUNTIME_FOLDERS.some((folder) => path.startsWith(folder)) || RUNTIME_PACKAGES.test(path);
  };
  const reached = new Set<string>();
  const pending = [entry];
  for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
    if (reached.has(input) || (input !== entry && ours(input))) continue;
    reached.add(input);
    for (const imported of metafile.inputs[input]?.imports ?? []) pending.push(imported.path);
  }
  return reached;
}
