// The build cache never serves a stale build: a file saved while a build reads the old bytes is
// not stored under the new content's key (a real esbuild build, its onLoad hook saving the file).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { writeAtomically } from "../core/cache-files.ts";
import { BuildCache, reusingVerifiedBuilds, UNUSED_ENTRY_MS } from "./build-cache.ts";

const dir = mkdtempSync(join(tmpdir(), "build-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const entry = join(dir, "entry.ts");
const greeting = join(dir, "greeting.ts");
writeFileSync(entry, 'import { greeting } from "./greeting.ts";\nconsole.log(greeting);\n');
writeFileSync(greeting, 'export const greeting: string = "old";\n');
// Written a while ago, as sources are when a build starts (files saved within a second of a build are not stored).
for (const file of [entry, greeting]) utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
const cache = new BuildCache(join(dir, "cache"), entry, "test settings");

/** esbuild reads greeting.ts, then the "editor" saves `text` into it before the build ends. */
const savedDuringBuild = (text: string, keepMtime = false): Plugin => ({
  name: "save-during-build",
  setup(b) {
    b.onLoad({ filter: /greeting\.ts$/ }, (args) => {
      const contents = readFileSync(args.path, "utf8");
      writeFileSync(args.path, text);
      // The content check alone must catch it: an mtime put back says nothing changed. Otherwise the
      // save is stamped with the clock's time (a file system's coarse tick could date it earlier).
      if (keepMtime) utimesSync(args.path, new Date(2000, 0, 1), new Date(2000, 0, 1));
      else utimesSync(args.path, new Date(), new Date());
      return { contents, loader: "ts" };
    });
  },
});

/** One build the way bundleEntry does it: begin, build, write the output, store. */
async function buildOnce(plugins: Plugin[] = []): Promise<{ output: string; stored: boolean }> {
  const start = cache.begin();
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: dir,
    bundle: true,
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins,
  });
  const output = result.outputFiles[0]!.text;
  const file = join(cache.cacheDir, `${cache.stem}.js`);
  writeAtomically(file, output);
  const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(dir, input));
  return { output, stored: cache.store({ file, warnings: [] }, inputs, start) };
}

/** Dates a file a minute back: saved well before the next build starts. */
const age = (file: string) => utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

const served = () => {
  const hit = cache.lookup();
  return hit && readFileSync(hit.file, "utf8");
};

describe("BuildCache", () => {
  test("a file saved during the first build (not known before it): the old output is not stored; the next build is", async () => {
    const first = await buildOnce([savedDuringBuild('export const greeting: string = "new";\n')]);
    expect(first.output).toContain('"old"');
    expect(first.stored).toBe(false);
    expect(served()).toBeUndefined();

    age(greeting);
    const second = await buildOnce();
    expect(second).toMatchObject({ stored: true });
    expect(second.output).toContain('"new"');
    expect(served()).toContain('"new"');
  });

  test("a known input saved during a rebuild is caught by its content even when its mtime is put back", async () => {
    writeFileSync(greeting, 'export const greeting: string = "newer";\n');
    age(greeting);
    expect(served()).toBeUndefined();
    const rebuilt = await buildOnce([savedDuringBuild('export const greeting: string = "newest";\n', true)]);
    expect(rebuilt.output).toContain('"newer"');
    expect(rebuilt.stored).toBe(false);
    expect(served()).toBeUndefined();

    age(greeting);
    const after = await buildOnce();
    expect(after.stored).toBe(true);
    expect(served()).toContain('"newest"');
  });

  test("repeated lookups in one process skip hashing while inputs stat the same, and still miss a same-size edit with its mtime put back", () => {
    const before = readFileSync(greeting, "utf8");
    expect(served()).toContain('"newest"');
    expect(served()).toContain('"newest"');
    const stat = statSync(greeting);
    writeFileSync(greeting, before.replace("newest", "oldest"));
    utimesSync(greeting, stat.atime, stat.mtime);
    expect(statSync(greeting).size).toBe(stat.size);
    expect(served()).toBeUndefined();
    writeFileSync(greeting, before);
    utimesSync(greeting, stat.atime, stat.mtime);
    expect(served()).toContain('"newest"');
  });

  test("while a run reuses verified builds, an input edited after its first lookup is not looked at again; afterwards it is", () => {
    const before = readFileSync(greeting, "utf8");
    {
      using _run = reusingVerifiedBuilds();
      expect(served()).toContain('"newest"');
      writeFileSync(greeting, before.replace("newest", "edited"));
      expect(served()).toContain('"newest"');
    }
    expect(served()).toBeUndefined();
    writeFileSync(greeting, before);
    expect(served()).toContain('"newest"');
  });

  test("entries unused for 30 days are removed by the next build stored, with their outputs; used ones stay", async () => {
    const cacheDir = cache.cacheDir;
    const longAgo = new Date(Date.now() - UNUSED_ENTRY_MS - 3600_000);
    // An entry of a file deleted long ago (output beside its manifest), one of older settings (output in a folder of its own).
    writeFileSync(join(cacheDir, "gone-0000.js"), "old");
    writeFileSync(join(cacheDir, "gone-0000.js.map"), "{}");
    writeFileSync(
      join(cacheDir, "gone-0000.json"),
      JSON.stringify({ file: join(cacheDir, "gone-0000.js"), warnings: [], key: "k", inputs: [] }),
    );
    mkdirSync(join(cacheDir, "settings-1111"));
    writeFileSync(join(cacheDir, "settings-1111/entry.js"), "old");
    writeFileSync(
      join(cacheDir, "settings-1111.json"),
      JSON.stringify({ file: join(cacheDir, "settings-1111/entry.js"), warnings: [], key: "k", inputs: [] }),
    );
    for (const file of ["gone-0000.json", "settings-1111.json"]) utimesSync(join(cacheDir, file), longAgo, longAgo);
    // This entry was stored long ago too, but a lookup uses it now: that dates it.
    utimesSync(join(cacheDir, `${cache.stem}.json`), longAgo, longAgo);
    expect(served()).toContain('"newest"');

    const other = new BuildCache(cacheDir, greeting, "other settings");
    writeAtomically(join(cacheDir, `${other.stem}.js`), "built");
    expect(other.store({ file: join(cacheDir, `${other.stem}.js`), warnings: [] }, [greeting], other.begin())).toBe(true);
    expect(readdirSync(cacheDir).sort()).toEqual(
      [`${cache.stem}.js`, `${cache.stem}.json`, `${other.stem}.js`, `${other.stem}.json`].sort(),
    );
    expect(served()).toContain('"newest"');
  });
});
