// How a path is printed: relative to the working directory while it stays inside it (as a user
// types it), absolute once the relative form would climb out (`../../../tmp/map` reads worse than
// `/tmp/map`, and cannot be pasted from another folder).

import { isAbsolute, relative, sep } from "node:path";

/** `path` (absolute) as shown to a user working in `cwd`; `cwd` itself is shown absolute. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel;
}
