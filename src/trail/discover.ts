// Turns the paths given to `run` and `check` into trail files, by upstream's rules (its
// TrailDiscovery and `trailblaze run`, as docs/cli.md "Which files a folder runs" gives them):
// files pass as given; a folder is walked for the trail file names (exact, case-sensitive),
// pruning six folder names at any depth and following no link inside it. `check` takes every
// file found; `run` takes, per folder, every named unified trail and one pick among the rest
// (legacy device recording for the run's device, else trail.yaml, else blaze.yaml).

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { findDriver } from "../core/drivers.ts";
import { CLASSIFIER_DRIVERS } from "./select-recording.ts";

/** The unified trail file: one per trail folder, its identity that folder. */
const UNIFIED_TRAIL_FILE = "trail.yaml";
/** Legacy natural-language-only trail definitions, in the order a folder's pick tries them. */
const NL_DEFINITION_FILES: readonly string[] = ["blaze.yaml", "trailblaze.yaml"];
const TRAIL_SUFFIX = ".trail.yaml";

/** Folder names never searched below a folder given to `run` or `check` (a folder given by name is). */
const EXCLUDED_DIRS: ReadonlySet<string> = new Set(["build", ".gradle", ".git", "node_modules", ".trailblaze", ".claude"]);

/**
 * Folders whose `trailblaze.yaml` is workspace config, not a legacy trail: upstream's `config/`
 * (any, as its `run` has it) and our own `trailblaze-config/`.
 */
const CONFIG_DIRS: ReadonlySet<string> = new Set(["config", "trailblaze-config"]);

/** True for the names a folder search picks up: `trail.yaml`, `*.trail.yaml`, `blaze.yaml`, `trailblaze.yaml` (exact case). */
export function isTrailFileName(name: string): boolean {
  return name === UNIFIED_TRAIL_FILE || NL_DEFINITION_FILES.includes(name) || name.endsWith(TRAIL_SUFFIX);
}

/** A legacy per-device recording name (`android-phone.trail.yaml`): not the unified file, not an NL definition. */
function isRecordingName(name: string): boolean {
  return name.endsWith(TRAIL_SUFFIX) && name !== UNIFIED_TRAIL_FILE && !NL_DEFINITION_FILES.includes(name);
}

/** UTF-16 order, as upstream sorts paths (Kotlin's String order), independent of locale. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Walked {
  /** Trail files below the folder, absolute, in the folder's own path frame (a link given as the folder stays one). */
  files: string[];
  /** Folders below it that could not be read. */
  unreadable: string[];
}

async function walk(dir: string, isRoot: boolean, out: Walked): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isRoot) throw error;
    out.unreadable.push(dir);
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // A Dirent of a link is neither a file nor a folder: links inside the walk are not followed.
    if (entry.isDirectory()) {
      if (!EXCLUDED_DIRS.has(entry.name)) await walk(path, false, out);
    } else if (entry.isFile() && isTrailFileName(entry.name)) {
      if (entry.name === "trailblaze.yaml" && CONFIG_DIRS.has(basename(dir))) continue;
      out.files.push(path);
    }
  }
}

/** One path given to `run` or `check`: a file as given, or a folder and the trail files under it. */
type Given = { path: string; file: true } | { path: string; file: false; absolute: string; walked: Walked };

async function walkPaths(paths: readonly string[], cwd: string): Promise<Given[]> {
  const problems: ConfigProblem[] = [];
  const given: Given[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      problems.push({ file: path, line: 0, col: 0, path: "", message: `no such file or folder (resolved against ${cwd})` });
      continue;
    }
    if (!info.isDirectory()) {
      given.push({ path, file: true });
      continue;
    }
    const walked: Walked = { files: [], unreadable: [] };
    await walk(absolute, true, walked);
    if (walked.files.length === 0) {
      problems.push({
        file: path,
        line: 0,
        col: 0,
        path: "",
        message: `folder holds no trail files (trail.yaml, *.trail.yaml, blaze.yaml; not searched: ${[...EXCLUDED_DIRS].map((d) => `${d}/`).join(", ")})`,
      });
      continue;
    }
    given.push({ path, file: false, absolute, walked });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return given;
}

/** `files` (absolute, under `folder`) sorted and joined onto the folder as given (`trails` → `trails/login/trail.yaml`). */
function asGiven(path: string, folder: string, files: readonly string[]): string[] {
  const rel = files.map((f) => relative(folder, f).split(sep).join("/")).sort(byText);
  return rel.map((r) => (path === "." ? r : `${path.replace(/[\\/]+$/, "")}/${r}`));
}

function withoutDuplicates(files: readonly string[], cwd: string): string[] {
  const seen = new Set<string>();
  return files.filter((f) => {
    const key = resolve(cwd, f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Every trail file `paths` (relative to `cwd`) name, as `check` validates them: files as given,
 * folders expanded to all their trail files (sorted; excluded folders pruned; links inside not
 * followed), joined onto the path as given. Duplicates are dropped. Missing paths and folders
 * without trail files are reported together in a ConfigError.
 */
export async function discoverTrails(paths: string[], cwd: string): Promise<string[]> {
  const found = (await walkPaths(paths, cwd)).flatMap((g) => (g.file ? [g.path] : asGiven(g.path, g.absolute, g.walked.files)));
  return withoutDuplicates(found, cwd);
}

/**
 * The device classifiers a run's folders pick legacy recordings for, most general first (upstream
 * resolves these from the device: `[ios, iphone]`). This runtime simulates the device, so it knows
 * the platform only: one `--device`'s platform, else `--driver`'s (`desktop` for compose); none for
 * several devices (each then runs the same pick, as upstream plans a fan-out) or when neither is given.
 */
export function runClassifiers(options: { devices?: readonly string[] | undefined; driver?: string | undefined }): string[] {
  const { devices, driver } = options;
  if (devices !== undefined) return devices.length === 1 ? [devices[0]!.split("/")[0]!.toLowerCase()] : [];
  if (driver === undefined) return [];
  const info = findDriver(driver);
  if (!info) return [];
  return [Object.entries(CLASSIFIER_DRIVERS).find(([, key]) => key === info.key)?.[0] ?? info.platform.toLowerCase()];
}

/** The file a folder's legacy trail runs, and whether it is a fallback that matched nothing. */
interface LegacyPick {
  file: string;
  /** True when no name matched: the first file by name runs. */
  fallback: boolean;
}

/**
 * One file of a folder's legacy trail (its per-device recordings, `trail.yaml`, `blaze.yaml`,
 * `trailblaze.yaml`; `names` is not empty), as upstream picks it: the most specific recording named
 * for `classifiers` (`android-phone.trail.yaml`, then `android.trail.yaml`), else `trail.yaml`, else
 * `blaze.yaml`, else `trailblaze.yaml`. When that is an NL definition and a device is known, a
 * recording whose name starts with the platform (`android-…`) wins, longest name first. When nothing
 * matches, the first name.
 */
export function pickLegacyTrail(names: readonly string[], classifiers: readonly string[]): LegacyPick {
  const candidates: string[] = [];
  for (let n = classifiers.length; n >= 1; n--) candidates.push(`${classifiers.slice(0, n).join("-")}${TRAIL_SUFFIX}`);
  candidates.push(UNIFIED_TRAIL_FILE, ...NL_DEFINITION_FILES);
  const picked = candidates.find((name) => names.includes(name));
  if (picked !== undefined && classifiers.length > 0 && NL_DEFINITION_FILES.includes(picked)) {
    const prefix = `${classifiers[0]}-`;
    const recording = names
      .filter((name) => isRecordingName(name) && name.startsWith(prefix))
      .sort((a, b) => b.length - a.length || byText(a, b))[0];
    if (recording !== undefined) return { file: recording, fallback: false };
  }
  if (picked !== undefined) return { file: picked, fallback: false };
  return { file: [...names].sort(byText)[0]!, fallback: true };
}

/**
 * A named unified trail (`checkout.trail.yaml` holding a root `trail:` key, as upstream tells them
 * apart: by a line starting `trail:`), which runs whatever else its folder holds. `trail.yaml` and
 * NL definitions never are; a legacy recording is a list and never has that line; an unreadable
 * file counts as legacy.
 */
async function isNamedUnifiedTrail(path: string): Promise<boolean> {
  const name = basename(path);
  if (name === UNIFIED_TRAIL_FILE || NL_DEFINITION_FILES.includes(name)) return false;
  try {
    return /^trail:/m.test(await readFile(path, "utf8"));
  } catch {
    return false;
  }
}

interface TrailsToRun {
  files: string[];
  /** One line each (no `warning: ` prefix): a folder whose pick ignored the device or left files out, a folder that could not be read. */
  warnings: string[];
}

/**
 * The trails `run` runs for `paths` (relative to `cwd`): files as given; each folder (walked as
 * `discoverTrails` walks it) expanded, per folder holding trail files, to every named unified trail
 * plus one pick among the rest (pickLegacyTrail, for `classifiers`: see runClassifiers). Sorted per
 * path given, joined onto it, duplicates dropped; the same ConfigError as `discoverTrails`.
 */
export async function trailsToRun(paths: string[], cwd: string, classifiers: readonly string[] = []): Promise<TrailsToRun> {
  const warnings: string[] = [];
  const found: string[] = [];
  const device = classifiers.length > 0 ? ` (${classifiers.join("-")})` : "";
  for (const given of await walkPaths(paths, cwd)) {
    if (given.file) {
      found.push(given.path);
      continue;
    }
    const shown = (absolute: string) => asGiven(given.path, given.absolute, [absolute])[0]!;
    for (const dir of given.walked.unreadable) warnings.push(`${shown(dir)}: cannot be read; its trails are left out`);
    const byFolder = new Map<string, string[]>();
    for (const file of given.walked.files) byFolder.set(dirname(file), [...(byFolder.get(dirname(file)) ?? []), file]);
    const chosen: string[] = [];
    for (const [dir, files] of byFolder) {
      const legacy: string[] = [];
      for (const file of files) ((await isNamedUnifiedTrail(file)) ? chosen : legacy).push(file);
      if (legacy.length === 0) continue;
      const names = legacy.map((file) => basename(file));
      const pick = pickLegacyTrail(names, classifiers);
      chosen.push(join(dir, pick.file));
      if (!pick.fallback) continue;
      const folder = dir === given.absolute ? given.path : shown(dir);
      const others = names.filter((name) => name !== pick.file).sort(byText);
      if (others.length > 0) {
        const unnamed = classifiers.length > 0 ? `, none named for this run's device${device},` : "";
        warnings.push(
          `${folder}: ${names.length} legacy recordings${unnamed} and no trail.yaml or blaze.yaml; ` +
            `running ${pick.file}, leaving out ${others.join(", ")}. Pass --device <platform> (e.g. --device android) to pick one`,
        );
      } else if (classifiers.length > 0) {
        warnings.push(
          `${folder}: ${pick.file} is not named for this run's device${device} and there is no trail.yaml or blaze.yaml; running it all the same`,
        );
      }
    }
    found.push(...asGiven(given.path, given.absolute, chosen));
  }
  return { files: withoutDuplicates(found, cwd), warnings };
}
