import { expect, test } from "bun:test";
import { CONSOLE_TAIL_CHARS, CONSOLE_TAIL_LINE_CHARS, CONSOLE_TAIL_LINES, ConsoleTail } from "./console-tail.ts";

test("keeps the last lines, each cut at CONSOLE_TAIL_LINE_CHARS and marked", () => {
  const tail = new ConsoleTail();
  for (let i = 0; i < CONSOLE_TAIL_LINES + 3; i++) tail.push("info", `line ${i}`);
  tail.push("error", "z".repeat(5000));
  const lines = tail.snapshot();
  expect(lines.length).toBe(CONSOLE_TAIL_LINES);
  expect(lines[0]).toBe("info line 4");
  expect(lines.at(-1)).toBe(`error ${"z".repeat(CONSOLE_TAIL_LINE_CHARS)} … [line cut at ${CONSOLE_TAIL_LINE_CHARS} of 5000 chars]`);
});

test("keeps CONSOLE_TAIL_CHARS in all, led by how many earlier lines were left out for size", () => {
  const tail = new ConsoleTail();
  for (let i = 0; i < 20; i++) tail.push("warn", `${i} ${"w".repeat(8 * 1024 * 1024)}`);
  const lines = tail.snapshot();
  const kept = lines.slice(1);
  expect(kept.reduce((sum, line) => sum + line.length, 0)).toBeLessThanOrEqual(CONSOLE_TAIL_CHARS);
  expect(kept.at(-1)).toStartWith("warn 19 www");
  expect(lines[0]).toBe(`[${20 - kept.length} earlier line(s) left out: the guest console tail keeps ${CONSOLE_TAIL_CHARS} characters]`);
});

test("since(mark): the lines after a mark, at most those kept", () => {
  const tail = new ConsoleTail();
  tail.push("info", "before");
  const mark = tail.mark();
  tail.push("error", "one");
  tail.push("warn", "two");
  expect(tail.since(mark)).toEqual(["error one", "warn two"]);
  for (let i = 0; i < CONSOLE_TAIL_LINES + 5; i++) tail.push("info", `line ${i}`);
  expect(tail.since(mark)).toEqual(tail.snapshot());
  expect(tail.since(tail.mark())).toEqual([]);
});

test("a line is masked before it is cut: a secret longer than the cut shows none of its head", () => {
  const secret = `s3cret-${"k".repeat(3000)}`;
  const tail = new ConsoleTail((text) => text.replaceAll(secret, "***"));
  tail.push("info", `key ${secret} ${"p".repeat(2500)}`);
  expect(tail.snapshot()).toEqual([
    `info key *** ${"p".repeat(CONSOLE_TAIL_LINE_CHARS - 8)} … [line cut at ${CONSOLE_TAIL_LINE_CHARS} of 2508 chars]`,
  ]);
});
