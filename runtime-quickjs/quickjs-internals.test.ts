import { describe, expect, test } from "bun:test";
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten";
import { SandboxError } from "../src/errors.ts";
import { newQuickJsInstance } from "./quickjs-module.ts";
import {
  adoptHandle,
  checkQuickJsVersions,
  contextPointer,
  forgetRuntime,
  installedQuickJsVersions,
  liveHeapViews,
  nextHostRefId,
  QUICKJS_EMSCRIPTEN_VERSION,
  runtimePointer,
} from "./quickjs-internals.ts";

const upgrade = (what: string) =>
  `runtime-quickjs/quickjs-internals.ts reaches into quickjs-emscripten 0.32.0's private fields, but ${what}. On an upgrade, check in quickjs-emscripten-core's dist/index.d.ts`;

function thrown(run: () => unknown): SandboxError {
  try {
    run();
  } catch (error) {
    return error as SandboxError;
  }
  throw new Error("did not throw");
}

describe("quickjs-emscripten internals", () => {
  test("the installed packages are the release the internals were read from", () => {
    expect(installedQuickJsVersions()).toEqual({
      "quickjs-emscripten": QUICKJS_EMSCRIPTEN_VERSION,
      "quickjs-emscripten-core": QUICKJS_EMSCRIPTEN_VERSION,
    });
    expect(() => checkQuickJsVersions(installedQuickJsVersions())).not.toThrow();
  });

  test("another release is refused, naming it and what to check", () => {
    const error = thrown(() => checkQuickJsVersions({ "quickjs-emscripten": "0.33.0", "quickjs-emscripten-core": "0.33.0" }));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error.kind).toBe("internals");
    expect(error.message).toStartWith(upgrade("the installed quickjs-emscripten is 0.33.0 and quickjs-emscripten-core is 0.33.0"));
    expect(error.message).toEndWith(
      "then adapt runtime-quickjs/quickjs-internals.ts, run bun test runtime-quickjs, and set QUICKJS_EMSCRIPTEN_VERSION there to the new version.",
    );
  });

  test("each field read has the expected shape on a real instance", async () => {
    const module = await newQuickJsInstance({ variant: "release", memoryLimitBytes: 32 * 1024 * 1024 });
    const runtime = module.newRuntime();
    const vm = runtime.newContext();
    expect(runtimePointer(runtime)).toBeGreaterThan(0);
    expect(contextPointer(vm)).toBeGreaterThan(0);
    expect(Number.isInteger(nextHostRefId(runtime))).toBe(true);
    // A handle adopted at a value's address takes it over, as a restore adopts the imaged sandbox's handles.
    const original = vm.newString("adopted");
    const adopted = adoptHandle(vm, original.value);
    expect(vm.getString(adopted)).toBe("adopted");
    adopted.dispose();
    vm.dispose();
    runtime.dispose();
  });

  test("a promise job that grows the instance's memory: the runtime keeps its one context and frees without a leak", async () => {
    const module = await newQuickJsInstance({ variant: "release", memoryLimitBytes: 64 * 1024 * 1024 });
    const runtime = module.newRuntime();
    const vm = runtime.newContext();
    liveHeapViews(runtime, vm);
    const contexts = (runtime as unknown as { contextMap: Map<number, unknown> }).contextMap;
    const linear = () => module.getWasmMemory().buffer.byteLength;
    const before = linear();
    vm.unwrapResult(vm.evalCode(`Promise.resolve().then(() => { globalThis.big = "x".repeat(24 * 1024 * 1024); })`)).dispose();
    const jobs = runtime.executePendingJobs();
    expect(jobs.error).toBeUndefined();
    expect(jobs.unwrap()).toBe(1);
    expect(linear()).toBeGreaterThan(before);
    // Read through a view made before the job, the job's context was taken for none and a new one made.
    expect([...contexts.keys()]).toEqual([contextPointer(vm)]);
    vm.dispose();
    expect(() => runtime.dispose()).not.toThrow();
  });

  test("a field of another shape is the upgrade error, naming the field", () => {
    const stale = {
      rt: { value: "0x10" },
      ctx: undefined,
      hostRefs: { nextId: 1 },
      memory: {},
      contextMap: {},
      callbacks: { deleteRuntime() {} },
    };
    const cases: [() => unknown, string][] = [
      [
        () => runtimePointer(stale as unknown as QuickJSRuntime),
        "QuickJSRuntime.rt is an object with value, expected a Lifetime of the runtime pointer",
      ],
      [
        () => contextPointer(stale as unknown as QuickJSContext),
        "QuickJSContext.ctx is undefined, expected a Lifetime of the context pointer",
      ],
      [
        () => nextHostRefId(stale as unknown as QuickJSRuntime),
        "QuickJSRuntime.hostRefs is an object with nextId, expected a HostRefMap with nextId and freelist",
      ],
      [
        () => adoptHandle(stale as unknown as QuickJSContext, 8),
        "QuickJSContext.memory is an object with no own fields, expected a ContextMemory with heapValueHandle",
      ],
      [
        () => liveHeapViews(stale as unknown as QuickJSRuntime, stale as unknown as QuickJSContext),
        "QuickJSRuntime.memory is an object with no own fields, expected a ModuleMemory with newTypedArray and module.HEAPU8",
      ],
      [
        () => forgetRuntime(stale as unknown as QuickJSWASMModule, stale as unknown as QuickJSRuntime),
        "QuickJSWASMModule.callbacks is an object with deleteRuntime, expected QuickJSModuleCallbacks with deleteRuntime and deleteContext",
      ],
    ];
    for (const [run, what] of cases) expect(thrown(run).message).toStartWith(upgrade(what));
  });
});
