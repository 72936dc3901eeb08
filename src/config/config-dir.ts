// Finding the config folder: --config DIR, else $TRAILBLAZE_CONFIG_DIR, else the nearest one
// walking up from the working directory. Two layouts are accepted: our `trailblaze-config/`
// (targets/, toolsets/) and upstream's `trails/config/` anchored by `trailblaze.yaml`.

import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigNotFoundError } from "../errors.ts";

export const CONFIG_DIR_NAME = "trailblaze-config";
/** Upstream's workspace anchor: `<root>/trails/config/trailblaze.yaml`. */
export const ANCHOR_FILE = "trailblaze.yaml";
const TRAILS_CONFIG = ["trails", "config"] as const;

/**
 * `trailblaze-config`: our folder (targets/, toolsets/); its parent is the workspace root.
 * `trails-config`: a folder holding `trailblaze.yaml` (upstream's `trails/config/`), which also
 * loads trailmaps/; the workspace root is the folder holding `trails/`.
 */
export type ConfigLayout = "trailblaze-config" | "trails-config";

interface FindConfigDirOptions {
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

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
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

/** The layout of a config folder: `trails-config` when it holds `trailblaze.yaml`. */
export async function configLayout(configDir: string): Promise<ConfigLayout> {
  return (await isFile(join(configDir, ANCHOR_FILE))) ? "trails-config" : "trailblaze-config";
}

/**
 * The workspace root of a config folder: the folder holding `trailblaze-config/`, or for
 * `<root>/trails/config` the folder holding `trails/`. Relative `script:`, `bundle:`, `cwd:` and
 * `simulation:` paths resolve against it.
 */
export function rootOfConfigDir(configDir: string, layout: ConfigLayout): string {
  const parent = dirname(configDir);
  if (layout === "trails-config" && basename(configDir) === TRAILS_CONFIG[1] && basename(parent) === TRAILS_CONFIG[0])
    return dirname(parent);
  return parent;
}

/**
 * The config folder directly at workspace root `dir`, or undefined. At the same level
 * `trailblaze-config/` wins over `trails/config/trailblaze.yaml` (the workspace warns that the
 * other is not loaded; `--config trails/config` picks it).
 */
async function configDirAt(dir: string): Promise<string | undefined> {
  const ours = join(dir, CONFIG_DIR_NAME);
  if (await isDirectory(ours)) return ours;
  const upstream = join(dir, ...TRAILS_CONFIG);
  if (await isFile(join(upstream, ANCHOR_FILE))) return upstream;
  return undefined;
}

/** The `trails/config/trailblaze.yaml` beside a `trailblaze-config/` folder, if there is one (it is not loaded). */
export async function shadowedAnchor(configDir: string, layout: ConfigLayout): Promise<string | undefined> {
  if (layout !== "trailblaze-config") return undefined;
  const anchor = join(dirname(configDir), ...TRAILS_CONFIG, ANCHOR_FILE);
  return (await isFile(anchor)) ? anchor : undefined;
}

async function given(value: string, source: string, cwd: string): Promise<string> {
  const path = resolve(cwd, value);
  if (basename(path) === ANCHOR_FILE && (await isFile(path))) return dirname(path);
  if (await isDirectory(path)) {
    // A workspace root (nothing of a config folder in it, one below it) stands for its config folder.
    const own = await Promise.all(["targets", "toolsets", ANCHOR_FILE].map((name) => exists(join(path, name))));
    if (!own.includes(true)) return (await configDirAt(path)) ?? path;
    return path;
  }
  const what = (await exists(path)) ? "is not a folder" : "does not exist";
  throw new ConfigNotFoundError(
    `${source} ${value}: ${path} ${what}; point it at a ${CONFIG_DIR_NAME}/ folder (holding targets/ and toolsets/) ` +
      `or a trails/config/ folder (holding ${ANCHOR_FILE})`,
  );
}

/** The nearest config folder at or above `dir`, or undefined. */
async function nearestConfigDir(dir: string): Promise<string | undefined> {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const found = await configDirAt(current);
    if (found) return found;
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
    `no ${CONFIG_DIR_NAME}/ folder or trails/config/${ANCHOR_FILE} found from ${resolve(cwd)} upward; run \`trailblaze init\` here to make one, or pass --config DIR (or set TRAILBLAZE_CONFIG_DIR) for one elsewhere`,
  );
}
