// The CLI precompiled: cli.ts and everything it loads (our sources, the MCP SDK, zod, yaml) built
// by Bun's bundler into one cached CommonJS file with its bytecode, so a `trailblaze` process
// skips resolving and transpiling a few hundred modules one by one, and parsing the code it runs
// (BENCHMARKS.md, W1). A command's modules are still initialized only when it runs. A start whose
// sources have no bundle runs them directly and builds one when its command is done;
// `TRAILBLAZE_PRECOMPILE=0` always runs the sources.
//
// Kept to node: imports only: main.ts loads this before anything else.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { fileStamp, PACKAGE_ROOT } from "../core/cache-files.ts";
import type { SdkPatchLedger } from "../bundle/sdk-patches.ts";

/** The CLI module, precompiled or not. */
interface CliModule {
  main(argv: string[]): Promise<void>;
  /** Work to do once the command is done: precompiling the CLI for the next start. */
  afterMain?(): Promise<void>;
}

/** Bump when the build settings below change. */
const CLI_BUNDLER_VERSION = 6;
const SOURCE_FOLDERS = ["src", "runtime-quickjs"];
/** `$TRAILBLAZE_CLI_CACHE`, else `.cache/trailblaze-cli` in the package. */
const CACHE = process.env.TRAILBLAZE_CLI_CACHE || join(PACKAGE_ROOT, ".cache", "trailblaze-cli");
/**
 * Left to node_modules: native binaries, WebAssembly, compilers and parsers, the browser driver and
 * the model providers (the AI SDK: as large as the rest of the CLI), loaded only when a command needs them.
 */
const EXTERNAL = [
  "playwright-core",
  "esbuild",
  "quickjs-emscripten",
  "quickjs-emscripten-core",
  "@jitl/*",
  "ts-json-schema-generator",
  "typescript",
  "tsx",
  "acorn",
  "acorn-walk",
  "eslint-scope",
  "ai",
  "@ai-sdk/*",
];
const EXTERNAL_IMPORT = new RegExp(`^(?:${EXTERNAL.map((name) => name.replace("/", "\\/").replace("*", "[^/]+")).join("|")})(?:/.*)?$`);

/**
 * The externals stay out of the bundle, imported by their absolute path in this package: the
 * bundle may be cached anywhere ($TRAILBLAZE_CLI_CACHE), where no node_modules folder is above it.
 */
function externalsFromPackage(): Bun.BunPlugin {
  return {
    name: "trailblaze-externals-from-package",
    setup(build) {
      build.onResolve({ filter: EXTERNAL_IMPORT }, (args) => ({
        path: Bun.resolveSync(args.path, dirname(args.importer)),
        external: true,
      }));
    },
  };
}

/** Stands in for the SDK's ajv provider in the bundle: ajv loads on first use (lazy-json-schema-validator.ts). */
const LAZY_AJV_PROVIDER = join(PACKAGE_ROOT, "src/servers/lazy-ajv-provider.ts");
/** How long a build another process started may take before this one takes over. */
const BUILD_LOCK_MS = 120_000;
/** A bundle of earlier sources older than this, and used by no live process, is removed by the next build. */
const STALE_BUNDLE_MS = 10 * 60_000;
/** The folder of a bundle holding one empty file per process using it, named by pid. */
const USERS = ".users";

/** Marks `dir` as used by this process until it exits: its source map is read when a stack is shown, so no build may remove it meanwhile. */
function lease(dir: string): void {
  const file = join(dir, USERS, String(process.pid));
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "");
    process.once("exit", () => rmSync(file, { force: true }));
  } catch {
    // A read-only cache: the bundle runs all the same, and an old one is only removed when unused for long.
  }
}

/** A live process holds a lease on `dir` (a killed one's lease does not count). */
function inUse(dir: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync(join(dir, USERS));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  });
}

/** Removes the bundles of earlier sources in `cache` (all but `current`) that are old and that no live process uses. */
export function removeStaleBundles(cache: string, current: string): void {
  for (const entry of readdirSync(cache)) {
    const path = join(cache, entry);
    if (path === current || entry.endsWith(".building") || entry.endsWith(".tmp")) continue;
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_BUNDLE_MS && !inUse(path)) rmSync(path, { recursive: true, force: true });
  }
}

/** The folder of the bundle for the current sources (it may not exist yet); throws when they cannot be stamped. */
function bundleDir(): string {
  return join(
    CACHE,
    fileStamp(
      `${CLI_BUNDLER_VERSION}\0${Bun.version}`,
      SOURCE_FOLDERS.map((folder) => join(PACKAGE_ROOT, folder)),
    ),
  );
}

/** The CLI to run: the cached bundle for these sources, else the sources (building the bundle after the command). */
export async function loadCli(): Promise<CliModule> {
  if (process.env.TRAILBLAZE_PRECOMPILE === "0") return import("./cli.ts");
  let dir: string;
  try {
    dir = bundleDir();
  } catch {
    return import("./cli.ts");
  }
  const bundled = join(dir, "cli.js");
  if (existsSync(bundled)) {
    lease(dir);
    return import(bundled);
  }
  const cli = await import("./cli.ts");
  return { main: cli.main, afterMain: () => precompile(dir) };
}

/** The precompiled CLI's entry file for the current sources, built now when missing: what users run from their second command on. */
export async function precompiledCliEntry(): Promise<string> {
  const entry = join(bundleDir(), "cli.js");
  // Another process may hold the build lock: its bundle is as good as ours.
  for (const deadline = Date.now() + BUILD_LOCK_MS; !existsSync(entry) && Date.now() < deadline; await Bun.sleep(200))
    await precompile(dirname(entry));
  if (!existsSync(entry)) throw new Error(`the CLI could not be precompiled into ${dirname(entry)}`);
  return entry;
}

/**
 * `import.meta.*` of our own files as their source paths, so paths they compute still name the
 * sources. Only real `import.meta` expressions are replaced: es-module-lexer skips strings,
 * template text and comments, so generated code (init's scaffolds) keeps its `import.meta`.
 */
async function sourceImportMeta(): Promise<Bun.BunPlugin> {
  const { init, parse } = await import("es-module-lexer");
  await init;
  const escaped = `${PACKAGE_ROOT}/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    name: "trailblaze-source-import-meta",
    setup(build) {
      build.onLoad({ filter: new RegExp(`^${escaped}(${SOURCE_FOLDERS.join("|")})/.*\\.[cm]?[jt]s$`) }, (args) => {
        const text = readFileSync(args.path, "utf8");
        return { contents: withSourceImportMeta(text, args.path, parse), loader: /\.[cm]?ts$/.test(args.path) ? "ts" : "js" };
      });
    },
  };
}

/** `text` with each `import.meta.url|path|filename|dir|dirname` replaced by its value for `path`. */
export function withSourceImportMeta(text: string, path: string, parse: typeof import("es-module-lexer").parse): string {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const values: Record<string, string> = { url: pathToFileURL(path).href, path, filename: path, dir, dirname: dir };
  let out = "";
  let last = 0;
  for (const ref of parse(text, path)[0]) {
    if (ref.type !== "import-meta") continue;
    const key = /^\.(url|path|filename|dirname|dir)\b/.exec(text.slice(ref.end, ref.end + 10));
    if (!key) continue; // import.meta.main and the like: Bun's own
    out += `${text.slice(last, ref.start)}${JSON.stringify(values[key[1]!])}`;
    last = ref.end + key[0].length;
  }
  return out + text.slice(last);
}

/** The SDK's Client and Server import their ajv provider; in the bundle they get the lazy one. */
function lazyAjv(ledger: SdkPatchLedger, sdkDist: RegExp): Bun.BunPlugin {
  return {
    name: "trailblaze-lazy-ajv",
    setup(build) {
      build.onResolve({ filter: /ajv-provider(\.js)?$/ }, (args) => {
        if (!sdkDist.test(args.importer)) return undefined;
        ledger.applied("lazyAjv");
        return { path: LAZY_AJV_PROVIDER };
      });
    },
  };
}

/**
 * Builds the bundle into `dir` (one process at a time; a lock another process holds is left to
 * it), and removes bundles of earlier sources. Never fails the command: a build that does not
 * work leaves the sources to run, as before.
 */
async function precompile(dir: string): Promise<void> {
  const lock = `${dir}.building`;
  let owned = false;
  try {
    mkdirSync(CACHE, { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) < BUILD_LOCK_MS) return;
      rmSync(lock, { recursive: true, force: true });
      mkdirSync(lock);
    }
    owned = true;
    // Built beside its final place, at the same depth, so the source maps' relative paths hold after the rename.
    const staging = `${dir}.${process.pid}.tmp`;
    const { SDK_DIST, SdkPatchLedger } = await import("../bundle/sdk-patches.ts");
    const ledger = new SdkPatchLedger("cli");
    const result = await Bun.build({
      // The CLI, and what `run`'s worker threads load (run-threads.ts finds it beside the CLI).
      entrypoints: [join(PACKAGE_ROOT, "src/cli/cli.ts"), join(PACKAGE_ROOT, "src/cli/run-threads/run-thread.ts")],
      define: { TRAILBLAZE_CLI_BUNDLE_DIR: JSON.stringify(dir) },
      target: "bun",
      // Bytecode (`cli.js.jsc`, read by Bun in place of parsing) is built for CommonJS only; the
      // commands' dynamic imports become lazy initializers in the one file.
      format: "cjs",
      bytecode: true,
      minify: { whitespace: true, syntax: true, identifiers: false },
      sourcemap: "linked",
      outdir: staging,
      naming: { entry: "[name].js" },
      plugins: [externalsFromPackage(), await sourceImportMeta(), lazyAjv(ledger, SDK_DIST)],
      metafile: true,
      throw: false,
    });
    if (!result.success || !result.metafile || !existsSync(join(staging, "cli.js"))) return;
    try {
      ledger.verify(
        Object.keys(result.metafile.inputs).map((input) => resolve(input)),
        "Cannot precompile the trailblaze CLI",
      );
    } catch (error) {
      // The sources keep running; a patch that stopped applying is said on every start until it is fixed.
      process.stderr.write(`trailblaze: ${(error as Error).message}\n`);
      return;
    }
    renameSync(staging, dir);
    removeStaleBundles(CACHE, dir);
  } catch {
    // Best effort: the sources run as they did.
  } finally {
    if (owned) {
      rmSync(`${dir}.${process.pid}.tmp`, { recursive: true, force: true });
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
