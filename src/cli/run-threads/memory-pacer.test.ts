import { expect, test } from "bun:test";
import { join } from "node:path";
import { MemoryPacer } from "./memory-pacer.ts";

const MIB = 2 ** 20;

/** A pacer over a resident size the test sets, counting the collections it asks for (each frees what `freed` says). */
function paced(options: { warmupTrails?: number; growthBytes?: number; freed?: number } = {}) {
  const state = { rss: 300 * MIB, collected: 0 };
  const pacer = new MemoryPacer({
    ...(options.warmupTrails !== undefined ? { warmupTrails: options.warmupTrails } : {}),
    ...(options.growthBytes !== undefined ? { growthBytes: options.growthBytes } : {}),
    rss: () => state.rss,
    collect: () => {
      state.collected++;
      state.rss -= options.freed ?? 0;
    },
  });
  return { pacer, state };
}

test("nothing is collected during the warm-up, however much the run grows then", () => {
  const { pacer, state } = paced({ warmupTrails: 5, growthBytes: 16 * MIB });
  for (let trail = 1; trail < 5; trail++) {
    state.rss += 100 * MIB;
    pacer.trailEnded();
  }
  expect(state.collected).toBe(0);
});

test("a trail that ends once the process grew by growthBytes since the mark collects; less growth does not", () => {
  const { pacer, state } = paced({ warmupTrails: 1, growthBytes: 16 * MIB, freed: 10 * MIB });
  pacer.trailEnded(); // the mark: 300 MiB
  state.rss += 15 * MIB;
  pacer.trailEnded();
  expect(state.collected).toBe(0);
  state.rss += 1 * MIB;
  pacer.trailEnded();
  expect(state.collected).toBe(1);
  expect(pacer.collections).toBe(1);
});

test("the mark after a collection is what stayed: growth is counted from there", () => {
  const { pacer, state } = paced({ warmupTrails: 1, growthBytes: 16 * MIB, freed: 10 * MIB });
  pacer.trailEnded(); // mark 300
  state.rss = 320 * MIB;
  pacer.trailEnded(); // collects: 310 stays, the new mark
  state.rss = 325 * MIB;
  pacer.trailEnded();
  expect(state.collected).toBe(1);
  state.rss = 326 * MIB;
  pacer.trailEnded();
  expect(state.collected).toBe(2);
});

test("by default it reads the process's resident size and collects for real", async () => {
  // In a fresh process: in this one (bun test runs every file in one) freed pages stay resident, and
  // new memory can reuse them without the resident size moving at all.
  const script = `
    const { MemoryPacer } = await import(${JSON.stringify(join(import.meta.dir, "memory-pacer.ts"))});
    const pacer = new MemoryPacer({ warmupTrails: 1, growthBytes: 1 });
    pacer.trailEnded();
    const kept = [];
    while (pacer.collections === 0 && kept.length < 32) {
      kept.push(Buffer.alloc(8 * 2 ** 20, 1));
      pacer.trailEnded();
    }
    console.log(JSON.stringify({ collections: pacer.collections, allocations: kept.length }));
  `;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(stdout)).toMatchObject({ collections: 1 });
});
