// The one file that reaches inside quickjs-emscripten: fields and a constructor its types mark
// `@private`, which restoring sandbox images (sandbox-image.ts), reusing instances (sandbox.ts),
// making instances from a compiled module (quickjs-module.ts) and keeping its views of an
// instance's memory current when the memory grows (sandbox.ts) need. Read off
// quickjs-emscripten 0.32.0: the first use checks that the installed package is that version,
// and every use that the field it reads has the shape read here, so an upgrade fails loudly with
// what to check instead of restoring a sandbox wrongly.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  QuickJSWASMModule,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from "quickjs-emscripten";
import { SandboxError } from "../src/errors.ts";

/** The release of quickjs-emscripten (and quickjs-emscripten-core, which holds the classes) these internals were read from. */
export const QUICKJS_EMSCRIPTEN_VERSION = "0.32.0";

/** What to do when a check fails: part of every message of this file. */
const ON_UPGRADE =
  "On an upgrade, check in quickjs-emscripten-core's dist/index.d.ts that QuickJSRuntime still has rt (a Lifetime), contextMap (a Map by context pointer) " +
  "and hostRefs (nextId, freelist), QuickJSContext ctx (a Lifetime) and memory.heapValueHandle(pointer), both memory fields' " +
  "newTypedArray(kind, length) (a Lifetime of { typedArray, ptr }) over module.HEAPU8, and whether executePendingJobs and newPromise still read " +
  "their out-pointers through a view made before the call (then liveHeapViews is still needed), QuickJSWASMModule callbacks " +
  '(deleteRuntime, deleteContext) and a (module, ffi) constructor, and that newQuickJSWASMModuleFromVariant still sets the module\'s type to "sync"; ' +
  "then adapt runtime-quickjs/quickjs-internals.ts, run bun test runtime-quickjs, and set QUICKJS_EMSCRIPTEN_VERSION there to the new version";

function internalsError(what: string): SandboxError {
  return new SandboxError(
    `runtime-quickjs/quickjs-internals.ts reaches into quickjs-emscripten ${QUICKJS_EMSCRIPTEN_VERSION}'s private fields, but ${what}. ${ON_UPGRADE}.`,
    "internals",
  );
}

/** The installed quickjs-emscripten and quickjs-emscripten-core, by package name, as resolved from here (what the runtime loads). */
export function installedQuickJsVersions(): Record<string, string> {
  const here = createRequire(import.meta.url);
  const wrapper = here.resolve("quickjs-emscripten");
  // quickjs-emscripten-core exports no package.json: its manifest is beside the dist/ folder its entry is in.
  const core = createRequire(wrapper).resolve("quickjs-emscripten-core");
  const versionOf = (manifest: string) => (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  return {
    "quickjs-emscripten": versionOf(here.resolve("quickjs-emscripten/package.json")),
    "quickjs-emscripten-core": versionOf(join(dirname(core), "..", "package.json")),
  };
}

/** Throws the upgrade error unless every package in `installed` is QUICKJS_EMSCRIPTEN_VERSION. */
export function checkQuickJsVersions(installed: Record<string, string>): void {
  const others = Object.entries(installed).filter(([, version]) => version !== QUICKJS_EMSCRIPTEN_VERSION);
  if (others.length > 0) throw internalsError(`the installed ${others.map(([name, version]) => `${name} is ${version}`).join(" and ")}`);
}

let versionChecked = false;

/** Checks the installed version once per process (thread), on the first use of anything below. */
function assertVersion(): void {
  if (versionChecked) return;
  checkQuickJsVersions(installedQuickJsVersions());
  versionChecked = true;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isLifetime = (value: unknown): value is { value: number } => isObject(value) && typeof value.value === "number";
const hasMethods = (value: unknown, ...names: string[]): boolean =>
  isObject(value) && names.every((name) => typeof value[name] === "function");

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== "object") return `a ${typeof value}`;
  return `an object with ${Object.keys(value).join(", ") || "no own fields"}`;
}

/** `owner[name]` after checking it is `expected`; the upgrade error otherwise. */
function field<T>(owner: object, path: string, name: string, expected: string, ok: (value: unknown) => boolean): T {
  assertVersion();
  const value = (owner as Record<string, unknown>)[name];
  if (!ok(value)) throw internalsError(`${path}.${name} is ${describe(value)}, expected ${expected}`);
  return value as T;
}

/** The runtime's address in the instance's memory (`QuickJSRuntime.rt`). */
export function runtimePointer(runtime: QuickJSRuntime): number {
  return field<{ value: number }>(runtime, "QuickJSRuntime", "rt", "a Lifetime of the runtime pointer", isLifetime).value;
}

/** The context's address in the instance's memory (`QuickJSContext.ctx`). */
export function contextPointer(vm: QuickJSContext): number {
  return field<{ value: number }>(vm, "QuickJSContext", "ctx", "a Lifetime of the context pointer", isLifetime).value;
}

/**
 * The id the runtime gives the next host function (`QuickJSRuntime.hostRefs.nextId`), or NaN when
 * a freed id would be handed out first (its free list is not empty): then ids depend on history.
 */
export function nextHostRefId(runtime: QuickJSRuntime): number {
  const refs = field<{ nextId: number; freelist: unknown[] }>(
    runtime,
    "QuickJSRuntime",
    "hostRefs",
    "a HostRefMap with nextId and freelist",
    (value) => isObject(value) && typeof value.nextId === "number" && Array.isArray(value.freelist),
  );
  return refs.freelist.length === 0 ? refs.nextId : Number.NaN;
}

/** A handle owned by the host for the value at `pointer` (`QuickJSContext.memory.heapValueHandle`): what a restored image's handles are adopted with. */
export function adoptHandle(vm: QuickJSContext, pointer: number): QuickJSHandle {
  const memory = field<{ heapValueHandle(pointer: number): QuickJSHandle }>(
    vm,
    "QuickJSContext",
    "memory",
    "a ContextMemory with heapValueHandle",
    (value) => hasMethods(value, "heapValueHandle"),
  );
  return memory.heapValueHandle(pointer);
}

/**
 * Drops the module's references to a runtime and its contexts without freeing them inside the
 * instance: quickjs-emscripten keeps its C-to-host callbacks per runtime and context pointer
 * (`QuickJSWASMModule.callbacks`) and deletes them only when it frees them.
 */
export function forgetRuntime(module: QuickJSWASMModule, runtime: QuickJSRuntime): void {
  const callbacks = field<{ deleteRuntime(rt: number): void; deleteContext(ctx: number): void }>(
    module,
    "QuickJSWASMModule",
    "callbacks",
    "QuickJSModuleCallbacks with deleteRuntime and deleteContext",
    (value) => hasMethods(value, "deleteRuntime", "deleteContext"),
  );
  const contexts = field<Map<number, unknown>>(
    runtime,
    "QuickJSRuntime",
    "contextMap",
    "a Map of contexts by pointer",
    (value) => value instanceof Map,
  );
  for (const context of contexts.keys()) callbacks.deleteContext(context);
  callbacks.deleteRuntime(runtimePointer(runtime));
}

/** What `liveHeapViews` reads of a runtime's or context's `memory` (quickjs-emscripten's ModuleMemory). */
interface HeapMemory {
  module: { HEAPU8: Uint8Array };
  newTypedArray(kind: Int32ArrayConstructor, length: number): { value: { typedArray: Int32Array; ptr: number } };
}

/**
 * Makes the typed arrays quickjs-emscripten reads results through a view of the instance's memory
 * as it is when read. It makes them (ModuleMemory.newTypedArray, under newMutablePointerArray)
 * before the call that fills them, as views of the memory's buffer then; a call that grows the
 * memory (a promise job that allocates megabytes) detaches that buffer, and the view reads
 * `undefined`. `executePendingJobs` then takes the job's context pointer for none and makes a new
 * context for it, which nothing frees: closing the runtime then fails QuickJS's leak assertion
 * (`list_empty(&rt->gc_obj_list)`, quickjs-emscripten issues #235 and #269); `newPromise` would
 * lose its resolvers the same way. The context's own `uint32Out` (getLength, getOwnPropertyNames)
 * is made with the context, before this, and is not used here.
 */
export function liveHeapViews(runtime: QuickJSRuntime, vm: QuickJSContext): void {
  const isHeapMemory = (value: unknown) =>
    hasMethods(value, "newTypedArray") &&
    isObject((value as { module?: unknown }).module) &&
    "HEAPU8" in (value as { module: object }).module;
  for (const [owner, path] of [
    [runtime, "QuickJSRuntime"],
    [vm, "QuickJSContext"],
  ] as const) {
    const memory = field<HeapMemory>(owner, path, "memory", "a ModuleMemory with newTypedArray and module.HEAPU8", isHeapMemory);
    const make = memory.newTypedArray;
    memory.newTypedArray = function (this: HeapMemory, kind, length) {
      const made = make.call(this, kind, length);
      const { ptr } = made.value;
      const module = this.module;
      Object.defineProperty(made.value, "typedArray", { get: () => new kind(module.HEAPU8.buffer, ptr, length) });
      return made;
    };
  }
}

/** A sync variant's FFI class. */
type FfiClass = Awaited<ReturnType<QuickJSSyncVariant["importFFI"]>>;
/** The Emscripten module a sync variant's loader makes. */
type EmscriptenModule = ConstructorParameters<FfiClass>[0];

/**
 * A QuickJSWASMModule over a loaded Emscripten module, as quickjs-emscripten's own
 * `newQuickJSWASMModuleFromVariant` makes it (its constructor is private), without that
 * function's `import()` of the class for every instance.
 */
export function wasmModuleOf(emscripten: EmscriptenModule, FFI: FfiClass): QuickJSWASMModule {
  assertVersion();
  emscripten.type = "sync";
  return new QuickJSWASMModule(emscripten, new FFI(emscripten));
}
