// The static half of check-bundle: the author's entry bundled as it is for on-device (unminified,
// with a source map), then what its code does that the guest cannot (on-device-uses.ts: a global
// the guest lacks, a require() or import() esbuild left, a locale the guest ignores), decided on
// the syntax tree with the real guest's globals, each use mapped back to its source file and line.
// Uses that only trailblaze's own runtime code reaches (its guest transport, serveTools and what
// they import) and the packages it supplies to every on-device bundle (the MCP SDK, zod) are left
// out: that code runs on-device in our own tests.
import { join, relative, resolve, sep } from "node:path";
import { SourceMap, type SourceMapPayload } from "node:module";
import type { Metafile, Plugin } from "esbuild";
import { guestGlobals } from "../../runtime-quickjs/index.ts";
import { PACKAGE_ROOT } from "../core/cache-files.ts";
import { buildOrThrow, onDeviceBuildOptions } from "./build-options.ts";
import { onDeviceUses, type OnDeviceUse } from "./on-device-uses.ts";
import { SdkPatchLedger } from "./sdk-patches.ts";

export interface HostGlobalUse extends Omit<OnDeviceUse, "line" | "column"> {
  /** Source file relative to the working directory. */
  source: string;
  /** 1-based, in the source file. */
  line: number;
  column: number;
}

/** What the code reachable from `entry` does that the guest cannot; `cacheRoot` holds the supplied packages in its `.cache/` (default `cwd`). */
export async function scanHostGlobals(entry: string, cwd: string, cacheRoot = cwd): Promise<HostGlobalUse[]> {
  const options = onDeviceBuildOptions({
    entry,
    cwd,
    cacheRoot,
    minify: false,
    swaps: { stubZod3: true, seen: { authorUsesZod3: false }, ledger: new SdkPatchLedger("on-device") },
  });
  const plugins = [suppliedPackagesLeftOut(), ...(options.plugins ?? [])];
  const [result, guest] = await Promise.all([
    buildOrThrow({ ...options, plugins, outfile: resolve(cwd, "trailblaze-scan.js") }, entry, cwd),
    guestGlobals(),
  ]);
  const js = result.outputFiles.find((file) => file.path.endsWith(".js"));
  const map = result.outputFiles.find((file) => file.path.endsWith(".js.map"));
  if (!js || !map) return [];
  const authors = authorReachable(result.metafile, relative(cwd, entry), cwd);
  const mapper = new SourceMap(JSON.parse(map.text) as SourceMapPayload);
  const found: HostGlobalUse[] = [];
  for (const use of onDeviceUses(js.text, guest)) {
    // The nearest mapping at or before the position, on the same generated line.
    const at = mapper.findEntry(use.line - 1, use.column);
    if (!("originalSource" in at) || at.generatedLine !== use.line - 1) continue;
    const source = relative(cwd, resolve(cwd, at.originalSource));
    if (authors.has(source)) found.push({ ...use, source, line: at.originalLine + 1, column: at.originalColumn + 1 });
  }
  return found;
}

/**
 * This runtime's own code: its sources, an installed copy of it or of @trailblaze/scripting a
 * workspace resolves to, and the MCP SDK and zod, which every on-device bundle has and our own
 * tests run on-device (zod's `input instanceof File`, say, runs only for a File, which no guest has).
 */
const RUNTIME_FOLDERS = [join(PACKAGE_ROOT, "src") + sep, join(PACKAGE_ROOT, "runtime-quickjs") + sep];
const RUNTIME_PACKAGES = /[\\/]node_modules[\\/](?:trailblaze-ts|@trailblaze[\\/]scripting|@modelcontextprotocol[\\/]sdk|zod)[\\/]/;

/** The MCP SDK and zod, wherever they are installed (an esbuild filter: Go's regular expressions). */
const SUPPLIED_PACKAGES = /[\\/]node_modules[\\/](?:@modelcontextprotocol[\\/]sdk|zod)[\\/]/;

/**
 * Loads each file of the MCP SDK and zod as an empty CommonJS module, so the scan's bundle holds
 * little more than what the author's code reaches: their uses would be left out anyway
 * (authorReachable), and parsing them cost a `check` ~0.5 s a server. Every import of such a file
 * stays in the metafile, where authorReachable stops at it. trailblaze's own runtime is scanned:
 * the globals it defines on-device (`globalThis.__trailblazeCall`) are not missing.
 */
function suppliedPackagesLeftOut(): Plugin {
  return {
    name: "trailblaze-scan-supplied-left-out",
    setup(build) {
      build.onLoad({ filter: SUPPLIED_PACKAGES }, () => ({ contents: "module.exports = {};\n", loader: "js" }));
    },
  };
}

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
