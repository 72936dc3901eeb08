// Which files `run` runs for a folder, by upstream's rules (docs/cli.md "Which files a folder
// runs"), on a copy of
// fixtures/upstream-discovery, a workspace laid out as upstream's. One test per rule.

import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { discoverTrails } from "../src/trail/discover.ts";
import { cli, REPO, tempDir, type CliRun } from "./support/cli.ts";

const FIXTURE = join(REPO, "fixtures/upstream-discovery");

type Json = Record<string, any>;

const STRAY =
  "config:\n  id: stray\ntrail:\n  - step: Must not run\n    recording:\n      tools:\n        - assertEquals: { actual: stray, expected: ran }\n";

/** A copy of the fixture, with what git cannot keep in it: `.git/` and `node_modules/` folders, and links. */
function workspace(): string {
  const dir = join(tempDir("upstream-discovery"), "ws");
  cpSync(FIXTURE, dir, { recursive: true });
  for (const folder of [".git/refs", "node_modules/some-pkg", "features/cart/node_modules/x"]) {
    mkdirSync(join(dir, "trails", folder), { recursive: true });
    writeFileSync(join(dir, "trails", folder, "stray.trail.yaml"), STRAY);
  }
  const outside = join(dir, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "shared.trail.yaml"), STRAY);
  symlinkSync(outside, join(dir, "trails", "shared"));
  symlinkSync(join(outside, "shared.trail.yaml"), join(dir, "trails", "login", "linked.trail.yaml"));
  symlinkSync(join(dir, "trails", "catalog"), join(dir, "catalog-link"));
  return dir;
}

/** The files a `run --list` plans, in order (the first line of each block). */
function planned(run: CliRun): string[] {
  return run.stdout
    .split("\n\n")
    .map((block) => block.split("\n")[0]!)
    .filter((line) => / \(/.test(line) && !line.includes("planned"))
    .map((line) => line.slice(0, line.indexOf(" (")));
}

let ws = "";
let run: CliRun;
let files: string[] = [];
beforeAll(async () => {
  ws = workspace();
  run = await cli(["run", "trails", "--reporter", "json", "--no-logging"], { cwd: ws });
  files = (JSON.parse(run.stdout) as Json).trails.map((t: Json) => t.file);
});

const SEARCH_WARNING =
  "warning: trails/search: 2 legacy recordings and no trail.yaml or blaze.yaml; running android.trail.yaml, leaving out ios.trail.yaml. " +
  "Pass --device <platform> (e.g. --device android) to pick one\n";

test("the whole workspace runs: one trail per legacy folder, every named trail, sorted; exit 0", () => {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: SEARCH_WARNING });
  expect(files).toEqual([
    "trails/archive/trailblaze.yaml",
    "trails/catalog/conditional-item.trail.yaml",
    "trails/catalog/multiple-items.trail.yaml",
    "trails/checkout/express.trail.yaml",
    "trails/checkout/trail.yaml",
    "trails/features/cart/trail.yaml",
    "trails/login/trail.yaml",
    "trails/onboarding/blaze.yaml",
    "trails/profile/trail.yaml",
    "trails/search/android.trail.yaml",
    "trails/settings/blaze.yaml",
  ]);
});

describe("trail file names", () => {
  test("trail.yaml, *.trail.yaml and blaze.yaml are trails: a folder holding only blaze.yaml is found from its parent", () => {
    expect(files).toContain("trails/onboarding/blaze.yaml");
    expect(files).toContain("trails/login/trail.yaml");
    expect(files).toContain("trails/catalog/conditional-item.trail.yaml");
  });

  test("trailblaze.yaml is a legacy trail, except in a config/ folder (the workspace anchor)", () => {
    expect(files).toContain("trails/archive/trailblaze.yaml");
    expect(files.filter((f) => f.includes("/config/"))).toEqual([]);
  });

  test("names match exactly: Login.Trail.yaml, smoke.trail.yml and notes.yaml are not trails", () => {
    expect(files.filter((f) => f.includes("/misc/"))).toEqual([]);
  });
});

describe("what gets excluded", () => {
  test("build/, .gradle/, .git/, node_modules/, .trailblaze/ and .claude/ are pruned at any depth", async () => {
    expect(files.filter((f) => /(^|\/)(build|\.gradle|\.git|node_modules|\.trailblaze|\.claude)\//.test(f))).toEqual([]);
    expect(files).toContain("trails/features/cart/trail.yaml"); // beside features/cart/build/ and features/cart/node_modules/
    // `check` walks the same way: every file, excluded folders pruned.
    const all = await discoverTrails(["trails"], ws);
    expect(all.filter((f) => /\/(build|\.gradle|\.git|node_modules|\.trailblaze|\.claude)\//.test(f))).toEqual([]);
  });

  test("a folder given by name is searched, whatever its name", async () => {
    const list = await cli(["run", "trails/build", "trails/features/cart/build", "--list"], { cwd: ws });
    expect(list.code).toBe(0);
    expect(planned(list)).toEqual(["trails/build/stale.trail.yaml", "trails/features/cart/build/cached.trail.yaml"]);
  });
});

describe("links", () => {
  test("a link inside a folder, to a folder or a file, is not followed", () => {
    expect(files.filter((f) => f.startsWith("trails/shared/") || f.endsWith("linked.trail.yaml"))).toEqual([]);
  });

  test("a linked folder given by name is searched, its trails named through the link", async () => {
    const list = await cli(["run", "catalog-link", "--list"], { cwd: ws });
    expect(list.code).toBe(0);
    expect(planned(list)).toEqual(["catalog-link/conditional-item.trail.yaml", "catalog-link/multiple-items.trail.yaml"]);
  });
});

describe("named trails and legacy trails", () => {
  test("every named trail (<name>.trail.yaml with a trail: key) runs, beside a trail.yaml too", () => {
    expect(files.filter((f) => f.startsWith("trails/catalog/") || f.startsWith("trails/checkout/"))).toEqual([
      "trails/catalog/conditional-item.trail.yaml",
      "trails/catalog/multiple-items.trail.yaml",
      "trails/checkout/express.trail.yaml",
      "trails/checkout/trail.yaml",
    ]);
  });

  test("without a device: trail.yaml, else blaze.yaml, else the first legacy recording by name, with a warning", () => {
    expect(files.filter((f) => /\/(profile|settings|search)\//.test(f))).toEqual([
      "trails/profile/trail.yaml",
      "trails/search/android.trail.yaml",
      "trails/settings/blaze.yaml",
    ]);
    expect(run.stderr).toBe(SEARCH_WARNING);
  });

  const legacyFor = async (...flags: string[]) => {
    const list = await cli(["run", "trails/profile", "trails/search", "trails/settings", "--list", ...flags], { cwd: ws });
    return { code: list.code, stderr: list.stderr, files: planned(list) };
  };

  test("--device android: the recording named for it wins over trail.yaml; one starting android- wins over blaze.yaml", async () => {
    expect(await legacyFor("--device", "android")).toEqual({
      code: 0,
      stderr: "",
      files: ["trails/profile/android.trail.yaml", "trails/search/android.trail.yaml", "trails/settings/android-phone.trail.yaml"],
    });
  });

  test("--device ios: no ios recording in profile/ or settings/, so trail.yaml and blaze.yaml", async () => {
    expect(await legacyFor("--device", "ios/iphone-15")).toEqual({
      code: 0,
      stderr: "",
      files: ["trails/profile/trail.yaml", "trails/search/ios.trail.yaml", "trails/settings/blaze.yaml"],
    });
  });

  test("--driver names the device when --device does not", async () => {
    expect((await legacyFor("--driver", "ios-host")).files).toEqual([
      "trails/profile/trail.yaml",
      "trails/search/ios.trail.yaml",
      "trails/settings/blaze.yaml",
    ]);
  });

  test("several devices pick as no device does, and each runs the pick", async () => {
    const both = await legacyFor("--device", "android,ios");
    expect(both.stderr).toBe(SEARCH_WARNING);
    expect(both.files).toEqual([
      "trails/profile/trail.yaml",
      "trails/profile/trail.yaml",
      "trails/search/android.trail.yaml",
      "trails/search/android.trail.yaml",
      "trails/settings/blaze.yaml",
      "trails/settings/blaze.yaml",
    ]);
  });

  test("a lone recording not named for the device runs, with a warning saying so", async () => {
    const list = await cli(["run", "trails/search", "--list", "--device", "web"], { cwd: ws });
    expect(list.stderr).toBe(
      "warning: trails/search: 2 legacy recordings, none named for this run's device (web), and no trail.yaml or blaze.yaml; " +
        "running android.trail.yaml, leaving out ios.trail.yaml. Pass --device <platform> (e.g. --device android) to pick one\n",
    );
    const lone = join(ws, "lone");
    mkdirSync(lone);
    cpSync(join(ws, "trails/search/ios.trail.yaml"), join(lone, "ios.trail.yaml"));
    const one = await cli(["run", "lone", "--list", "--device", "android"], { cwd: ws });
    expect(one.stderr).toBe(
      "warning: lone: ios.trail.yaml is not named for this run's device (android) and there is no trail.yaml or blaze.yaml; running it all the same\n",
    );
    expect(planned(one)).toEqual(["lone/ios.trail.yaml"]);
    expect((await cli(["run", "lone", "--list"], { cwd: ws })).stderr).toBe("");
  });

  test("files given by name all run, as a shell glob gives them", async () => {
    const list = await cli(
      ["run", "trails/profile/trail.yaml", "trails/profile/android.trail.yaml", "trails/search/ios.trail.yaml", "--list"],
      { cwd: ws },
    );
    expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: "" });
    expect(planned(list)).toEqual(["trails/profile/trail.yaml", "trails/profile/android.trail.yaml", "trails/search/ios.trail.yaml"]);
  });

  test("check takes every trail file of a folder, not one per legacy trail", async () => {
    const all = await discoverTrails(["trails/profile", "trails/search", "trails/settings"], ws);
    expect(all).toEqual([
      "trails/profile/android.trail.yaml",
      "trails/profile/trail.yaml",
      "trails/search/android.trail.yaml",
      "trails/search/ios.trail.yaml",
      "trails/settings/android-phone.trail.yaml",
      "trails/settings/blaze.yaml",
    ]);
  });
});
