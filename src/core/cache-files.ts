// What the build caches share: writing a file so no reader sees half of it, the check that keeps
// what is written below a `.cache` folder inside it (links followed), and a cheap fingerprint of
// files that change only when someone edits or installs them (the path, size and mtime of each, no
// reads) for caches of what is built from the package's own sources (the precompiled CLI, the
// QuickJS guest prelude). Node imports only, and Bun's own hasher rather than node:crypto (which
// costs a start a few ms to load): the CLI loads this first.

import { lstatSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { UsageError } from "../errors.ts";
import { isInside, realPathOf } from "./real-path.ts";

/** The package root: the folder holding src/ and runtime-quickjs/. */
export const PACKAGE_ROOT = join(import.meta.dirname, "../..");

/**
 * 16 hex digits over `salt`, every file under `folders` (recursively; tests left out) and each
 * of `files` that exists. The package manifests npm writes on install are always included, so a
 * dependency installed or updated changes the stamp.
 */
export function fileStamp(salt: string, folders: readonly string[], files: readonly string[] = []): string {
  const hash = new Bun.CryptoHasher("sha256").update(`${salt}\0`);
  const add = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat) hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\0`);
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes(".test.")) add(path);
    }
  };
  for (const folder of folders) walk(folder);
  for (const file of [...files, "package.json", "node_modules/.package-lock.json", "../.package-lock.json"]) add(join(PACKAGE_ROOT, file));
  return hash.digest("hex").slice(0, 16);
}

/** The name every build cache lives in: `<workspace>/.cache/`, and the package's own. */
const CACHE_SEGMENT = `${sep}.cache${sep}`;

/** Folders below a `.cache` that this process found inside it: each is checked once. */
const insideCache = new Set<string>();

/**
 * Refuses `folder` when it is below a folder named `.cache` and, links followed, leads outside
 * the real path of that `.cache`: a link inside the cache (`.cache/trailblaze-host-bundles ->
 * /elsewhere`) must not carry a write elsewhere. `.cache` itself may be a link (a cache moved to
 * another disk): what is below it is checked against where it really is. Once per folder per
 * process; a folder not below a `.cache` is not checked. A UsageError (exit 2) names the link and
 * says what to do: the cache is rebuilt as needed, so removing the link (or `.cache`) is safe.
 */
export function checkCacheFolder(folder: string): void {
  if (insideCache.has(folder)) return;
  const at = resolve(folder);
  const end = `${at}${sep}`.lastIndexOf(CACHE_SEGMENT);
  if (end < 0) return;
  const cache = at.slice(0, end + CACHE_SEGMENT.length - 1);
  const real = realPathOf(at);
  const realCache = realPathOf(cache);
  if (!isInside(realCache, real)) {
    const link = firstLink(cache, at);
    throw new UsageError(
      `${link ?? at} is a symbolic link to ${realPathOf(link ?? at)}, outside the build cache ${cache}${realCache === cache ? "" : ` (${realCache})`}; ` +
        `the CLI writes its caches only inside it. Remove the link (the cache is rebuilt as needed: removing ${cache} entirely is safe too) and run again`,
    );
  }
  insideCache.add(folder);
}

/** The first path from below `cache` down to `path` that is a symbolic link. */
function firstLink(cache: string, path: string): string | undefined {
  let at = cache;
  for (const name of path.slice(cache.length + 1).split(sep)) {
    at = join(at, name);
    try {
      if (lstatSync(at).isSymbolicLink()) return at;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Writes via a temporary file and a rename, so a concurrent reader never sees half a file. The
 * temporary is created exclusively (never through a link of that name) and the rename replaces
 * a link at `file` rather than writing where it points; a file below a `.cache` folder is
 * written only when its folder is inside that cache (checkCacheFolder).
 */
export function writeAtomically(file: string, text: string | Uint8Array): void {
  const folder = dirname(file);
  checkCacheFolder(folder);
  mkdirSync(folder, { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, text, { flag: "wx" });
  renameSync(temporary, file);
}
