// Which pages of a WebAssembly memory the OS has given it, without touching them: Linux's
// /proc/self/pagemap, at the memory's address (bun:ffi's `ptr`). A page never given holds zeros.
// Finding dirty pages by reading every page (sandbox-image.ts) made every page of every QuickJS
// instance resident on kernels that give a read fault its own page rather than the shared zero
// page: 16 MiB an instance, where a server writes 2-4, and a run of three-server trails keeps a
// dozen instances per thread. Where the pagemap cannot be read, or does not show a page written
// to check it, every page counts as given (reading them all, as before).
import { openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

const PAGE = 4096;
/** Bits 63 (present) and 62 (swapped) of a pagemap entry's last byte: either way the page may hold data. */
const GIVEN = 0xc0;

interface Pagemap {
  fd: number;
  address: (view: Uint8Array) => number;
}

/** The pagemap and a way to find a memory's address, once per thread; null when either is missing or fails its check. */
let pagemap: Pagemap | null | undefined;

function open(): Pagemap | null {
  try {
    const { ptr } = createRequire(import.meta.url)("bun:ffi") as { ptr: (view: Uint8Array) => number };
    const found: Pagemap = { fd: openSync("/proc/self/pagemap", "r"), address: ptr };
    // A memory with one page written must show that page given: else the pagemap hides what it knows.
    const probe = new WebAssembly.Memory({ initial: 1 });
    const view = new Uint8Array(probe.buffer);
    view[3 * PAGE] = 1;
    return read(found, probe)?.[3] === 1 ? found : null;
  } catch {
    return null;
  }
}

function read(map: Pagemap, memory: WebAssembly.Memory): Uint8Array | undefined {
  const view = new Uint8Array(memory.buffer);
  const start = map.address(view);
  if (start % PAGE !== 0 || view.byteLength % PAGE !== 0) return undefined;
  const pages = view.byteLength / PAGE;
  const entries = Buffer.allocUnsafe(pages * 8);
  if (readSync(map.fd, entries, 0, entries.length, (start / PAGE) * 8) !== entries.length) return undefined;
  const flags = new Uint8Array(pages);
  for (let page = 0; page < pages; page++) if (entries[page * 8 + 7]! & GIVEN) flags[page] = 1;
  return flags;
}

/**
 * One flag per 4 KiB page of `memory`: 1 where the OS has given it a page (it may hold anything),
 * 0 where it never has (it holds zeros). Undefined where this cannot be known: every page may hold anything.
 */
export function givenPages(memory: WebAssembly.Memory): Uint8Array | undefined {
  pagemap ??= open();
  return pagemap ? read(pagemap, memory) : undefined;
}
