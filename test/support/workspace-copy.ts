// Copies of fixture workspaces that tests write into, at fixed places, each given the schemas its
// per-file tools were derived to in any other copy of the same fixture.
//
// Deriving a per-file tool's schemas compiles it with TypeScript (src/bundle/tool-schemas.ts): the
// slowest step of most workspace tests. Its cache is keyed by the content of the tool's files and
// their paths within the workspace, so it holds wherever the workspace lies. A copy made afresh
// would derive everything again, once per copy, on every clone of the repository. Here each copy
// is made anew (the fixture's files, none of its logs/ or .cache/), and .cache/trailblaze-tool-schemas
// starts with the entries found in the fixture itself and in every other copy of it, as in a
// user's own workspace from one run to the next. Everything else (bundles, generated entries,
// supplied packages) is built afresh by each run. A test of the derivation itself, or of a cold
// schema cache, makes its copy with tempDir.

import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { REPO } from "./cli.ts";

const SCHEMAS = join(".cache", "trailblaze-tool-schemas");
/** A fixture's own run output and caches are not part of it (a fresh clone has none). */
const NOT_COPIED = new Set(["logs", ".cache", "node_modules"]);

/**
 * Copies a fixture's files to `dest`, none of the logs/, .cache/ or node_modules/ that runs left in
 * it: git tracks none, and the other pass of `npm test` may be writing there while it is copied (a
 * cache file renamed away mid-copy failed the copy with ENOENT).
 */
export function copyFixture(fixture: string, dest: string): void {
  cpSync(fixture, dest, {
    recursive: true,
    filter: (src) =>
      !relative(fixture, src)
        .split(sep)
        .some((part) => NOT_COPIED.has(part)),
  });
}

export interface WorkspaceCopyOptions {
  /** The copy's folder name (default "ws"): some tests show it. */
  folder?: string;
  /** Outside the repository, so no node_modules folder above it resolves anything (default: under the repository's .cache). */
  outsideRepo?: boolean;
}

/** The file in a copy's place that names the fixture it copies. */
const FIXTURE_NOTE = "fixture";

/** Where copies are made: under the repository's .cache, or outside the repository. */
const BASES = {
  inside: join(REPO, ".cache", "test-workspaces"),
  outside: join(tmpdir(), `trailblaze-test-workspaces-${Bun.hash(REPO).toString(36)}`),
};

/**
 * A fresh copy of `fixture` at the place named by `key` (unique per call site: two copies with one
 * key are one folder), with the schemas derived in the fixture and in every copy of it so far.
 */
export function workspaceCopy(fixture: string, key: string, options: WorkspaceCopyOptions = {}): string {
  const base = options.outsideRepo ? BASES.outside : BASES.inside;
  const home = join(base, key);
  const dir = join(home, options.folder ?? "ws");
  const kept = join(home, "tool-schemas");
  rmSync(kept, { recursive: true, force: true });
  if (existsSync(join(dir, SCHEMAS))) renameSync(join(dir, SCHEMAS), kept);
  rmSync(dir, { recursive: true, force: true });
  copyFixture(fixture, dir);
  if (existsSync(kept)) {
    mkdirSync(join(dir, ".cache"), { recursive: true });
    renameSync(kept, join(dir, SCHEMAS));
  }
  writeFileSync(join(home, FIXTURE_NOTE), fixture);
  seedSchemas(join(dir, SCHEMAS), [
    join(fixture, SCHEMAS),
    ...copiesOf(fixture, BASES.inside, home),
    ...copiesOf(fixture, BASES.outside, home),
  ]);
  return dir;
}

/** The schema caches of the other copies of `fixture` under `base` (made by either pass of the suite). */
function copiesOf(fixture: string, base: string, home: string): string[] {
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true }).flatMap((entry) => {
    const other = join(base, entry.name);
    if (!entry.isDirectory() || other === home) return [];
    try {
      if (readFileSync(join(other, FIXTURE_NOTE), "utf8") !== fixture) return [];
      return readdirSync(other)
        .map((folder) => join(other, folder, SCHEMAS))
        .filter((schemas) => existsSync(schemas));
    } catch {
      return []; // Not a copy's place, or one being made again just now.
    }
  });
}

/**
 * Copies into `into` the entries of `from` it lacks. Entries are named by what they were derived
 * from, so any of them is right wherever that matches; one removed as it is read is left out.
 */
function seedSchemas(into: string, from: readonly string[]): void {
  for (const dir of from) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith(".json"));
    } catch {
      continue;
    }
    if (names.length > 0) mkdirSync(into, { recursive: true });
    for (const name of names) {
      if (existsSync(join(into, name))) continue;
      try {
        copyFileSync(join(dir, name), join(into, name));
      } catch {
        // Superseded in that copy meanwhile: derived again if needed.
      }
    }
  }
}
