// The workspace root above a working directory, found from the file system alone (no YAML read):
// where the CLI keeps `.cache/` and writes its default outputs (the HTML report folder) whichever
// folder of the workspace it runs from, as sessions keep `logs/` there (core/log-layout.ts). The
// same folders mark a root as for the config folder (config-dir.ts): `trailblaze-config/`, or
// upstream's `trails/config/trailblaze.yaml`.

import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ANCHOR_FILE, CONFIG_DIR_NAME } from "./config-dir.ts";

const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** The nearest folder at or above `cwd` holding `trailblaze-config/` or `trails/config/trailblaze.yaml`; undefined outside any workspace. */
export function workspaceRootAbove(cwd: string): string | undefined {
  for (let at = resolve(cwd); ; at = dirname(at)) {
    if (isDirectory(join(at, CONFIG_DIR_NAME)) || isFile(join(at, "trails", "config", ANCHOR_FILE))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** The folder whose `.cache/` and default outputs a command run from `cwd` uses: the workspace root, else `cwd` itself. */
export function outputRoot(cwd: string): string {
  return workspaceRootAbove(cwd) ?? resolve(cwd);
}

/**
 * For a command about one file (`bundle`, `check-bundle`): the root of the workspace the file is
 * in, as `run` takes the workspace from the trails it is given; else `outputRoot(cwd)`.
 */
export function outputRootOf(file: string, cwd: string): string {
  return workspaceRootAbove(dirname(resolve(cwd, file))) ?? outputRoot(cwd);
}
