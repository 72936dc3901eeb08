// Writing a scaffold (init, init-tool) all or nothing: every file inside the workspace root (on
// its real path: a folder or file that is a link to elsewhere is refused), new files created exclusively (so never over a file, or through a link, that appeared after the plan
// was checked), and when a write fails the files this run created are removed, the ones it changed
// restored and the folders it made removed again.

import { closeSync, mkdirSync, openSync, readFileSync, rmdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ScaffoldError, UsageError } from "../../errors.ts";
import { escapesTo, isInside } from "../../core/real-path.ts";

export interface ScaffoldFile {
  path: string;
  text: string;
  /** Created (must not exist), or changed in place (exists). */
  action: "created" | "updated";
}

/** `--dir` resolved against the workspace root; a folder outside the root is refused, with what to do. */
export function folderInWorkspace(command: string, root: string, flag: string, example: string): string {
  const dir = resolve(root, flag);
  const escape = isInside(root, dir) ? escapesTo(root, dir) : dir;
  if (escape !== undefined) {
    const where = escape === dir ? `resolves to ${dir}` : `leads to ${escape} through a symbolic link`;
    throw new UsageError(
      `${command}: --dir ${flag} ${where}, outside the workspace root ${root}; scaffolds are written inside the workspace only. ` +
        `Pick a folder inside it (e.g. --dir ${example}); nothing was written`,
    );
  }
  return dir;
}

type Done = { kind: "created"; path: string } | { kind: "updated"; path: string; original: Buffer } | { kind: "folder"; path: string };

function undo(done: readonly Done[]): string[] {
  const failures: string[] = [];
  for (const step of [...done].reverse()) {
    try {
      if (step.kind === "created") rmSync(step.path, { force: true });
      else if (step.kind === "updated") writeFileSync(step.path, step.original);
      else rmdirSync(step.path);
    } catch (error) {
      failures.push(`${step.path} (${(error as Error).message})`);
    }
  }
  return failures;
}

/** Folders `mkdirSync(dir, { recursive: true })` would make, outermost first. */
function missingFolders(dir: string, made: string | undefined): string[] {
  if (made === undefined) return [];
  const folders: string[] = [];
  for (let at = dir; isInside(made, at); at = dirname(at)) {
    folders.unshift(at);
    if (at === made) break;
  }
  return folders;
}

/** Refuses (ScaffoldError) when any of `files` is outside the workspace root, on its real path; writeScaffold checks it first too. */
export function checkInsideWorkspace(
  command: string,
  root: string,
  files: readonly Pick<ScaffoldFile, "path">[],
  shown: (path: string) => string,
): void {
  const outside = files.flatMap((file) => {
    const path = resolve(file.path);
    if (!isInside(root, path)) return [file.path];
    const escape = escapesTo(root, path);
    return escape === undefined ? [] : [`${shown(path)} (through a symbolic link, ${escape})`];
  });
  if (outside.length > 0) {
    throw new ScaffoldError(
      `${command}: refusing to write outside the workspace root ${root}: ${outside.join(", ")}. ` +
        "Scaffolds are written inside the workspace only; nothing was written",
    );
  }
}

/**
 * Writes `files` in order, all or nothing (see the header). `shown` prints a path for the user;
 * a failure is a ScaffoldError naming the file, why, that nothing was left written, and what to do.
 */
export function writeScaffold(command: string, root: string, files: readonly ScaffoldFile[], shown: (path: string) => string): void {
  checkInsideWorkspace(command, root, files, shown);
  const done: Done[] = [];
  for (const file of files) {
    try {
      const dir = dirname(file.path);
      for (const folder of missingFolders(dir, mkdirSync(dir, { recursive: true }))) done.push({ kind: "folder", path: folder });
      if (file.action === "updated") {
        done.push({ kind: "updated", path: file.path, original: readFileSync(file.path) });
        writeFileSync(file.path, file.text);
        continue;
      }
      const fd = openSync(file.path, "wx");
      done.push({ kind: "created", path: file.path });
      try {
        writeSync(fd, file.text);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "EEXIST" ? "a file or link of that name already exists" : (error as Error).message;
      const written = done.filter((step) => step.kind !== "folder").length;
      const failures = undo(done);
      const undone =
        failures.length > 0
          ? `could not undo: ${failures.join(", ")}`
          : written > 0
            ? `the ${written} file${written === 1 ? "" : "s"} written before it ${written === 1 ? "was" : "were"} removed or restored, so nothing was written`
            : "nothing was written";
      const fix = code === "EEXIST" ? "move it away" : "fix that";
      throw new ScaffoldError(
        `${command}: could not write ${shown(file.path)}: ${why}; ${undone}. ${fix[0]!.toUpperCase()}${fix.slice(1)} and run ${command} again`,
        { cause: error },
      );
    }
  }
}
