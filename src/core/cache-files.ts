// What the build caches share: writing a file so no reader sees half of it, and a cheap
// fingerprint of files that change only when someone edits or installs them (the path, size and
// mtime of each, no reads) for caches of what is built from the package's own sources (the
// precompiled CLI, the QuickJS guest prelude). Node imports only, and Bun's own hasher rather than
// node:crypto (which costs a start a few ms to load): the CLI loads this first.

import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

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

/** Writes via a temporary file and a rename, so a concurrent reader never sees half a file. */
export function writeAtomically(file: string, text: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
