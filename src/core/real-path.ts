// Where a path really leads, symbolic links followed, and whether a write there stays inside a
// folder: a lexical check (`tools/link/x.ts` is under the workspace) is fooled by `tools/link`
// being a link to somewhere else; this one is not.

import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";

/** `path` is `folder` or below it, as written (no link is followed). */
export const isInside = (folder: string, path: string): boolean =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/**
 * `path` (absolute, or relative to the working directory) with every link resolved: the real path
 * of its deepest existing ancestor, then the rest as written. A dangling link counts as missing:
 * `mkdirSync` does not follow one and an exclusive create (`wx`) fails on it, so a scaffold cannot
 * write through it; a writer that appends (which would create the link's target) refuses links
 * itself, as the session logs do (log-layout.ts).
 */
export function realPathOf(path: string): string {
  let at = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync.native(at), ...rest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    const parent = dirname(at);
    if (parent === at) return join(at, ...rest);
    rest.unshift(basename(at));
    at = parent;
  }
}

/**
 * Where `path` leads when that is outside `folder`, both with their links resolved (so a folder
 * reached through a link of its own still holds its files); undefined when it stays inside.
 */
export function escapesTo(folder: string, path: string): string | undefined {
  const real = realPathOf(path);
  return isInside(realPathOf(folder), real) ? undefined : real;
}
