// Instances of the QuickJS module kept for the next session once a session closes cleanly: a
// fresh WebAssembly memory costs a page fault per page on first touch (tens of ms for the few MB
// a server's image fills), while a pooled one is already resident. A pooled instance is reset to
// exactly the memory of a newly made one (all zero but what instantiating wrote) when it is handed
// out again, so the next session cannot see anything of the last and its setup lands where a fresh
// instance's would; the instances still idle when the process exits are never reset at all.
import type { QuickJSWASMModule } from "quickjs-emscripten";
import { newQuickJsInstance, type InstanceOptions, type QuickJsEngine } from "./quickjs-module.ts";
import { imagePages, writePages, zeroPages } from "./sandbox-image.ts";

/** Idle instances kept per build and memory limit, at most: as many as were ever in use at once, up to this. */
const MAX_IDLE = 16;
/** Instances whose memory grew past this are dropped, not kept (resetting them would cost more). */
const MAX_POOLED_BYTES = 64 * 1024 * 1024;

interface Made {
  memory: WebAssembly.Memory;
  /** The build and memory limit it was made for: where it goes back to. */
  pool: string;
  /** Its memory as instantiating left it: the pages holding anything (a few dozen; the last is megabytes in). */
  pristine: Pristine;
  /** Given back and not reset since: it still holds what its last session wrote. */
  used: boolean;
}

type Pristine = ReturnType<typeof imagePages>;

const made = new WeakMap<QuickJSWASMModule, Made>();
const idle = new Map<string, QuickJSWASMModule[]>();
/** Instances handed out and not recycled, and the most there were at once, per pool. */
const inUse = new Map<string, { now: number; peak: number }>();

function countOut(pool: string): void {
  const use = inUse.get(pool) ?? { now: 0, peak: 0 };
  use.now++;
  use.peak = Math.max(use.peak, use.now);
  inUse.set(pool, use);
}
/** The memory a new instance starts with, per build (the same for every instance of it). */
const pristineOf = new Map<string, Pristine>();

/**
 * An instance as if new: a pooled one whose memory is at least `initialBytes`, else a new one.
 * Only release builds are pooled (the debug build manages its own memory).
 */
export async function acquireQuickJsInstance(opts: InstanceOptions & { engine: QuickJsEngine }): Promise<QuickJSWASMModule> {
  if (opts.variant === "debug") return newQuickJsInstance(opts);
  const pool = `${opts.engine}/${Math.ceil(opts.memoryLimitBytes / 65536)}`;
  const list = idle.get(pool);
  // The most recently given back first: its memory is likeliest still in the CPU's caches.
  const index = list?.findLastIndex((module) => made.get(module)!.memory.buffer.byteLength >= (opts.initialBytes ?? 0)) ?? -1;
  countOut(pool);
  if (index >= 0) {
    const module = list!.splice(index, 1)[0]!;
    reset(made.get(module)!);
    return module;
  }
  const module = await newQuickJsInstance(opts);
  const memory = module.getWasmMemory();
  let pristine = pristineOf.get(opts.engine);
  if (!pristine) {
    pristine = imagePages(memory);
    pristineOf.set(opts.engine, pristine);
  }
  made.set(module, { memory, pool, pristine, used: false });
  return module;
}

/**
 * Whether `recycleQuickJsInstance` would keep `module` now: then its runtime need not be freed
 * inside it, since the reset overwrites everything the runtime held.
 */
export function poolTakesBack(module: QuickJSWASMModule): boolean {
  const instance = made.get(module);
  if (!instance || instance.memory.buffer.byteLength > MAX_POOLED_BYTES) return false;
  return (idle.get(instance.pool)?.length ?? 0) < Math.min(inUse.get(instance.pool)!.peak, MAX_IDLE);
}

/**
 * Gives back an instance whose session ended (its runtime freed without error, or left in place
 * when `poolTakesBack` said so): kept for the next session when the pool has room, and reset when
 * it is handed out.
 */
export function recycleQuickJsInstance(module: QuickJSWASMModule): void {
  const instance = made.get(module);
  if (!instance) return;
  const keep = poolTakesBack(module);
  inUse.get(instance.pool)!.now--;
  if (!keep) return;
  instance.used = true;
  const list = idle.get(instance.pool) ?? [];
  list.push(module);
  idle.set(instance.pool, list);
}

/** Makes a pooled instance's memory a new instance's again, if a session has used it since. */
function reset(instance: Made): void {
  if (!instance.used) return;
  zeroPages(instance.memory);
  writePages(instance.memory, instance.pristine);
  instance.used = false;
}
