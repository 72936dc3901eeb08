// The on-device console log: created with its first line, masked whole then cut, batched, capped.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConsoleLogFile } from "./console-log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "console-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("lines are masked, written together a turn later, and stop at the cap; close writes the note", async () => {
  const file = join(dir, "session", "quickjs_console_tools.log");
  const log = new ConsoleLogFile(file, { mask: (text) => text.replaceAll("hunter2", "***"), maxBytes: 200 });
  log.line("info", "token hunter2");
  expect(existsSync(file)).toBe(false);
  for (let i = 0; i < 20; i++) log.line("warn", `line ${i}`);
  await log.close();
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  expect(lines[0]).toMatch(/^\S+ info token \*\*\*$/);
  expect(lines.at(-1)).toMatch(
    /^\[trailblaze\] … console log cut at 200 bytes: \d+ more bytes \(\d+ lines\) not written \(TRAILBLAZE_LOG_MAX_BYTES\)$/,
  );
  expect(readFileSync(file, "utf8").length).toBeLessThan(320);
  // A log still open, given the same line at the same time, says when that line would be on disk.
  const control = new ConsoleLogFile(join(dir, "session", "quickjs_console_control.log"));
  log.line("info", "after the close");
  control.line("info", "after the close");
  await control.close();
  expect(readFileSync(join(dir, "session", "quickjs_console_control.log"), "utf8")).toContain("after the close");
  expect(readFileSync(file, "utf8")).not.toContain("after the close");
});

test("a long line is masked whole, then cut: a secret across the cut leaves no prefix", async () => {
  const file = join(dir, "session", "quickjs_console_long.log");
  const log = new ConsoleLogFile(file, { mask: (text) => text.replaceAll("SECRET42", "***"), maxLineChars: 10 });
  log.line("info", `${"x".repeat(6)}SECRET42${"y".repeat(5000)}`);
  await log.close();
  expect(readFileSync(file, "utf8")).toMatch(/^\S+ info xxxxxx\*\*\*y … \[4999 more bytes\]\n$/);
});
