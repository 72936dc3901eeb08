// The static half of check-bundle: a second esbuild pass over the author's entry in which every
// host-only free global (fetch, process, Buffer...) is `define`d to a sentinel; each sentinel
// left in the output is a use, mapped back to its source file and line. These globals bundle
// silently and only fail at run time in QuickJS. Uses that only trailblaze's own runtime code
// reaches (its guest transport, serveTools and what they import) are left out: that code runs
// on-device in our own tests, so a host global in it is behind a path that never runs there.
import { join, relative, resolve, sep } from "node:path";
import type { Metafile } from "esbuild";
import { PACKAGE_ROOT } from "../core/cache-files.ts";
import { buildOrThrow, onDeviceBuildOptions } from "./build-options.ts";
import { SdkPatchLedger } from "./sdk-patches.ts";
import { SourceMap, type SourceMapPayload } from "node:module";

/** Globals that exist in Node/Bun/browsers but not in the on-device runtime. */
export const HOST_ONLY_GLOBALS = [
  "process", "Buffer", "__dirname", "__filename", "global", "setImmediate", "clearImmediate",
  "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "Request", "Response", "Headers", "FormData", "Blob", "File",
  "TextEncoder", "TextDecoder", "crypto", "performance", "structuredClone",
  "navigator", "window", "document", "self", "localStorage", "sessionStorage", "Bun", "Deno",
] as const;

const SENTINEL = "__trailblaze_host_global_";
const sentinelOf = (name: string) => `${SENTINEL}${name}__`;
/** esbuild's stand-in for a `require(x)` it could not bundle: it throws at run time. */
const REQUIRE_SHIM = "__require";

export interface HostGlobalUse {
  /** `fetch`, `process.env`, `require`, `import()` (a dynamic import esbuild could not bundle)... */
  name: string;
  /** Source file relative to the working directory. */
  source: string;
  line: number;
  column: number;
  /** Only under `typeof`, or in a file that checks `typeof` of the same global first. */
  guarded: boolean;
}

/** The host-only globals the code reachable from `entry` uses; `cacheRoot` holds the supplied packages in its `.cache/` (default `cwd`). */
export async function scanHostGlobals(entry: string, cwd: string, cacheRoot = cwd): Promise<HostGlobalUse[]> {
  const options = onDeviceBuildOptions({ entry, cwd, cacheRoot, minify: false, swaps: { stubZod3: true, seen: { authorUsesZod3: false }, ledger: new SdkPatchLedger("on-device") } });
  const define: Record<string, string> = { ...options.define };
  for (const name of HOST_ONLY_GLOBALS) {
    define[name] = sentinelOf(name);
    define[`globalThis.${name}`] = sentinelOf(name);
  }
  const result = await buildOrThrow({ ...options, define, sourcemap: "external", outfile: resolve(cwd, "trailblaze-scan.js") }, entry, cwd);
  const authors = authorReachable(result.metafile, relative(cwd, entry), cwd);
  const js = result.outputFiles.find((file) => file.path.endsWith(".js"));
  const map = result.outputFiles.find((file) => file.path.endsWith(".js.map"));
  if (!js || !map) return [];
  const mapper = new SourceMap(JSON.parse(map.text) as SourceMapPayload);
  const mapDir = resolve(cwd);

  const uses: HostGlobalUse[] = [];
  const pattern = new RegExp(`(typeof\\s+)?(?:${SENTINEL}(\\w+?)__(\\.[A-Za-z_$][\\w$]*)?|(?<![.\\w$])(${REQUIRE_SHIM}|import)\\()`, "g");
  js.text.split("\n").forEach((lineText, lineIndex) => {
    if (/^\s*var __require\b/.test(lineText)) return;
    for (const match of lineText.matchAll(pattern)) {
      const name =
        match[2] !== undefined ? match[2] + (match[2] === "process" && match[3] ? match[3] : "") : match[4] === "import" ? "import()" : "require";
      const column = match.index! + (match[1]?.length ?? 0);
      // The nearest mapping at or before the position, on the same generated line.
      const at = mapper.findEntry(lineIndex, column);
      if (!("originalSource" in at) || at.generatedLine !== lineIndex) continue;
      // `typeof X` is safe; `typeof X.y`, `typeof X(...)` and `typeof require(...)` still evaluate X.
      const next = lineText[match.index! + match[0].length] ?? "";
      const guarded = match[1] !== undefined && match[2] !== undefined && match[3] === undefined && !/[([.]/.test(next);
      const source = relative(cwd, resolve(mapDir, at.originalSource));
      if (!authors.has(source)) continue;
      uses.push({ name, source, line: at.originalLine + 1, column: at.originalColumn + 1, guarded });
    }
  });
  // A file that tests `typeof X` is taken to guard its other uses of X (the usual feature check).
  const guardedFiles = new Set(uses.filter((use) => use.guarded).map((use) => `${use.source}\0${use.name.split(".")[0]}`));
  return uses.map((use) => ({ ...use, guarded: use.guarded || guardedFiles.has(`${use.source}\0${use.name.split(".")[0]}`) }));
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
