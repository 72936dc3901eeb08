import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { discoverTrails, isTrailFileName } from "./discover.ts";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tb-discover-"));
  for (const f of ["trails/b/z.trail.yaml", "trails/a.trail.yaml", "trails/b/trail.yaml", "trails/b/notes.yaml", "trails/node_modules/x.trail.yaml", "other/one.yaml", "empty/readme.md"]) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "trail: []\n");
  }
});
afterAll(() => rmSync(dir, { recursive: true }));

test("trail file names", () => {
  expect(["a.trail.yaml", "a.trail.yml", "trail.yaml", "A.TRAIL.YAML"].every(isTrailFileName)).toBe(true);
  expect(["a.yaml", "mytrail.yaml", "trail.yaml.bak"].some(isTrailFileName)).toBe(false);
});

test("folders expand to sorted trail files; files pass as given; duplicates drop", async () => {
  expect(await discoverTrails(["trails/", "other/one.yaml", "trails/a.trail.yaml"], dir)).toEqual([
    "trails/a.trail.yaml",
    "trails/b/trail.yaml",
    "trails/b/z.trail.yaml",
    "other/one.yaml",
  ]);
  expect(await discoverTrails(["."], join(dir, "trails/b"))).toEqual(["trail.yaml", "z.trail.yaml"]);
  expect(await discoverTrails([join(dir, "trails/b")], "/")).toEqual([join(dir, "trails/b/trail.yaml"), join(dir, "trails/b/z.trail.yaml")]);
});

test("missing paths and folders without trails are reported together", async () => {
  let error: unknown;
  try {
    await discoverTrails(["nope.trail.yaml", "empty", "trails"], dir);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).message).toBe(
    "2 configuration problems:\n" +
      `  nope.trail.yaml: no such file or folder (resolved against ${dir})\n` +
      "  empty: folder holds no trail files (*.trail.yaml)",
  );
});
