// What `trailblaze check` looks at, taken as upstream's `check` takes it: `--workspace DIR` (the
// workspace root, or its trails/config/), a trailmap id, `--all`, and otherwise the trailmap the
// working directory is in; besides those, our trail files and folders.

import { realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { didYouMean } from "../core/did-you-mean.ts";
import { ANCHOR_FILE, CONFIG_DIR_NAME, configLayout, findConfigDir } from "../config/config-dir.ts";
import { foldersIn } from "../config/config-files.ts";
import { TRAILMAP_FILE } from "../config/trailmap-file.ts";
import { ConfigNotFoundError, UsageError } from "../errors.ts";

interface CheckScopeInput {
  /** The command's positionals: trail files and folders, or one trailmap id. */
  positionals: readonly string[];
  /** `--workspace DIR`. */
  workspace?: string | undefined;
  /** `--config DIR`. */
  config?: string | undefined;
  /** `--all`: every trailmap, even from inside one. */
  all?: boolean | undefined;
  /** `--target ID`. */
  target?: string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The trailmap a check is limited to, and how it was chosen. */
interface TrailmapScope {
  id: string;
  /** `argument`: named on the command line; `cwd`: the working directory is inside it. */
  from: "argument" | "cwd";
}

interface CheckScope {
  /** The config folder; undefined when trail paths were given and it is to be found from them. */
  configDir?: string;
  /** Trail files and folders to check (none: every trail of the workspace). */
  paths: string[];
  trailmap?: TrailmapScope;
  /** Lines for stderr, e.g. which workspace below the working directory holds the trailmap named. */
  notes: string[];
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/**
 * A positional that can only be a trailmap id, upstream's `<trailmap-id>`: one folder name under
 * trailmaps/ (no separator, not `.`/`..`, no leading dot) that is not a trail file's name.
 */
function isTrailmapIdShaped(text: string): boolean {
  return text.trim() !== "" && !/[\\/]/.test(text) && !text.startsWith(".") && !/\.ya?ml$/i.test(text);
}

/** The trailmaps of a config folder (upstream's layout only): the folders of `<configDir>/trailmaps/` holding trailmap.yaml. */
async function trailmapsOf(configDir: string): Promise<string[]> {
  if ((await configLayout(configDir)) !== "trails-config") return [];
  const dir = join(configDir, "trailmaps");
  const ids: string[] = [];
  for (const id of await foldersIn(dir)) if (await isFile(join(dir, id, TRAILMAP_FILE))) ids.push(id);
  return ids;
}

/**
 * `--workspace DIR` as a config folder: DIR is the workspace root (holding trails/config/trailblaze.yaml,
 * or our trailblaze-config/), or the config folder itself (upstream's READMEs write both). Throws
 * ConfigNotFoundError (exit 2) when DIR is neither.
 */
async function workspaceConfigDir(dir: string, cwd: string): Promise<string> {
  const path = resolve(cwd, dir);
  if (!(await isDirectory(path))) {
    const what = (await exists(path)) ? "is not a folder" : "does not exist";
    throw new ConfigNotFoundError(
      `check: --workspace ${dir}: ${path} ${what}; pass the workspace root (the folder holding trails/) or its trails/config/`,
    );
  }
  const markers = [ANCHOR_FILE, "targets", "toolsets", CONFIG_DIR_NAME, join("trails", "config", ANCHOR_FILE)];
  const found = await Promise.all(markers.map((name) => exists(join(path, name))));
  if (!found.includes(true)) {
    throw new ConfigNotFoundError(
      `check: --workspace ${dir}: ${path} holds neither trails/config/${ANCHOR_FILE} nor ${CONFIG_DIR_NAME}/; ` +
        "pass the workspace root (the folder holding trails/) or its trails/config/",
    );
  }
  return findConfigDir({ flag: path, cwd });
}

/** The trailmap whose folder (`<configDir>/trailmaps/<id>/`, holding trailmap.yaml) holds `cwd`, if any. */
async function enclosingTrailmap(configDir: string, cwd: string): Promise<string | undefined> {
  if ((await configLayout(configDir)) !== "trails-config") return undefined;
  const real = async (path: string) => realpath(path).catch(() => resolve(path));
  const trailmaps = await real(join(configDir, "trailmaps"));
  const here = await real(cwd);
  if (!here.startsWith(trailmaps + sep)) return undefined;
  const id = here.slice(trailmaps.length + 1).split(sep)[0]!;
  return (await isFile(join(trailmaps, id, TRAILMAP_FILE))) ? id : undefined;
}

/**
 * Upstream's look-up from outside any workspace: the workspaces `examples/<name>/` below `cwd`
 * whose trails/config/trailmaps/<id>/ holds trailmap.yaml (their config folders).
 */
async function examplesHolding(id: string, cwd: string): Promise<string[]> {
  const examples = join(resolve(cwd), "examples");
  const found: string[] = [];
  for (const name of await foldersIn(examples)) {
    const configDir = join(examples, name, "trails", "config");
    if (await isFile(join(configDir, "trailmaps", id, TRAILMAP_FILE))) found.push(configDir);
  }
  return found;
}

/** The config folder found without the positionals (--workspace, --config, the environment, the working directory), if any. */
async function baseConfigDir(input: CheckScopeInput): Promise<string | undefined> {
  if (input.workspace !== undefined) return workspaceConfigDir(input.workspace, input.cwd);
  try {
    return await findConfigDir({ flag: input.config, env: input.env.TRAILBLAZE_CONFIG_DIR, cwd: input.cwd });
  } catch (error) {
    // Named but wrong: said now. None above the working directory: the paths may lead to one.
    if (!(error instanceof ConfigNotFoundError) || input.config !== undefined || input.env.TRAILBLAZE_CONFIG_DIR) throw error;
    return undefined;
  }
}

/**
 * Resolves what to check. A positional shaped like a trailmap id that names a trailmap of the
 * workspace is one (a folder of that name is then written `./name`); any other positional is a trail
 * file or folder. Throws UsageError (exit 2) for contradicting choices and ConfigNotFoundError
 * (exit 2) for a workspace or trailmap that is not there.
 */
export async function resolveCheckScope(input: CheckScopeInput): Promise<CheckScope> {
  const { cwd } = input;
  if (input.workspace !== undefined && input.config !== undefined) {
    throw new UsageError(
      "check: --workspace and --config both name the workspace; keep one (--workspace takes the workspace root or its trails/config/)",
    );
  }
  const base = await baseConfigDir(input);
  const known = base === undefined ? [] : await trailmapsOf(base);
  const ids: string[] = [];
  const paths: string[] = [];
  for (const positional of input.positionals) {
    const idShaped = isTrailmapIdShaped(positional);
    if (idShaped && known.includes(positional)) ids.push(positional);
    else if (await exists(resolve(cwd, positional))) paths.push(positional);
    else if (idShaped && base === undefined)
      ids.push(positional); // looked for below the working directory
    else if (idShaped && known.length > 0) {
      throw new UsageError(
        `check: ${positional} is neither a trail file or folder nor a trailmap of ${shown(base!, cwd)} ` +
          `(its trailmaps: ${known.join(", ")})${didYouMean(positional, known)}`,
      );
    } else paths.push(positional); // reported by the trail discovery, as a path that is not there
  }
  if (ids.length > 1) throw new UsageError(`check: one trailmap at a time (got ${ids.join(", ")}); --all checks every trailmap`);
  const id = ids[0];
  if (id !== undefined && input.all)
    throw new UsageError("check: --all and <trailmap-id> are mutually exclusive: --all checks every trailmap, an id one of them");
  if (id !== undefined && paths.length > 0) {
    throw new UsageError(`check: give a trailmap id or trail files and folders, not both (got trailmap ${id} and ${paths.join(", ")})`);
  }
  if (input.target !== undefined && (id !== undefined || input.all)) {
    throw new UsageError(`check: --target and ${id !== undefined ? `trailmap ${id}` : "--all"} both choose what to check; keep one`);
  }

  if (id !== undefined) {
    if (base !== undefined) return { configDir: base, paths: [], trailmap: { id, from: "argument" }, notes: [] };
    const found = await examplesHolding(id, cwd);
    if (found.length === 0) {
      throw new ConfigNotFoundError(
        `check: ${id} is not a trail file or folder, and no workspace has a trailmap of that name: no ${CONFIG_DIR_NAME}/ folder or ` +
          `trails/config/${ANCHOR_FILE} found from ${resolve(cwd)} upward, and no examples/*/trails/config/trailmaps/${id}/${TRAILMAP_FILE} below it; ` +
          "run check inside a workspace, or pass --workspace DIR",
      );
    }
    if (found.length > 1) {
      throw new UsageError(
        `check: trailmap ${id} is in several workspaces: ${found.map((dir) => shown(dir, cwd)).join(", ")}; pass --workspace DIR to pick one`,
      );
    }
    const configDir = found[0]!;
    return {
      configDir,
      paths: [],
      trailmap: { id, from: "argument" },
      notes: [`note: using ${shown(configDir, cwd)}, the workspace below the working directory with trailmap ${id}`],
    };
  }
  if (paths.length > 0) return { ...(input.workspace !== undefined ? { configDir: base } : {}), paths, notes: [] };
  if (base === undefined) return { paths: [], notes: [] };
  const here = input.all || input.target !== undefined ? undefined : await enclosingTrailmap(base, cwd);
  return { configDir: base, paths: [], ...(here !== undefined ? { trailmap: { id: here, from: "cwd" as const } } : {}), notes: [] };
}
