import { expect, test } from "bun:test";
import { givenPages } from "./resident-pages.ts";
import { dirtyPages, imagePages, zeroPages } from "./sandbox-image.ts";

const PAGE = 4096;
/** Pages written below, with something other than zero. */
const WRITTEN = [0, 1, 7, 100, 2047, 4095];

function written(): WebAssembly.Memory {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 512 });
  const view = new Uint8Array(memory.buffer);
  for (const page of WRITTEN) view[page * PAGE + (page % PAGE)] = 7;
  // A page given a zero write is given, but holds nothing.
  view[50 * PAGE] = 0;
  return memory;
}

/** Every page read and compared, as the slow way would. */
function comparedOneByOne(memory: WebAssembly.Memory): number[] {
  const view = new Uint8Array(memory.buffer);
  const dirty: number[] = [];
  for (let page = 0; page < view.byteLength / PAGE; page++)
    if (view.subarray(page * PAGE, (page + 1) * PAGE).some((b) => b !== 0)) dirty.push(page);
  return dirty;
}

const flagged = (flags: Uint8Array) => [...flags.keys()].filter((page) => flags[page] === 1);

test("the pages the OS gave a memory are the ones written, and no others (Linux: /proc/self/pagemap)", () => {
  const given = givenPages(written());
  if (process.platform !== "linux") {
    expect(given).toBeUndefined();
    return;
  }
  expect(given).toBeDefined();
  expect(flagged(given!)).toEqual([...WRITTEN.slice(0, 3), 50, ...WRITTEN.slice(3)]);
});

test("dirtyPages finds exactly the pages holding anything, without reading the others into memory", () => {
  const memory = written();
  expect(flagged(dirtyPages(memory))).toEqual(WRITTEN);
  if (process.platform === "linux") expect(flagged(givenPages(memory)!).length).toBe(WRITTEN.length + 1);
  expect(comparedOneByOne(memory)).toEqual(WRITTEN);
});

test("an image holds the written pages, and a zeroed memory holds nothing", () => {
  const memory = written();
  const { runs } = imagePages(memory);
  const imaged: number[] = [];
  for (let i = 0; i < runs.length; i += 2) for (let at = runs[i]!; at < runs[i]! + runs[i + 1]!; at += PAGE) imaged.push(at / PAGE);
  expect(imaged).toEqual(WRITTEN);
  zeroPages(memory);
  expect(flagged(dirtyPages(memory))).toEqual([]);
  expect(comparedOneByOne(memory)).toEqual([]);
});
