// Creates one QuickJS WebAssembly instance per server, on the release *sync* variant (the
// asyncify variant crashes on host calls from promise jobs and uses far more memory). Each
// instance gets its own linear memory with a fixed maximum: QuickJS's own memory limit only
// bounds single allocations under Emscripten (quickjs-emscripten #255/#271), so the hard cap is
// the WebAssembly.Memory maximum; a server that exhausts it cannot touch any other server.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DEBUG_SYNC, RELEASE_SYNC, newQuickJSWASMModule, newVariant, type QuickJSWASMModule } from "quickjs-emscripten";

export type QuickJsVariant = "release" | "debug";

const PAGE = 64 * 1024;
/** The linear memory the QuickJS module declares as its minimum (256 pages). */
export const MIN_MEMORY_BYTES = 256 * PAGE;

const WASM_FILES: Record<QuickJsVariant, string> = {
  release: "@jitl/quickjs-wasmfile-release-sync/wasm",
  debug: "@jitl/quickjs-wasmfile-debug-sync/wasm",
};
const compiled = new Map<QuickJsVariant, Promise<WebAssembly.Module>>();

/** The compiled WebAssembly module, once per process and variant. */
function compiledWasm(variant: QuickJsVariant): Promise<WebAssembly.Module> {
  let module = compiled.get(variant);
  if (!module) {
    const fromQuickJs = createRequire(createRequire(import.meta.url).resolve("quickjs-emscripten"));
    module = WebAssembly.compile(readFileSync(fromQuickJs.resolve(WASM_FILES[variant])));
    compiled.set(variant, module);
  }
  return module;
}

export interface InstanceOptions {
  variant: QuickJsVariant;
  /** Maximum linear memory, rounded up to 64 KiB pages; at least MIN_MEMORY_BYTES. Not applied to `debug` (its leak sanitizer needs room). */
  memoryLimitBytes: number;
}

/** A new QuickJS instance (~2–4 ms once the module is compiled; ~3 MB resident). */
export async function newQuickJsInstance(opts: InstanceOptions): Promise<QuickJSWASMModule> {
  const wasmModule = await compiledWasm(opts.variant);
  const base = opts.variant === "debug" ? DEBUG_SYNC : RELEASE_SYNC;
  const wasmMemory =
    opts.variant === "debug"
      ? undefined
      : new WebAssembly.Memory({ initial: MIN_MEMORY_BYTES / PAGE, maximum: Math.ceil(opts.memoryLimitBytes / PAGE) });
  return newQuickJSWASMModule(newVariant(base, { wasmModule, ...(wasmMemory ? { wasmMemory } : {}) }));
}
