// Creates one QuickJS WebAssembly instance per server, on a *sync* build (the asyncify builds
// crash on host calls from promise jobs and use far more memory). Two engines share the
// quickjs-emscripten API: Bellard's QuickJS (the default: faster per call and per warm session
// start in `bun run bench`, P4/P5 against P4Q/P5Q) and QuickJS-ng, selected by
// `TRAILBLAZE_QUICKJS=quickjs-ng` in the environment of the process (or of a session). They differ
// in what a guest sees: stack columns, the stack-overflow error, and QuickJS-ng's interrupt cannot
// be caught by the guest. Each
// instance gets its own linear memory with a fixed maximum: QuickJS's own memory limit only
// bounds single allocations under Emscripten (quickjs-emscripten #255/#271), so the hard cap is
// the WebAssembly.Memory maximum; a server that exhausts it cannot touch any other server.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import {
  DEBUG_SYNC,
  RELEASE_SYNC,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten";
import * as quickjsNgPackage from "@jitl/quickjs-ng-wasmfile-release-sync";
import { SandboxError } from "../src/errors.ts";
import { wasmModuleOf } from "./quickjs-internals.ts";

/** `release` is what sessions run; `debug` is Bellard QuickJS's assertion and leak-checking build (tests). */
export type QuickJsVariant = "release" | "debug";

/** Which QuickJS: Bellard's `quickjs` (default) or `quickjs-ng`. */
export type QuickJsEngine = "quickjs" | "quickjs-ng";
export const QUICKJS_ENGINES: readonly QuickJsEngine[] = ["quickjs", "quickjs-ng"];
/** The engine this process uses unless a server asks for one: `$TRAILBLAZE_QUICKJS`, else `quickjs`. */
export const DEFAULT_QUICKJS_ENGINE: QuickJsEngine = quickJsEngineFrom(process.env, "quickjs");

const PAGE = 64 * 1024;
/** The linear memory both engines' modules declare as their minimum (256 pages). */
export const MIN_MEMORY_BYTES = 256 * PAGE;

interface Build {
  base: QuickJSSyncVariant;
  /** The package and export of its .wasm file. */
  wasm: string;
}

/**
 * QuickJS-ng's variant, the package's default export. The precompiled CLI is CommonJS: it requires
 * the package's ES module and sees the whole namespace as the default, the variant one level down.
 */
const ngDefault = quickjsNgPackage.default as QuickJSSyncVariant | { default: QuickJSSyncVariant };
const QUICKJS_NG_RELEASE_SYNC: QuickJSSyncVariant = "importFFI" in ngDefault ? ngDefault : ngDefault.default;

const BUILDS: Record<BuildKey, Build | undefined> = {
  "quickjs-ng/release": { base: QUICKJS_NG_RELEASE_SYNC, wasm: "@jitl/quickjs-ng-wasmfile-release-sync/wasm" },
  "quickjs-ng/debug": undefined,
  "quickjs/release": { base: RELEASE_SYNC, wasm: "@jitl/quickjs-wasmfile-release-sync/wasm" },
  "quickjs/debug": { base: DEBUG_SYNC, wasm: "@jitl/quickjs-wasmfile-debug-sync/wasm" },
};
const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** The engine `TRAILBLAZE_QUICKJS` names, else `fallback`; an unknown name is an error that lists the choices. */
export function quickJsEngineFrom(
  env: Record<string, string | undefined>,
  fallback: QuickJsEngine = DEFAULT_QUICKJS_ENGINE,
): QuickJsEngine {
  const name = env.TRAILBLAZE_QUICKJS;
  if (name === undefined || name === "") return fallback;
  if ((QUICKJS_ENGINES as readonly string[]).includes(name)) return name as QuickJsEngine;
  throw new SandboxError(`TRAILBLAZE_QUICKJS must be one of ${QUICKJS_ENGINES.join(", ")} (got "${name}")`, "limits");
}

/** Where the .wasm file of a build is, resolved where this package's dependencies live (from any working directory). */
function wasmPath(build: Build): string {
  const resolveHere = createRequire(import.meta.url);
  return build.wasm.startsWith("@jitl/quickjs-ng")
    ? resolveHere.resolve(build.wasm)
    : createRequire(resolveHere.resolve("quickjs-emscripten")).resolve(build.wasm);
}

/** The compiled WebAssembly module, once per process and build. */
function compiledWasm(key: string, build: Build): Promise<WebAssembly.Module> {
  let module = compiled.get(key);
  if (!module) {
    module = WebAssembly.compile(readFileSync(wasmPath(build)));
    compiled.set(key, module);
  }
  return module;
}

const stamps = new Map<QuickJsEngine, string>();

/**
 * What identifies the release build of `engine` as installed (its .wasm file and the
 * quickjs-emscripten code driving it, by path, size and mtime): an image on disk is only valid
 * for the build that made it.
 */
export function quickJsBuildStamp(engine: QuickJsEngine): string {
  let stamp = stamps.get(engine);
  if (!stamp) {
    const files = [wasmPath(BUILDS[`${engine}/release`]!), createRequire(import.meta.url).resolve("quickjs-emscripten")];
    stamp = files
      .map((file) => {
        const stat = statSync(file);
        return `${file}:${stat.size}:${stat.mtimeMs}`;
      })
      .join("\n");
    stamps.set(engine, stamp);
  }
  return stamp;
}

/** The key of a build: `engine/variant`, as `compiledQuickJsWasm` and `adoptCompiledWasm` name it. */
export type BuildKey = `${QuickJsEngine}/${QuickJsVariant}`;

function buildKey(variant: QuickJsVariant, engine: QuickJsEngine | undefined): BuildKey {
  return `${variant === "debug" ? "quickjs" : (engine ?? DEFAULT_QUICKJS_ENGINE)}/${variant}`;
}

/** The compiled module a server with these options runs on, compiled once per process: what a worker thread is handed. */
export async function compiledQuickJsWasm(
  variant: QuickJsVariant,
  engine?: QuickJsEngine,
): Promise<{ key: BuildKey; module: WebAssembly.Module }> {
  const key = buildKey(variant, engine);
  return { key, module: await compiledWasm(key, BUILDS[key]!) };
}

/** Uses a module compiled elsewhere (the host thread posts it to its workers), so this thread compiles nothing. */
export function adoptCompiledWasm(key: BuildKey, module: WebAssembly.Module): void {
  if (!compiled.has(key)) compiled.set(key, Promise.resolve(module));
}

export interface InstanceOptions {
  variant: QuickJsVariant;
  /** Default: DEFAULT_QUICKJS_ENGINE. The debug build exists for `quickjs` only. */
  engine?: QuickJsEngine;
  /** Maximum linear memory, rounded up to 64 KiB pages; at least MIN_MEMORY_BYTES. Not applied to `debug` (its leak sanitizer needs room). */
  memoryLimitBytes: number;
  /** Linear memory to start with (at least MIN_MEMORY_BYTES): what restoring an image needs. */
  initialBytes?: number;
}

/**
 * Emscripten writes to stderr itself (console.error) only the text of an abort (a QuickJS assertion,
 * such as its leak check when a runtime is freed) before throwing the same text as a RuntimeError;
 * the sandbox turns that error into a SandboxError, so the terminal gets nothing raw.
 */
const QUIET_EMSCRIPTEN = { printErr: () => {} };

/** Each build's Emscripten loader and FFI class, imported once per thread. */
const loaded = new Map<BuildKey, Promise<{ FFI: Awaited<ReturnType<QuickJSSyncVariant["importFFI"]>>; variant: QuickJSSyncVariant }>>();

/**
 * The build's code, imported once per thread. quickjs-emscripten's `newQuickJSWASMModule` imports
 * it (three `import()`s) for every instance, and inside a busy `run` Bun settled some of those
 * only once the thread went idle: sessions of `--workers 4` waited seconds for an instance, most
 * of the run ran on the few instances made first, and no handshake was recorded until the end.
 */
function buildCode(key: BuildKey, build: Build) {
  let code = loaded.get(key);
  if (!code) {
    code = (async () => {
      const [loader, FFI] = await Promise.all([build.base.importModuleLoader(), build.base.importFFI()]);
      const variant: QuickJSSyncVariant = { type: "sync", importFFI: async () => FFI, importModuleLoader: async () => loader };
      return { FFI, variant };
    })();
    loaded.set(key, code);
  }
  return code;
}

/** A new QuickJS instance (~2–4 ms once the module is compiled; ~3 MB resident). */
export async function newQuickJsInstance(opts: InstanceOptions): Promise<QuickJSWASMModule> {
  const key = buildKey(opts.variant, opts.engine);
  const build = BUILDS[key]!;
  const [wasmModule, { FFI, variant }] = await Promise.all([compiledWasm(key, build), buildCode(key, build)]);
  const wasmMemory =
    opts.variant === "debug"
      ? undefined
      : new WebAssembly.Memory({
          initial: Math.ceil(Math.max(MIN_MEMORY_BYTES, opts.initialBytes ?? 0) / PAGE),
          maximum: Math.ceil(opts.memoryLimitBytes / PAGE),
        });
  const load = await newVariant(variant, {
    wasmModule,
    ...(wasmMemory ? { wasmMemory } : {}),
    emscriptenModule: QUIET_EMSCRIPTEN as CustomizeVariantOptions["emscriptenModule"],
  }).importModuleLoader();
  // The loader newVariant wraps (the base builds' loader is the module's default export, unwrapped).
  const emscripten = await (load as Extract<typeof load, (...args: never[]) => unknown>)();
  return wasmModuleOf(emscripten, FFI);
}
