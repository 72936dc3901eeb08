// Turns the paths given to `run` into trail files: files as given, folders
// searched for **/*.trail.yaml (and upstream's unified `trail.yaml`), sorted.

import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";

/** True for names a folder search picks up: `*.trail.yaml`, `*.trail.yml`, `trail.yaml`, `trail.yml`. */
export function isTrailFileName(name: string): boolean {
  return /(^|\.)trail\.ya?ml$/i.test(name);
}

const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) await walk(path, out);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && isTrailFileName(entry.name)) out.push(path);
  }
}

/**
 * Trail files for `paths` (relative to `cwd`). Files are returned as given;
 * a folder expands to its trail files, sorted, joined onto the path as given
 * (`trails` → `trails/login/a.trail.yaml`). Duplicates are dropped. Missing
 * paths and folders without trail files are reported together in a ConfigError.
 */
export async function discoverTrails(paths: string[], cwd: string): Promise<string[]> {
  const problems: ConfigProblem[] = [];
  const found: string[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      problems.push({ file: path, line: 0, col: 0, path: "", message: `no such file or folder (resolved against ${cwd})` });
      continue;
    }
    if (!info.isDirectory()) {
      found.push(path);
      continue;
    }
    const files: string[] = [];
    await walk(absolute, files);
    if (files.length === 0) {
      problems.push({ file: path, line: 0, col: 0, path: "", message: "folder holds no trail files (*.trail.yaml)" });
      continue;
    }
    const rel = files.map((f) => relative(absolute, f).split(sep).join("/")).sort();
    for (const r of rel) found.push(path === "." ? r : `${path.replace(/[\\/]+$/, "")}/${r}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = resolve(cwd, f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
