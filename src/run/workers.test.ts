import { expect, test } from "bun:test";
import { runPool } from "./workers.ts";

test("runPool keeps at most N tasks in flight and returns results in input order", async () => {
  let running = 0;
  let peak = 0;
  const results = await runPool([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, ms));
    running--;
    return `${i}:${ms}`;
  });
  expect(results).toEqual(["0:30", "1:5", "2:20", "3:1", "4:10", "5:2"]);
  expect(peak).toBe(3);
});

test("runPool with no items resolves to an empty list", async () => {
  expect(await runPool([], 4, async () => 1)).toEqual([]);
});
