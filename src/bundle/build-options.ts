// The esbuild configuration for on-device bundles, shared by `bundleEntry` and the static pass
// of `checkBundle`, plus the formatting of esbuild messages.
import { dirname, join, relative, resolve } from "node:path";
import type { BuildFailure, BuildOptions, BuildResult, Message, Plugin, SameShape } from "esbuild";
import { BundleError } from "../errors.ts";
import { callPathPlugin } from "./call-path-plugin.ts";
import { NODE_BUILTINS_PLUGIN, nodeBuiltinsPlugin } from "./node-builtins-plugin.ts";
import { pureSchemasPlugin } from "./pure-schemas-plugin.ts";
import { sdkSwapsPlugin, type SdkSwapsOptions } from "./sdk-swaps-plugin.ts";
import { suppliedNodePath } from "./supplied-packages.ts";
import { zodLeanPlugin } from "./zod-lean-plugin.ts";

/** Bumped whenever the bundle layout or plugins change, so cached bundles are rebuilt. */
export const BUNDLER_VERSION = "trailblaze-bundle-2";

/** Name of the virtual entry that imports the author's file. */
const ENTRY_SHIM = "trailblaze-entry.js";

export interface OnDeviceBuildOptions {
  /** Absolute path of the author's entry file. */
  entry: string;
  cwd: string;
  swaps: SdkSwapsOptions;
  minify: boolean;
  /** Modules whose source the build uses instead of the file's (absolute path → source). */
  stubs?: ReadonlyMap<string, string>;
  /** The bundle cache's folder, where what the plugins work out once per installed package is kept (zod-lean-plugin.ts). */
  cacheDir?: string;
  /** The folder whose `.cache/` holds the supplied packages (supplied-packages.ts): the workspace root. Default `cwd`. */
  cacheRoot?: string;
}

/**
 * esbuild options: platform neutral (nothing of Node), ES2020, ESM with top-level await allowed
 * (authors write `await server.connect(...)`), to be wrapped in an async IIFE by the caller.
 * The entry is imported from a one-line shim so the output has no `export` statements.
 */
export function onDeviceBuildOptions(opts: OnDeviceBuildOptions): BuildOptions & { write: false; metafile: true } {
  return {
    absWorkingDir: opts.cwd,
    // Names the output so the source map's `sources` are relative to the working directory.
    outfile: join(opts.cwd, ON_DEVICE_OUTFILE),
    sourcemap: "external",
    // Maps place a guest's stack frames in the author's files; nothing shows the sources from the
    // map, and leaving their text out makes it ~3x smaller (0.68 → 0.25 MB with the SDK and zod).
    sourcesContent: false,
    stdin: {
      contents: `import ${JSON.stringify(opts.entry)};\n`,
      resolveDir: dirname(opts.entry),
      sourcefile: ENTRY_SHIM,
      loader: "js",
    },
    bundle: true,
    write: false,
    metafile: true,
    platform: "neutral",
    format: "esm",
    target: "es2020",
    supported: { "top-level-await": true, "import-meta": false },
    mainFields: ["module", "main"],
    // After the workspace's own node_modules: our copies of what tools import (supplied-packages.ts).
    nodePaths: [suppliedNodePath(opts.cacheRoot ?? opts.cwd)],
    conditions: ["import", "default"],
    resolveExtensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
    define: { "process.env.NODE_ENV": '"production"' },
    minify: opts.minify,
    charset: "utf8",
    legalComments: "none",
    logLevel: "silent",
    plugins: [
      ...(opts.stubs?.size ? [stubsPlugin(opts.stubs)] : []),
      nodeBuiltinsPlugin(),
      sdkSwapsPlugin(opts.swaps),
      zodLeanPlugin(opts.cacheDir),
      pureSchemasPlugin(opts.swaps.ledger),
      callPathPlugin(opts.swaps.ledger),
    ],
  };
}

/** Loads each file of `stubs` from its given source instead of the disk (its own imports are never reached). */
function stubsPlugin(stubs: ReadonlyMap<string, string>): Plugin {
  return {
    name: "trailblaze-stubs",
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) => {
        const contents = stubs.get(args.path);
        return contents === undefined ? undefined : { contents, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/** The name esbuild gives the on-device output (never written): its map's sources are relative to the cwd. */
const ON_DEVICE_OUTFILE = "trailblaze-on-device.js";

/** What wrapAsScript puts before esbuild's first line: its source map's columns on line 1 shift by this much. */
export const SCRIPT_PREFIX = "(async()=>{";

/** Wraps esbuild's ESM output so it runs as a classic script; evaluates to the module's promise. */
export function wrapAsScript(esm: string): string {
  // esbuild puts no hashbang in the output of a stdin entry, so line numbers stay as mapped.
  const body = esm.replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n");
  return `${SCRIPT_PREFIX}${body}})();\n`;
}

export function formatMessage(message: Message, cwd: string): string {
  const loc = message.location;
  if (!loc) return message.text;
  // esbuild gives paths relative to its working directory (`cwd`), or absolute.
  const file = loc.namespace === "file" || loc.namespace === "" ? relative(cwd, resolve(cwd, loc.file)) || loc.file : loc.file;
  return `${file}:${loc.line}:${loc.column + 1}: ${message.text}`;
}

/** Runs esbuild; a failed build becomes a BundleError listing every message as `file:line:col: text`. */
export async function buildOrThrow<T extends BuildOptions>(
  options: SameShape<BuildOptions, T>,
  entry: string,
  cwd: string,
): Promise<BuildResult<T>> {
  // Loaded on the first build: a session whose bundle is cached never needs esbuild.
  const esbuild = await import("esbuild");
  try {
    return await esbuild.build(options);
  } catch (error) {
    const failure = error as BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    const lines = failure.errors.map((message) => formatMessage(message, cwd));
    const what = `Cannot bundle ${relative(cwd, entry) || entry} for on-device`;
    const hostOnly = failure.errors.every((message) => message.pluginName === NODE_BUILTINS_PLUGIN);
    throw new BundleError(lines.length === 1 ? `${what}: ${lines[0]}` : `${what}:\n  ${lines.join("\n  ")}`, { cause: error, hostOnly });
  }
}
