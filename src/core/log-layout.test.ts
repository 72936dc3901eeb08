// Pruning a logs folder: the oldest sessions the CLI named go, the newest stay, and nothing named
// otherwise is touched.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pruneSessionLogs } from "./log-layout.ts";

const root = mkdtempSync(join(tmpdir(), "prune-logs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("keeps the newest keep - 1 generated sessions (room for the next), and every folder it did not name", () => {
  const generated = ["20261101-080000-aaaaaa", "20261102-080000-bbbbbb", "nightly-20261103-080000-cccccc", "20261104-080000-dddddd"];
  for (const name of [...generated, "my-session", "20261105-notours"]) mkdirSync(join(root, name));
  writeFileSync(join(root, "notes.txt"), "kept");
  pruneSessionLogs(root, 3);
  expect(readdirSync(root).sort()).toEqual([
    "20261104-080000-dddddd",
    "20261105-notours",
    "my-session",
    "nightly-20261103-080000-cccccc",
    "notes.txt",
  ]);
  pruneSessionLogs(root, 0);
  expect(readdirSync(root)).toHaveLength(5);
  pruneSessionLogs(join(root, "missing"), 3);
  expect(existsSync(join(root, "missing"))).toBe(false);
});
