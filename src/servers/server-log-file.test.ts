// The MCP log messages of a session's servers: one masked JSON line each, cut, capped, flushed at close.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServerLogFiles } from "./server-log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "server-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mask = (text: string) => text.replaceAll("hunter2", "***");

test("one file per server, one masked JSON line per message, all on disk when close resolves", async () => {
  const logs = new ServerLogFiles(join(dir, "s1"), { mask });
  logs.write("tools/a.ts", { time: "t0", server: "tools/a.ts", level: "info", data: "token hunter2" });
  logs.write("tools/b.ts", { time: "t1", server: "tools/b.ts", level: "error", data: { detail: 1 } });
  await logs.close();
  expect(readFileSync(join(dir, "s1", "server_log_tools_a.jsonl"), "utf8")).toBe(
    '{"time":"t0","server":"tools/a.ts","level":"info","data":"token ***"}\n',
  );
  expect(readFileSync(join(dir, "s1", "server_log_tools_b.jsonl"), "utf8")).toBe(
    '{"time":"t1","server":"tools/b.ts","level":"error","data":{"detail":1}}\n',
  );
});

test("a flood stops at the cap, with a JSON note of what was not written; a long message keeps the head of its data", async () => {
  const logs = new ServerLogFiles(join(dir, "s2"), { mask, maxBytes: 4096, maxLineChars: 1000 });
  logs.write("flood", { time: "t", server: "flood", level: "info", data: `${"d".repeat(5000)}hunter2` });
  for (let i = 0; i < 100; i++) logs.write("flood", { time: "t", server: "flood", level: "info", data: `message ${i} ${"p".repeat(100)}` });
  await logs.close();
  const lines = readFileSync(join(dir, "s2", "server_log_flood.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines[0]).toMatchObject({ level: "info", data: expect.stringMatching(/^"d+ … \[\d+ more bytes\]$/) });
  expect(lines.at(-1)).toMatchObject({
    server: "flood",
    trailblaze: expect.stringMatching(/^… server log cut at 4 KiB: \d+ more bytes \(\d+ lines\) not written \(TRAILBLAZE_LOG_MAX_BYTES\)$/),
  });
  expect(readFileSync(join(dir, "s2", "server_log_flood.jsonl"), "utf8").length).toBeLessThan(4096 + 300);
});
