// Loads the QuickJS WebAssembly module once per process: the release *sync* variant (the
// asyncify variant crashes on host calls from promise jobs and uses far more memory).
import { DEBUG_SYNC, RELEASE_SYNC, newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";

export type QuickJsVariant = "release" | "debug";

const modules = new Map<QuickJsVariant, Promise<QuickJSWASMModule>>();

/** The shared module; `debug` adds assertions and leak checks (tests only, much slower). */
export function loadQuickJs(variant: QuickJsVariant = "release"): Promise<QuickJSWASMModule> {
  let module = modules.get(variant);
  if (!module) {
    module = newQuickJSWASMModule(variant === "debug" ? DEBUG_SYNC : RELEASE_SYNC);
    modules.set(variant, module);
  }
  return module;
}
