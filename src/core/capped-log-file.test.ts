// The capped, batched log file every session log is written through.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CappedLogFile, formatSize, logMaxBytes } from "./capped-log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "capped-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("lines queued in one turn are written together, after it; close waits for them", async () => {
  const file = join(dir, "a", "batched.log");
  const log = new CappedLogFile(file, { what: "test log", maxBytes: 1000 });
  for (let i = 0; i < 3; i++) log.append(`line ${i}\n`);
  expect(existsSync(file)).toBe(false);
  await log.close();
  expect(readFileSync(file, "utf8")).toBe("line 0\nline 1\nline 2\n");
});

test("once a line does not fit, it and every later one are counted; the note at close says how much", async () => {
  const file = join(dir, "capped.log");
  writeFileSync(file, "before\n");
  const log = new CappedLogFile(file, { what: "test log", maxBytes: 10 });
  log.append("12345\n");
  log.append("678901\n");
  expect(log.full).toBe(true);
  log.append("x\n");
  log.dropped(100);
  await log.close();
  expect(readFileSync(file, "utf8")).toBe(
    "before\n12345\n[trailblaze] … test log cut at 10 bytes: 109 more bytes (3 lines) not written (TRAILBLAZE_LOG_MAX_BYTES)\n",
  );
  log.append("after close\n");
  await log.close();
  expect(readFileSync(file, "utf8")).not.toContain("after close");
});

test("a .jsonl file gets its note as a JSON line", async () => {
  const file = join(dir, "capped.jsonl");
  const log = new CappedLogFile(file, { what: "call log", maxBytes: 0, noteLine: (note) => `${JSON.stringify({ trailblaze: note })}\n` });
  log.append('{"a":1}\n');
  await log.close();
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
    trailblaze: "… call log cut at 0 bytes: 8 more bytes (1 line) not written (TRAILBLAZE_LOG_MAX_BYTES)",
  });
});

test("at process exit what is queued and the note are written synchronously", () => {
  const file = join(dir, "exit", "sync.log");
  const log = new CappedLogFile(file, { what: "test log", maxBytes: 6 });
  log.append("kept\n");
  log.append("dropped\n");
  log.finishSync();
  expect(readFileSync(file, "utf8")).toBe(
    "kept\n[trailblaze] … test log cut at 6 bytes: 8 more bytes (1 line) not written (TRAILBLAZE_LOG_MAX_BYTES)\n",
  );
});

test("an unwritable file is reported once; later lines are dropped", async () => {
  const errors: string[] = [];
  const log = new CappedLogFile(dir, { what: "test log", onError: (error) => errors.push((error as NodeJS.ErrnoException).code ?? "") });
  log.append("one\n");
  await log.close();
  log.append("two\n");
  expect(errors).toEqual(["EISDIR"]);
});

test("a flood past the cap is counted, not kept", async () => {
  const file = join(dir, "flood.log");
  const log = new CappedLogFile(file, { what: "test log", maxBytes: 1024 * 1024 });
  const line = `${"f".repeat(1023)}\n`;
  for (let i = 0; i < 200 * 1024; i++) log.append(line); // 200 MiB offered in one turn
  await log.close();
  const text = readFileSync(file, "utf8");
  expect(text.length).toBeLessThan(1024 * 1024 + 200);
  expect(text).toEndWith(
    `[trailblaze] … test log cut at 1 MiB: ${199 * 1024 * 1024} more bytes (${199 * 1024} lines) not written (TRAILBLAZE_LOG_MAX_BYTES)\n`,
  );
});

test("TRAILBLAZE_LOG_MAX_BYTES: bytes, or K, M, G; a bad value says what it expects", () => {
  expect(logMaxBytes({})).toBe(32 * 1024 * 1024);
  expect(logMaxBytes({ TRAILBLAZE_LOG_MAX_BYTES: "4096" })).toBe(4096);
  expect(logMaxBytes({ TRAILBLAZE_LOG_MAX_BYTES: "8MiB" })).toBe(8 * 1024 * 1024);
  expect(logMaxBytes({ TRAILBLAZE_LOG_MAX_BYTES: "2 g" })).toBe(2 * 1024 ** 3);
  expect(() => logMaxBytes({ TRAILBLAZE_LOG_MAX_BYTES: "lots" })).toThrow(
    'TRAILBLAZE_LOG_MAX_BYTES expects the most bytes one log file may hold, e.g. 33554432 or 32MiB (K, M, G: KiB, MiB, GiB), got "lots"',
  );
  expect([formatSize(8 * 1024 * 1024), formatSize(3072), formatSize(1000)]).toEqual(["8 MiB", "3 KiB", "1000 bytes"]);
});
