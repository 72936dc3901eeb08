// Bundles an author's MCP server file into one script for the on-device QuickJS runtime, and
// caches the result by the content of every input file plus the build options.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { BundleError } from "../errors.ts";
import { BUNDLER_VERSION, buildOrThrow, formatMessage, onDeviceBuildOptions, wrapAsScript } from "./build-options.ts";

export interface BundleOptions {
  /** Also write the bundle to this file (relative to `cwd`). Default: only the cache file. */
  outFile?: string;
  /** Cache folder. Default `<cwd>/.cache/trailblaze-bundles`. */
  cacheDir?: string;
  /** Folder that relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
}

export interface BundleResult {
  /** The bundle: a classic script (an async IIFE) for QuickJS. */
  code: string;
  /** Where the bundle was written: `outFile` when given, else the cache file. */
  path: string;
  /** UTF-8 size of `code`. */
  bytes: number;
  /** True when the cached bundle was still valid and no build ran. */
  cached: boolean;
  /** esbuild warnings, formatted `file:line:col: text`. */
  warnings: string[];
}

interface Manifest {
  key: string;
  inputs: string[];
  file: string;
  warnings: string[];
}

const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

const BUNDLER_SOURCES = ["build-options.ts", "node-builtins-plugin.ts", "sdk-swaps-plugin.ts", "zod-lean-plugin.ts"];
let bundlerHash: string | undefined;

/** The bundler's own plugin code is part of the cache key (stubs and guest files are inputs already). */
function bundlerSourceHash(): string {
  bundlerHash ??= sha256(BUNDLER_SOURCES.map((name) => readFileSync(fileURLToPath(new URL(`./${name}`, import.meta.url)), "utf8")).join("\0"));
  return bundlerHash;
}

function contentKey(fingerprint: string, inputs: readonly string[]): string | undefined {
  const hash = createHash("sha256").update(fingerprint);
  for (const input of inputs) {
    if (!existsSync(input)) return undefined;
    hash.update(`\0${input}\0`).update(readFileSync(input));
  }
  return hash.digest("hex");
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

export interface RawBuild {
  /** The wrapped script. */
  code: string;
  /** Absolute paths of every real file esbuild read (the cache key covers them all). */
  inputs: string[];
  /** Those of `inputs` with code in the output (the rest were tree-shaken away). */
  included: string[];
  warnings: string[];
}

/** Runs esbuild once (falling back to the real zod v3 when the author's code uses it). */
export async function buildOnDevice(entry: string, cwd: string, minify = true): Promise<RawBuild> {
  const seen = { authorUsesZod3: false };
  const run = (stubZod3: boolean) => buildOrThrow(onDeviceBuildOptions({ entry, cwd, minify, swaps: { stubZod3, seen } }), entry, cwd);
  let result = await run(true);
  if (seen.authorUsesZod3) result = await run(false);
  const output = result.outputFiles[0];
  if (!output) throw new BundleError(`Cannot bundle ${relative(cwd, entry) || entry} for on-device: esbuild produced no output`);
  const real = (paths: string[]) =>
    paths
      .map((input) => resolve(cwd, input))
      .filter((input) => isAbsolute(input) && existsSync(input))
      .sort();
  const inputs = real(Object.keys(result.metafile.inputs));
  const included = real(
    Object.values(result.metafile.outputs).flatMap((out) => Object.entries(out.inputs).filter(([, use]) => use.bytesInOutput > 0).map(([input]) => input)),
  );
  return {
    code: wrapAsScript(output.text),
    inputs,
    included,
    warnings: result.warnings.map((message) => formatMessage(message, cwd)),
  };
}

/**
 * Bundles `entry` (an author's `.ts`/`.js` MCP server) for QuickJS: platform neutral, ES2020,
 * minified, Node built-ins rejected, the SDK's stdio transport swapped for the in-process one.
 * Throws BundleError naming the importing file for anything that cannot run on-device.
 */
export async function bundleEntry(entry: string, opts: BundleOptions = {}): Promise<BundleResult> {
  const cwd = opts.cwd ?? process.cwd();
  const absEntry = resolve(cwd, entry);
  if (!existsSync(absEntry)) {
    throw new BundleError(`${entry}: file not found (resolved against ${cwd}; relative paths resolve against the working directory)`);
  }
  const cacheDir = resolve(cwd, opts.cacheDir ?? ".cache/trailblaze-bundles");
  const fingerprint = JSON.stringify({ BUNDLER_VERSION, absEntry, esbuild: esbuild.version, bundler: bundlerSourceHash() });
  const stem = `${basename(absEntry, extname(absEntry))}-${sha256(fingerprint).slice(0, 16)}`;
  const manifestFile = join(cacheDir, `${stem}.json`);
  const outFile = opts.outFile === undefined ? undefined : resolve(cwd, opts.outFile);

  const manifest = readManifest(manifestFile);
  if (manifest && existsSync(manifest.file) && contentKey(fingerprint, manifest.inputs) === manifest.key) {
    const code = readFileSync(manifest.file, "utf8");
    if (outFile) writeOut(outFile, code);
    return { code, path: outFile ?? manifest.file, bytes: Buffer.byteLength(code), cached: true, warnings: manifest.warnings };
  }

  const built = await buildOnDevice(absEntry, cwd);
  const key = contentKey(fingerprint, built.inputs);
  const file = join(cacheDir, `${stem}.js`);
  writeOut(file, built.code);
  if (key) {
    const next: Manifest = { key, inputs: built.inputs, file, warnings: built.warnings };
    writeOut(manifestFile, JSON.stringify(next, null, 1));
  }
  if (outFile) writeOut(outFile, built.code);
  return { code: built.code, path: outFile ?? file, bytes: Buffer.byteLength(built.code), cached: false, warnings: built.warnings };
}

/** Writes via a temporary file and a rename, so a concurrent reader never sees half a bundle. */
function writeOut(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
