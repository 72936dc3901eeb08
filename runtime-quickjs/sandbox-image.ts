// Images of sandboxes: a server's linear memory once its bundle is evaluated and connected, so
// the next session of the same server restores it into a fresh instance instead of evaluating
// the bundle again (what Wizer does for QuickJS-on-WebAssembly in Javy). A restore is exact
// because every sandbox runs the same setup on a fresh instance, which puts the runtime, the
// context and the host's functions at the same addresses; the image records those addresses and
// a restore that finds others is refused (the session then evaluates its bundle as usual).
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten";
import { contextPointer, nextHostRefId, runtimePointer } from "./quickjs-internals.ts";
import { givenPages } from "./resident-pages.ts";

/** Where a sandbox's setup put what the host refers to by address or id. */
export interface InstanceLayout {
  runtime: number;
  context: number;
  global: number;
  /** The next id of a host function: the setup's functions are the only ones. */
  nextHostRef: number;
}

export interface SandboxImage {
  /**
   * The pages to write, as `[offset, length]` pairs in address order: every page holding anything
   * but zeros, and every page the setup wrote (a restoring instance's own setup dirtied those).
   * Any other page is zero in the imaged memory and in a fresh one.
   */
  runs: number[];
  /** The runs' bytes, one after another. */
  bytes: Uint8Array;
  /** The size of the memory when imaged: a restoring instance starts at least this large. */
  linearBytes: number;
  layout: InstanceLayout;
  /** The values the host holds handles to, by address in `bytes`. */
  handles: { fireTimer: number; receive: number };
}

/** The layout of a runtime and context (quickjs-emscripten keeps these on fields it does not type as public: quickjs-internals.ts). */
export function layoutOf(runtime: QuickJSRuntime, vm: QuickJSContext): InstanceLayout {
  // A freed id would be handed out again before the next one: NaN, so such a layout matches none.
  return { runtime: runtimePointer(runtime), context: contextPointer(vm), global: vm.global.value, nextHostRef: nextHostRefId(runtime) };
}

export function sameLayout(a: InstanceLayout, b: InstanceLayout): boolean {
  return a.runtime === b.runtime && a.context === b.context && a.global === b.global && a.nextHostRef === b.nextHostRef;
}

/** The instance's memory, when the variant exposes it (the debug build does not). */
export function wasmMemoryOf(module: QuickJSWASMModule): WebAssembly.Memory | undefined {
  try {
    return module.getWasmMemory();
  } catch {
    return undefined;
  }
}

/** Pages are compared and copied in units of this many bytes. */
const PAGE = 4096;

const ZERO_PAGE = Buffer.alloc(PAGE);

/**
 * One flag per page of `memory`: 1 where it holds anything but zeros (compared natively: a loop over
 * words took ~30 ms for 16 MiB). Only pages the OS has given the memory are read (resident-pages.ts):
 * reading one it never has would take a page of RAM for nothing on some kernels.
 */
export function dirtyPages(memory: WebAssembly.Memory): Uint8Array {
  const heap = Buffer.from(memory.buffer);
  const flags = new Uint8Array(heap.byteLength / PAGE);
  const given = givenPages(memory);
  for (let page = 0, at = 0; page < flags.length; page++, at += PAGE) {
    if (given && !given[page]) continue;
    if (heap.compare(ZERO_PAGE, 0, PAGE, at, at + PAGE) !== 0) flags[page] = 1;
  }
  return flags;
}

/** The runs of pages flagged in `flags` or in `also`, as `[offset, length]` pairs in address order. */
function runsOf(flags: Uint8Array, also?: Uint8Array): number[] {
  const runs: number[] = [];
  for (let page = 0; page < flags.length; ) {
    if (!flags[page] && !also?.[page]) {
      page++;
      continue;
    }
    const start = page;
    while (page < flags.length && (flags[page] || also?.[page])) page++;
    runs.push(start * PAGE, (page - start) * PAGE);
  }
  return runs;
}

/**
 * Zeroes every page of `memory` that holds anything (dirtyPages), since most of the 16 MiB a server
 * gets is never written and writing it all costs more.
 */
export function zeroPages(memory: WebAssembly.Memory): void {
  const heap = new Uint8Array(memory.buffer);
  const runs = runsOf(dirtyPages(memory));
  for (let i = 0; i < runs.length; i += 2) heap.fill(0, runs[i]!, runs[i]! + runs[i + 1]!);
}

/** The runs of pages of `memory` that are dirty now or were in `before`, with their bytes now. */
export function imagePages(memory: WebAssembly.Memory, before?: Uint8Array): { runs: number[]; bytes: Uint8Array } {
  const runs = runsOf(dirtyPages(memory), before);
  let total = 0;
  for (let i = 1; i < runs.length; i += 2) total += runs[i]!;
  const heap = new Uint8Array(memory.buffer);
  const bytes = new Uint8Array(total);
  for (let i = 0, at = 0; i < runs.length; i += 2) {
    bytes.set(heap.subarray(runs[i]!, runs[i]! + runs[i + 1]!), at);
    at += runs[i + 1]!;
  }
  return { runs, bytes };
}

/** Writes an image's pages into `memory`. */
export function writePages(memory: WebAssembly.Memory, image: Pick<SandboxImage, "runs" | "bytes">): void {
  const heap = new Uint8Array(memory.buffer);
  for (let i = 0, at = 0; i < image.runs.length; i += 2) {
    heap.set(image.bytes.subarray(at, at + image.runs[i + 1]!), image.runs[i]!);
    at += image.runs[i + 1]!;
  }
}

/**
 * Images by server (bundle code, name, engine, limits), least recently used dropped first once
 * they hold more than `maxBytes`. One per process or worker thread.
 */
export class ImageCache<T extends { bytes: Uint8Array }> {
  private readonly entries = new Map<string, T>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: T): void {
    if (entry.bytes.byteLength > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes.byteLength;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes.byteLength;
  }

  get size(): number {
    return this.entries.size;
  }
}
