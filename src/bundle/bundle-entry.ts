// Bundles an author's MCP server file into one script for the on-device QuickJS runtime, and
// caches the result by the content of every input file plus the build options.
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { BundleError } from "../errors.ts";
import { writeAtomically } from "../core/cache-files.ts";
import { BuildCache, sha256 } from "./build-cache.ts";
import {
  BUNDLER_VERSION,
  buildOrThrow,
  formatMessage,
  onDeviceBuildOptions,
  wrapAsScript,
  type OnDeviceBuildOptions,
} from "./build-options.ts";
import { SdkPatchLedger, type SdkPatchId } from "./sdk-patches.ts";
import { suppliedIn } from "./supplied-packages.ts";

export interface BundleOptions {
  /** Also write the bundle to this file (relative to `cwd`). Default: only the cache file. */
  outFile?: string;
  /** Cache folder. Default `<cacheRoot>/.cache/trailblaze-bundles`. */
  cacheDir?: string;
  /**
   * The folder whose `.cache/` the build uses (the bundles, unless `cacheDir`, and the supplied
   * packages): the workspace root, so a run from any of its folders shares one cache. Default `cwd`.
   */
  cacheRoot?: string;
  /** Folder that relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
  /** Modules bundled from this source instead of their file (absolute path → source); part of the cache key. */
  stubs?: ReadonlyMap<string, string>;
}

interface BundleResult {
  /** The bundle: a classic script (an async IIFE) for QuickJS. */
  code: string;
  /** Where the bundle was written: `outFile` when given, else the cache file. */
  path: string;
  /** UTF-8 size of `code`. */
  bytes: number;
  /** The v3 source map of `code` (sources relative to `cwd`), for mapping guest stack frames; a cached one is read on first use. */
  sourceMap?: string;
  /** True when the cached bundle was still valid and no build ran. */
  cached: boolean;
  /** esbuild warnings, formatted `file:line:col: text`. */
  warnings: string[];
  /** The packages trailblaze-ts supplied because the workspace does not install them (`name version`). */
  supplied: string[];
}

const BUNDLER_SOURCES = [
  "build-options.ts",
  "supplied-packages.ts",
  "node-builtins-plugin.ts",
  "sdk-patches.ts",
  "sdk-swaps-plugin.ts",
  "zod-lean-plugin.ts",
  "pure-schemas-plugin.ts",
  "call-path-plugin.ts",
];
let bundlerHash: string | undefined;

/** esbuild's version, from its package.json (importing esbuild itself costs ~20 ms a process). */
function esbuildVersion(): string {
  const file = createRequire(import.meta.url).resolve("esbuild/package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** The bundler's own plugin code is part of the cache key (stubs and guest files are inputs already). */
function bundlerSourceHash(): string {
  bundlerHash ??= sha256(
    BUNDLER_SOURCES.map((name) => readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), "utf8")).join("\0"),
  );
  return bundlerHash;
}

interface RawBuild {
  /** The wrapped script. */
  code: string;
  /** Its source map (esbuild's, for the unwrapped output: line 1 is shifted by SCRIPT_PREFIX). */
  map: string;
  /** Absolute paths of every real file esbuild read (the cache key covers them all). */
  inputs: string[];
  /** Those of `inputs` with code in the output (the rest were tree-shaken away). */
  included: string[];
  warnings: string[];
  /** The SDK patches the build applied (sdk-patches.ts). */
  patches: SdkPatchId[];
}

/** Runs esbuild once (falling back to the real zod v3 when the author's code uses it). */
export async function buildOnDevice(
  entry: string,
  cwd: string,
  minify = true,
  more: Pick<OnDeviceBuildOptions, "stubs" | "cacheDir" | "cacheRoot"> = {},
): Promise<RawBuild> {
  const seen = { authorUsesZod3: false };
  let ledger = new SdkPatchLedger("on-device");
  const run = (stubZod3: boolean) =>
    buildOrThrow(onDeviceBuildOptions({ ...more, entry, cwd, minify, swaps: { stubZod3, seen, ledger } }), entry, cwd);
  let result = await run(true);
  if (seen.authorUsesZod3) {
    ledger = new SdkPatchLedger("on-device");
    result = await run(false);
  }
  const output = result.outputFiles.find((file) => file.path.endsWith(".js"));
  const map = result.outputFiles.find((file) => file.path.endsWith(".js.map"));
  if (!output || !map) throw new BundleError(`Cannot bundle ${relative(cwd, entry) || entry} for on-device: esbuild produced no output`);
  const real = (paths: string[]) =>
    paths
      .map((input) => resolve(cwd, input))
      .filter((input) => isAbsolute(input) && existsSync(input))
      .sort();
  const inputs = real(Object.keys(result.metafile.inputs));
  ledger.verify(inputs, `Cannot bundle ${relative(cwd, entry) || entry} for on-device`);
  const included = real(
    Object.values(result.metafile.outputs).flatMap((out) =>
      Object.entries(out.inputs)
        .filter(([, use]) => use.bytesInOutput > 0)
        .map(([input]) => input),
    ),
  );
  return {
    code: wrapAsScript(output.text),
    map: map.text,
    inputs,
    included,
    warnings: result.warnings.map((message) => formatMessage(message, cwd)),
    patches: ledger.patches,
  };
}

/** Cached bundles this process read, by file, with the stat they had: each session of a `run` reuses the strings. */
const readBundles = new Map<string, { stamp: string; code: string; bytes: number; sourceMap?: string }>();

/** A cached bundle (its source map read on first use), read once per process while neither file changes; undefined when either is gone. */
function readCached(file: string): { code: string; bytes: number; sourceMap?: string } | undefined {
  const stats = [file, `${file}.map`].map((path) => statSync(path, { throwIfNoEntry: false }));
  if (!stats[0] || !stats[1]) return undefined;
  const stamp = stats.map((stat) => `${stat!.ino}:${stat!.size}:${stat!.mtimeMs}`).join(" ");
  const known = readBundles.get(file);
  if (known?.stamp === stamp) return known;
  const code = readFileSync(file, "utf8");
  const read = { stamp, code, bytes: Buffer.byteLength(code) };
  readBundles.set(file, read);
  return read;
}

/**
 * Bundles `entry` (an author's `.ts`/`.js` MCP server) for QuickJS: platform neutral, ES2020,
 * minified, Node built-ins rejected, the SDK's stdio transport swapped for the in-process one.
 * Throws BundleError naming the importing file for anything that cannot run on-device.
 */
export async function bundleEntry(entry: string, opts: BundleOptions = {}): Promise<BundleResult> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const absEntry = resolve(cwd, entry);
  if (!existsSync(absEntry)) {
    throw new BundleError(`${entry}: file not found (resolved against ${cwd}; relative paths resolve against the working directory)`);
  }
  const cacheRoot = resolve(cwd, opts.cacheRoot ?? ".");
  const cache = new BuildCache(
    resolve(cacheRoot, opts.cacheDir ?? ".cache/trailblaze-bundles"),
    absEntry,
    JSON.stringify({
      BUNDLER_VERSION,
      absEntry,
      esbuild: esbuildVersion(),
      bundler: bundlerSourceHash(),
      stubs: opts.stubs ? [...opts.stubs].sort() : [],
      // Warnings and the source map name files relative to the working directory: a build from
      // another folder than the cache's own keeps an entry of its own.
      ...(cacheRoot === cwd ? {} : { cwd }),
    }),
  );
  const outFile = opts.outFile === undefined ? undefined : resolve(cwd, opts.outFile);

  const hit = cache.lookup();
  const read = hit && readCached(hit.file);
  if (hit && read) {
    if (outFile) writeAtomically(outFile, read.code);
    return {
      code: read.code,
      path: outFile ?? hit.file,
      bytes: read.bytes,
      cached: true,
      warnings: hit.warnings,
      supplied: hit.supplied ?? [],
      // Read when asked for: a session that lists tools from the cache never runs the bundle (servers/listing-cache.ts).
      get sourceMap() {
        read.sourceMap ??= readFileSync(`${hit.file}.map`, "utf8");
        return read.sourceMap;
      },
    };
  }

  const start = cache.begin();
  const built = await buildOnDevice(absEntry, cwd, true, {
    ...(opts.stubs ? { stubs: opts.stubs } : {}),
    cacheDir: cache.cacheDir,
    cacheRoot,
  });
  const file = join(cache.cacheDir, `${cache.stem}.js`);
  writeAtomically(`${file}.map`, built.map);
  writeAtomically(file, built.code);
  const supplied = suppliedIn(built.inputs);
  cache.store({ file, warnings: built.warnings, supplied }, built.inputs, start);
  if (outFile) writeAtomically(outFile, built.code);
  return {
    code: built.code,
    path: outFile ?? file,
    bytes: Buffer.byteLength(built.code),
    cached: false,
    warnings: built.warnings,
    supplied,
    sourceMap: built.map,
  };
}
