import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { discoverTrails, isTrailFileName, pickLegacyTrail, runClassifiers } from "./discover.ts";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tb-discover-"));
  for (const f of [
    "trails/b/z.trail.yaml",
    "trails/a.trail.yaml",
    "trails/b/trail.yaml",
    "trails/b/notes.yaml",
    "trails/node_modules/x.trail.yaml",
    "other/one.yaml",
    "empty/readme.md",
  ]) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "trail: []\n");
  }
});
afterAll(() => rmSync(dir, { recursive: true }));

test("trail file names: upstream's, exact and case-sensitive", () => {
  expect(["a.trail.yaml", "trail.yaml", "blaze.yaml", "trailblaze.yaml", "android-phone.trail.yaml"].every(isTrailFileName)).toBe(true);
  expect(
    ["a.yaml", "mytrail.yaml", "trail.yaml.bak", "a.trail.yml", "trail.yml", "A.TRAIL.YAML", "Trail.yaml", "Blaze.yaml"].some(
      isTrailFileName,
    ),
  ).toBe(false);
});

test("a folder's legacy trail: the recording named for the device, else trail.yaml, else blaze.yaml, else trailblaze.yaml", () => {
  const pick = (names: string[], classifiers: string[] = []) => pickLegacyTrail(names, classifiers);
  expect(pick(["trail.yaml", "blaze.yaml", "android.trail.yaml"], ["android"])).toEqual({ file: "android.trail.yaml", fallback: false });
  expect(pick(["android.trail.yaml", "android-phone.trail.yaml"], ["android", "phone"])).toEqual({
    file: "android-phone.trail.yaml",
    fallback: false,
  });
  expect(pick(["trail.yaml", "blaze.yaml", "android.trail.yaml"])).toEqual({ file: "trail.yaml", fallback: false });
  // A device known by its platform only picks trail.yaml over a recording named for platform and category.
  expect(pick(["trail.yaml", "android-phone.trail.yaml"], ["android"])).toEqual({ file: "trail.yaml", fallback: false });
  expect(pick(["blaze.yaml", "trailblaze.yaml", "ios.trail.yaml"], ["android"])).toEqual({ file: "blaze.yaml", fallback: false });
  expect(pick(["trailblaze.yaml"])).toEqual({ file: "trailblaze.yaml", fallback: false });
  // blaze.yaml gives way to a recording that starts with the platform: the longest name, then by name.
  expect(pick(["blaze.yaml", "ios-iphone.trail.yaml", "ios-ipad.trail.yaml", "ios-iphone-pro.trail.yaml"], ["ios"])).toEqual({
    file: "ios-iphone-pro.trail.yaml",
    fallback: false,
  });
  expect(pick(["blaze.yaml", "ios-iphone.trail.yaml", "ios-ipadxx.trail.yaml"], ["ios"])).toEqual({
    file: "ios-ipadxx.trail.yaml",
    fallback: false,
  });
  // …but not trail.yaml.
  expect(pick(["trail.yaml", "ios-iphone.trail.yaml"], ["ios"])).toEqual({ file: "trail.yaml", fallback: false });
  // Nothing named: the first by name.
  expect(pick(["web.trail.yaml", "ios.trail.yaml"], ["android"])).toEqual({ file: "ios.trail.yaml", fallback: true });
  expect(pick(["web.trail.yaml", "ios.trail.yaml"])).toEqual({ file: "ios.trail.yaml", fallback: true });
});

test("the device a run's folders pick for: one --device, else --driver; none for several devices", () => {
  expect(runClassifiers({})).toEqual([]);
  expect(runClassifiers({ devices: ["android/pixel-8"] })).toEqual(["android"]);
  expect(runClassifiers({ devices: ["IOS"] })).toEqual(["ios"]);
  expect(runClassifiers({ devices: ["android", "ios"] })).toEqual([]);
  expect(runClassifiers({ driver: "ios-axe" })).toEqual(["ios"]);
  expect(runClassifiers({ driver: "PLAYWRIGHT_ELECTRON" })).toEqual(["web"]);
  expect(runClassifiers({ driver: "compose" })).toEqual(["desktop"]);
});

test("folders expand to sorted trail files; files pass as given; duplicates drop", async () => {
  expect(await discoverTrails(["trails/", "other/one.yaml", "trails/a.trail.yaml"], dir)).toEqual([
    "trails/a.trail.yaml",
    "trails/b/trail.yaml",
    "trails/b/z.trail.yaml",
    "other/one.yaml",
  ]);
  expect(await discoverTrails(["."], join(dir, "trails/b"))).toEqual(["trail.yaml", "z.trail.yaml"]);
  expect(await discoverTrails([join(dir, "trails/b")], "/")).toEqual([
    join(dir, "trails/b/trail.yaml"),
    join(dir, "trails/b/z.trail.yaml"),
  ]);
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
      "  empty: folder holds no trail files (trail.yaml, *.trail.yaml, blaze.yaml; not searched: build/, .gradle/, .git/, node_modules/, .trailblaze/, .claude/)",
  );
});
