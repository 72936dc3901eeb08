// The on-device console log: created with its first line, masked, batched, capped.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConsoleLogFile } from "./console-log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "console-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("lines are masked, written together on the next turn, and stop at the cap with one marker line", async () => {
  const file = join(dir, "session", "quickjs_console_tools.log");
  const log = new ConsoleLogFile(file, { mask: (text) => text.replaceAll("hunter2", "***"), maxBytes: 200 });
  log.line("info", "token hunter2");
  expect(existsSync(file)).toBe(false);
  for (let i = 0; i < 20; i++) log.line("warn", `line ${i}`);
  await new Promise((resolve) => setImmediate(resolve));
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  expect(lines[0]).toMatch(/^\S+ info token \*\*\*$/);
  expect(lines.at(-1)).toMatch(/^\[trailblaze\] console log stopped at \d+ bytes \(limit 200\); later lines are not written$/);
  expect(readFileSync(file, "utf8").length).toBeLessThan(300);
  log.line("info", "after the cap");
  log.flush();
  expect(readFileSync(file, "utf8")).not.toContain("after the cap");
});
