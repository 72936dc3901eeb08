// Finding the trailblaze-config/ folder: --config DIR, else $TRAILBLAZE_CONFIG_DIR,
// else the nearest trailblaze-config/ walking up from the working directory.

import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ConfigNotFoundError } from "../errors.ts";

export const CONFIG_DIR_NAME = "trailblaze-config";

export interface FindConfigDirOptions {
  /** `--config DIR`; relative to `cwd`. Wins over everything. */
  flag?: string | undefined;
  /** `$TRAILBLAZE_CONFIG_DIR`; relative to `cwd`. Ignored when empty. */
  env?: string | undefined;
  /** Working directory: where relative paths resolve and the upward search starts. */
  cwd: string;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function given(value: string, source: string, cwd: string): Promise<string> {
  const dir = resolve(cwd, value);
  if (await isDirectory(dir)) return dir;
  const what = (await exists(dir)) ? "is not a folder" : "does not exist";
  throw new ConfigNotFoundError(`${source} ${value}: ${dir} ${what}; point it at a ${CONFIG_DIR_NAME}/ folder (holding targets/ and toolsets/)`);
}

/** The nearest `trailblaze-config/` at or above `dir`, or undefined. */
async function nearestConfigDir(dir: string): Promise<string | undefined> {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const candidate = join(current, CONFIG_DIR_NAME);
    if (await isDirectory(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * The one config folder found walking up from the given files and folders (relative to `cwd`),
 * or undefined when there is none or they lead to different ones.
 */
export async function configDirAbove(paths: readonly string[], cwd: string): Promise<string | undefined> {
  const found = new Set<string | undefined>();
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    found.add(await nearestConfigDir((await isDirectory(absolute)) ? absolute : dirname(absolute)));
  }
  const [only] = found;
  return found.size === 1 ? only : undefined;
}

/** The absolute path of the config folder; throws ConfigNotFoundError (exit 2) when there is none. */
export async function findConfigDir(options: FindConfigDirOptions): Promise<string> {
  const { flag, env, cwd } = options;
  if (flag !== undefined) return given(flag, "--config", cwd);
  if (env !== undefined && env !== "") return given(env, "TRAILBLAZE_CONFIG_DIR", cwd);
  const found = await nearestConfigDir(cwd);
  if (found) return found;
  throw new ConfigNotFoundError(
    `no ${CONFIG_DIR_NAME}/ folder found from ${resolve(cwd)} upward; pass --config DIR or set TRAILBLAZE_CONFIG_DIR`,
  );
}
