// The guest prelude is compiled once and kept in .cache/trailblaze-prelude/: a later process reads
// it instead of loading esbuild. The cached text is what esbuild makes of the guest sources now.

import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./support/cli.ts";

const CACHE = join(REPO, ".cache/trailblaze-prelude");

/** preludeSource() in a fresh process: its text, and whether esbuild was loaded for it. */
function freshPrelude(): { text: string; esbuildLoaded: boolean } {
  const script = `
    const { preludeSource } = await import(${JSON.stringify(join(REPO, "runtime-quickjs/prelude-source.ts"))});
    const text = await preludeSource();
    const esbuildLoaded = Object.keys(require.cache).some((path) => path.includes("/node_modules/esbuild/"));
    process.stdout.write(JSON.stringify({ text, esbuildLoaded }));`;
  const child = Bun.spawnSync([process.execPath, "-e", script], { cwd: REPO });
  expect(child.stderr.toString()).toBe("");
  return JSON.parse(child.stdout.toString());
}

test("a process with the prelude cached does not load esbuild, and gets the same text", () => {
  const first = freshPrelude();
  const cached = readdirSync(CACHE).filter((name) => name.endsWith(".js"));
  expect(cached.map((name) => readFileSync(join(CACHE, name), "utf8"))).toContain(first.text);
  const second = freshPrelude();
  expect(second).toEqual({ text: first.text, esbuildLoaded: false });
  expect(first.text).toContain("__zod_globalConfig");
});
