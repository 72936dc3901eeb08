// Where commands run from a subfolder of a workspace write: `.cache/` and the default HTML report
// folder at the workspace root (where `init` ignores them in .gitignore, and where sessions keep
// logs/), never in the working directory; outside a workspace, in the working directory.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { outputRoot, outputRootOf, workspaceRootAbove } from "../src/config/workspace-root.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const DEMO = join(REPO, "fixtures/demo");

/** Every `.cache` and `trailblaze-report` folder below `root`, relative to it. */
function outputsIn(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, shown: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = shown === "" ? entry.name : `${shown}/${entry.name}`;
      if (entry.name === ".cache" || entry.name === "trailblaze-report") found.push(path);
      else if (entry.name !== "node_modules" && entry.name !== "logs") walk(join(dir, entry.name), path);
    }
  };
  walk(root, "");
  return found.sort();
}

describe("commands write at the workspace root, whichever folder they run from", () => {
  test("check from trails/: bundles and supplied packages in <root>/.cache", async () => {
    const ws = workspaceCopy(DEMO, "output-root-check", { outsideRepo: true });
    const run = await cli(["check"], { cwd: join(ws, "trails") });
    expect(run.stdout).toContain("✓ 0 error(s), 2 warning(s)");
    expect(run.code).toBe(0);
    expect(outputsIn(ws)).toEqual([".cache"]);
    expect(readdirSync(join(ws, ".cache"))).toEqual(expect.arrayContaining(["trailblaze-bundles", "trailblaze-packages"]));
  });

  test("bundle from tools/myapp/: the bundle cached in <root>/.cache/trailblaze-bundles", async () => {
    const ws = workspaceCopy(DEMO, "output-root-bundle");
    const run = await cli(["bundle", "login.ts"], { cwd: join(ws, "tools/myapp") });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith(`✓ login.ts → ${join(ws, ".cache/trailblaze-bundles/login-")}`);
    expect(outputsIn(ws)).toEqual([".cache"]);
  });

  test("bundle and check-bundle from outside the workspace: the cache in the file's workspace", async () => {
    const ws = workspaceCopy(DEMO, "output-root-outside", { outsideRepo: true });
    const outside = dirname(ws);
    const bundled = await cli(["bundle", "ws/tools/myapp/login.ts"], { cwd: outside });
    expect(bundled.code).toBe(0);
    const checked = await cli(["check-bundle", "ws/tools/myapp/data.ts"], { cwd: outside });
    expect(checked.code).toBe(0);
    expect(existsSync(join(outside, ".cache"))).toBe(false);
    expect(readdirSync(join(ws, ".cache"))).toEqual(expect.arrayContaining(["trailblaze-bundles", "trailblaze-packages"]));
  });

  test("check-bundle of a per-file tool from tools/myapp/: its bundle and supplied packages in <root>/.cache", async () => {
    const ws = workspaceCopy(DEMO, "output-root-check-bundle", { outsideRepo: true });
    const run = await cli(["check-bundle", "data.ts"], { cwd: join(ws, "tools/myapp") });
    expect(run.stdout).toStartWith("✓ data.ts runs on-device: 2 tool(s)");
    expect(run.code).toBe(0);
    expect(outputsIn(ws)).toEqual([".cache"]);
    expect(readdirSync(join(ws, ".cache"))).toEqual(expect.arrayContaining(["trailblaze-bundles", "trailblaze-packages"]));
  });

  test("run --reporter html from trails/: the report in <root>/trailblaze-report/, named from the working directory", async () => {
    const ws = workspaceCopy(DEMO, "output-root-report");
    const run = await cli(["run", "login.trail.yaml", "--reporter", "html"], { cwd: join(ws, "trails") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("html report written to ../trailblaze-report/index.html\n");
    expect(existsSync(join(ws, "trailblaze-report/index.html"))).toBe(true);
    expect(outputsIn(ws)).toEqual([".cache", "trailblaze-report"]);
  });

  test("--output DIR stays relative to the working directory", async () => {
    const ws = workspaceCopy(DEMO, "output-root-output");
    const run = await cli(["run", "login.trail.yaml", "--reporter", "html", "--output", "mine"], { cwd: join(ws, "trails") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("html report written to mine/index.html\n");
    expect(existsSync(join(ws, "trails/mine/index.html"))).toBe(true);
  });
});

describe("outputRoot", () => {
  test("the nearest folder holding trailblaze-config/ or trails/config/trailblaze.yaml, else the working directory", () => {
    const dir = tempDir("output-root");
    expect(workspaceRootAbove(dir)).toBeUndefined();
    expect(outputRoot(dir)).toBe(dir);
    mkdirSync(join(dir, "ours/trailblaze-config"), { recursive: true });
    mkdirSync(join(dir, "ours/trails/sub"), { recursive: true });
    expect(outputRoot(join(dir, "ours/trails/sub"))).toBe(join(dir, "ours"));
    mkdirSync(join(dir, "upstream/trails/config"), { recursive: true });
    writeFileSync(join(dir, "upstream/trails/config/trailblaze.yaml"), "{}\n");
    expect(outputRoot(join(dir, "upstream/trails/config"))).toBe(join(dir, "upstream"));
    expect(outputRoot(join(dir, "upstream/trails"))).toBe(join(dir, "upstream"));
    // For one file: its own workspace first, from wherever the command runs.
    expect(outputRootOf("upstream/trails/x.ts", dir)).toBe(join(dir, "upstream"));
    expect(outputRootOf("../elsewhere.ts", join(dir, "ours/trails"))).toBe(join(dir, "ours"));
    expect(outputRootOf("elsewhere.ts", dir)).toBe(dir);
  });
});
