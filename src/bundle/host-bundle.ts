// Precompiles a `script:` server for the host: one file built by Bun's own bundler (target bun,
// minified, a linked source map that Bun applies, so stack traces name the author's file:line),
// cached by the content of every input. A server starts from it ~25 % faster than from source:
// Bun skips resolving and transpiling the SDK and zod module by module (BENCHMARKS.md, P1). As in
// the on-device bundles, the SDK's ajv provider is replaced by a small validator of elicitation
// replies (evaluating ajv was another ~13 % of a server's start), and the SDK's protocol schemas
// the server never uses are left out (pure-schemas-plugin.ts). A server a process starts often is
// compiled to Bun bytecode as well (BYTECODE_AFTER_STARTS, bytecode.ts).
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BundleError } from "../errors.ts";
import { checkCacheFolder, writeAtomically } from "../core/cache-files.ts";
import { BuildCache, statSignature } from "./build-cache.ts";
import { bytecodeBundle } from "./bytecode.ts";
import { pureSchemasBunPlugin } from "./pure-schemas-plugin.ts";
import { SDK_DIST, SDK_PATCHES, SdkPatchLedger, type SdkPatchId } from "./sdk-patches.ts";
import { checkSuppliedFolders, resolveForBundler, suppliedIn, suppliedNodePath, suppliedPackagesBunPlugin } from "./supplied-packages.ts";

/** Bump when the build settings below change. */
const HOST_BUNDLER_VERSION = 6;

const AJV_STAND_IN = fileURLToPath(new URL("./stubs/ajv-provider.ts", import.meta.url));
const BUN_STDIO = fileURLToPath(new URL("./stubs/bun-stdio.ts", import.meta.url));
const BUN_STDIO_NAMESPACE = "trailblaze-bun-stdio";

/** The SDK's own import of its ajv provider gets the stand-in; an author importing it keeps ajv. */
const ajvStandIn = (ledger: SdkPatchLedger): Bun.BunPlugin => ({
  name: "trailblaze-ajv-stand-in",
  setup(build) {
    build.onResolve({ filter: /ajv-provider(\.js)?$/ }, (args) => {
      if (!SDK_DIST.test(args.importer)) return undefined;
      ledger.applied("ajvStandIn");
      return { path: AJV_STAND_IN };
    });
  },
});

/**
 * The SDK's StdioServerTransport, except that a transport built without streams gets Bun's own
 * stdin and stdout (stubs/bun-stdio.ts) instead of process.stdin and process.stdout, and a failed
 * answer is preceded by a mark on stderr (core/answer-mark.ts), so the host knows when it has what
 * the server wrote before it. A server that passes its own streams, or touches process.stdin
 * or process.stdout itself, gets exactly what it asked for.
 */
const bunStdio = (root: string, ledger: SdkPatchLedger): Bun.BunPlugin => ({
  name: "trailblaze-bun-stdio",
  setup(build) {
    build.onResolve({ filter: /stdio(\.js)?$/ }, (args) => {
      // The wrapper's own import of the SDK's class is the real module.
      if (!args.importer || args.importer.startsWith(`${BUN_STDIO_NAMESPACE}:`)) return undefined;
      const real = resolveForBundler(args.path, args.importer, suppliedNodePath(root));
      if (real === undefined || !SDK_PATCHES.bunStdio.target.test(real)) return undefined;
      ledger.applied("bunStdio");
      return { path: `${BUN_STDIO_NAMESPACE}:${real}`, namespace: BUN_STDIO_NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: BUN_STDIO_NAMESPACE }, (args) => ({
      loader: "js",
      contents: [
        `import { StdioServerTransport as SdkStdioServerTransport } from ${JSON.stringify(args.path.slice(BUN_STDIO_NAMESPACE.length + 1))};`,
        `import { BunStdin, BunStdout, answerMarks } from ${JSON.stringify(BUN_STDIO)};`,
        "export class StdioServerTransport extends SdkStdioServerTransport {",
        "  constructor(stdin, stdout, options) {",
        "    super(stdin ?? new BunStdin(), stdout ?? new BunStdout(), options);",
        "  }",
        "  async start() {",
        "    await super.start();",
        "    answerMarks.started();",
        "  }",
        "  send(message, options) {",
        "    answerMarks.sending(message);",
        "    return super.send(message, options);",
        "  }",
        "}",
      ].join("\n"),
    }));
  },
});

interface HostBundle {
  /** The file to run instead of the source. */
  file: string;
  cached: boolean;
  /** The packages trailblaze-ts supplied because the workspace does not install them (`name version`). */
  supplied: string[];
  /** The SDK patches a fresh build applied (sdk-patches.ts); absent for a cached one. */
  patches?: SdkPatchId[];
}

/**
 * The starts of one bundle in a process after which it is compiled to Bun bytecode (bytecode.ts)
 * and the cache entry then names the compiled form, for every later start and run. Compiling takes
 * ~550 ms of CPU, where the bundle's own build takes ~200 ms, and saves 0–10 ms of a start (the
 * demo's and the bench's servers on a 2-core VM; BENCHMARKS.md): a workspace's first runs, a CI run
 * from a fresh clone included, start their servers from the ES module, and only a server started
 * this often pays for it.
 */
export const BYTECODE_AFTER_STARTS = 25;

/**
 * Builds (or finds in `<cwd>/.cache/trailblaze-host-bundles`) the precompiled form of `script`,
 * once for each start of its server: the ES module Bun bundled, or its bytecode form once this
 * process has asked for it BYTECODE_AFTER_STARTS times. `import.meta.url/dir/path/…` keep the
 * author's file, so relative file reads work as from source. Throws BundleError when Bun cannot
 * bundle it; the caller runs the source instead.
 */
export function hostBundle(script: string, cwd: string): Promise<HostBundle> {
  const key = `${cwd}\0${script}`;
  const starts = (startsHere.get(key) ?? 0) + 1;
  startsHere.set(key, starts);
  // Sessions started together ask for the same bundle: one build per process serves them all.
  let pending = building.get(key);
  if (!pending) {
    pending = buildHostBundle(script, cwd, starts >= BYTECODE_AFTER_STARTS).finally(() => building.delete(key));
    building.set(key, pending);
  }
  return pending;
}

const building = new Map<string, Promise<HostBundle>>();
/** How often this process asked for each bundle (`cwd`, `script`). */
const startsHere = new Map<string, number>();
/** Cached ES modules this process tried to compile, so one that cannot be is tried once. */
const compileTried = new Set<string>();

async function buildHostBundle(script: string, cwd: string, compile: boolean): Promise<HostBundle> {
  const cache = new BuildCache(
    resolve(cwd, ".cache/trailblaze-host-bundles"),
    script,
    JSON.stringify({ HOST_BUNDLER_VERSION, script, bun: Bun.version }),
  );
  const hit = cache.lookup();
  if (hit) {
    const supplied = hit.supplied ?? [];
    if (!compile || compileTried.has(hit.file) || existsSync(`${hit.file}.jsc`)) return { file: hit.file, cached: true, supplied };
    compileTried.add(hit.file);
    return { file: (await compiled(cache, hit.file)) ?? hit.file, cached: true, supplied };
  }
  const start = cache.begin();

  const outdir = join(cache.cacheDir, cache.stem);
  // Refused here, not from inside Bun.build (which reports a plugin's error as a build failure).
  checkCacheFolder(outdir);
  checkSuppliedFolders(cwd);
  // Built into a folder of its own, then moved into place file by file: a server another process
  // is starting from the cached files never reads one half written.
  const staging = `${outdir}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const dir = dirname(script);
  const ledger = new SdkPatchLedger("host");
  try {
    const result = await Bun.build({
      entrypoints: [script],
      target: "bun",
      minify: { whitespace: true, syntax: true, identifiers: false },
      sourcemap: "linked",
      outdir: staging,
      metafile: true,
      plugins: [ajvStandIn(ledger), bunStdio(cwd, ledger), suppliedPackagesBunPlugin(cwd), pureSchemasBunPlugin(ledger)],
      define: {
        "import.meta.url": JSON.stringify(pathToFileURL(script).href),
        "import.meta.path": JSON.stringify(script),
        "import.meta.filename": JSON.stringify(script),
        "import.meta.dir": JSON.stringify(dir),
        "import.meta.dirname": JSON.stringify(dir),
      },
      throw: false,
    }).catch((error: unknown) => ({ success: false as const, logs: [error], outputs: [], metafile: undefined }));
    const output = result.outputs.find((o) => o.path.endsWith(".js"));
    if (!result.success || !output || !result.metafile) {
      const why = result.logs.map((log) => String(log)).join("; ") || "Bun.build produced no output";
      throw new BundleError(`Cannot precompile ${relative(cwd, script) || script} for the host: ${why}`);
    }
    const inputs = Object.keys(result.metafile.inputs)
      .map((input) => resolve(input))
      .filter((input) => existsSync(input));
    for (const [input, { imports }] of Object.entries(result.metafile.inputs)) {
      if (input.startsWith(`${BUN_STDIO_NAMESPACE}:`)) continue;
      // Only the wrapper imports the SDK's stdio transport itself: anything else went past the patch.
      for (const { path } of imports)
        if (!path.startsWith(`${BUN_STDIO_NAMESPACE}:`) && SDK_PATCHES.bunStdio.target.test(path))
          ledger.bypassed("bunStdio", resolve(path), resolve(input));
    }
    ledger.verify(inputs, `Cannot precompile ${relative(cwd, script) || script} for the host`);
    mkdirSync(outdir, { recursive: true });
    // The source map first, so the script never points at a missing map.
    const moved = [...result.outputs].sort((a, b) => Number(a.path.endsWith(".js")) - Number(b.path.endsWith(".js")));
    for (const artifact of moved) renameSync(artifact.path, join(outdir, relative(staging, artifact.path)));
    const file = join(outdir, relative(staging, output.path));
    const supplied = suppliedIn(inputs);
    cache.store({ file, warnings: [], supplied }, inputs.sort(), start);
    return { file, cached: false, supplied, patches: ledger.patches };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Compiles the cached ES module `esm` to bytecode beside it (`<name>.bytecode.js`) and points the
 * cache entry at that; undefined when the module cannot be compiled (bytecode.ts: exports,
 * `import.meta`), when compiling fails, or when the entry was rebuilt meanwhile.
 */
async function compiled(cache: BuildCache, esm: string): Promise<string | undefined> {
  checkCacheFolder(dirname(esm));
  const compiledFrom = statSignature(esm);
  const file = await bytecodeBundle(esm, esm.replace(/\.js$/, ".bytecode.js"));
  return file && compiledFrom && cache.replaceOutput(esm, compiledFrom, file) ? file : undefined;
}

/** Bump when the node build settings below change. */
const NODE_BUNDLER_VERSION = 2;

/**
 * For the node fallback: the script as one ESM `.mjs` file built by esbuild (cached like the bun
 * bundle in `.cache/trailblaze-node-bundles`), run with `node --enable-source-maps` so stack
 * traces name the author's files. Being `.mjs`, it runs as ESM with top-level `await` whatever the
 * nearest package.json says (tsx would follow a `"type": "commonjs"` there and fail).
 */
export async function nodeBundle(script: string, cwd: string): Promise<HostBundle> {
  const { build, version } = await import("esbuild");
  const cache = new BuildCache(
    resolve(cwd, ".cache/trailblaze-node-bundles"),
    script,
    JSON.stringify({ NODE_BUNDLER_VERSION, script, esbuild: version }),
  );
  const hit = cache.lookup();
  if (hit) return { file: hit.file, cached: true, supplied: hit.supplied ?? [] };
  const start = cache.begin();
  const dir = dirname(script);
  const file = join(cache.cacheDir, `${cache.stem}.mjs`);
  let result;
  try {
    result = await build({
      entryPoints: [script],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: file,
      sourcemap: "linked",
      write: false,
      metafile: true,
      logLevel: "silent",
      nodePaths: [suppliedNodePath(cwd)],
      // Bundled CommonJS packages may call require(); ESM output has none of its own.
      banner: {
        js: 'import { createRequire as __trailblazeRequire } from "node:module"; const require = __trailblazeRequire(import.meta.url);',
      },
      define: {
        "import.meta.url": JSON.stringify(pathToFileURL(script).href),
        "import.meta.filename": JSON.stringify(script),
        "import.meta.dirname": JSON.stringify(dir),
      },
    });
  } catch (error) {
    const errors = (error as { errors?: { text: string }[] }).errors;
    const why = errors?.map((e) => e.text).join("; ") ?? String(error);
    throw new BundleError(`Cannot precompile ${relative(cwd, script) || script} for node: ${why}`, { cause: error });
  }
  for (const output of result.outputFiles) writeAtomically(output.path, output.text);
  const inputs = Object.keys(result.metafile.inputs)
    .map((input) => resolve(cwd, input))
    .filter((input) => existsSync(input));
  const supplied = suppliedIn(inputs);
  cache.store({ file, warnings: [], supplied }, inputs.sort(), start);
  return { file, cached: false, supplied };
}
