// The packages a tool imports that trailblaze-ts supplies when the workspace does not install
// them: @trailblaze/scripting, the MCP SDK and zod. Upstream's workspaces are checked out without
// node_modules, and their tools import all three. A workspace's own installed copy always wins:
// ours is found only where Node's lookup (node_modules folders from the importer upwards) finds
// none. Ours live, as links, in `<workspace>/.cache/trailblaze-packages/node_modules`, a folder
// holding nothing else, used as esbuild's `nodePaths`, as NODE_PATH for host subprocesses and as
// the fallback of Bun's bundler.

import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { checkCacheFolder, PACKAGE_ROOT } from "../core/cache-files.ts";

const SUPPLIED_PACKAGES = ["@trailblaze/scripting", "@modelcontextprotocol/sdk", "zod"] as const;

/** A bare import of one of the supplied packages or a subpath of it. */
export const SUPPLIED_IMPORT = /^(?:@trailblaze\/scripting|@modelcontextprotocol\/sdk|zod)(?:\/.*)?$/;

/** The package a bare import names: `@modelcontextprotocol/sdk/server/mcp.js` → `@modelcontextprotocol/sdk`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The folder Node's lookup finds `name` in, from `dir` upwards; undefined when none has it. */
function installedFrom(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** Folders this process has made (or checked) already, by workspace root. */
const made = new Set<string>();

const suppliedFolder = (root: string) => join(root, ".cache", "trailblaze-packages", "node_modules");

/**
 * Refuses (UsageError) the folders suppliedNodePath replaces links in when a link carries one out
 * of `.cache` (checkCacheFolder); for a build to call before starting, so the refusal is not
 * reported as the build's failure.
 */
export function checkSuppliedFolders(root: string): void {
  const folder = suppliedFolder(root);
  for (const name of SUPPLIED_PACKAGES) checkCacheFolder(dirname(join(folder, name)));
}

/** The folder holding links to this package's own copies of the supplied packages, made (once per process) on first use. */
export function suppliedNodePath(root: string): string {
  const folder = suppliedFolder(root);
  if (made.has(folder)) return folder;
  checkSuppliedFolders(root);
  for (const { name, dir } of ownCopies()) {
    const link = join(folder, name);
    if (linksTo(link, dir)) continue;
    mkdirSync(dirname(link), { recursive: true });
    // Made beside the link and renamed over it: a concurrent session never sees it missing.
    const temporary = `${link}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    symlinkSync(dir, temporary, "dir");
    renameSync(temporary, link);
  }
  made.add(folder);
  return folder;
}

function linksTo(link: string, target: string): boolean {
  try {
    if (!lstatSync(link).isSymbolicLink()) {
      rmSync(link, { recursive: true, force: true });
      return false;
    }
    return realpathSync(link) === realpathSync(target);
  } catch {
    return false;
  }
}

let ours: { name: string; dir: string; version: string }[] | undefined;

/** This package's own copies of the supplied packages: real folders and versions. */
function ownCopies(): { name: string; dir: string; version: string }[] {
  ours ??= SUPPLIED_PACKAGES.flatMap((name) => {
    const dir = installedFrom(name, PACKAGE_ROOT);
    if (dir === undefined) return [];
    const real = realpathSync(dir);
    const { version } = JSON.parse(readFileSync(join(real, "package.json"), "utf8")) as { version: string };
    return [{ name, dir: real, version }];
  });
  return ours;
}

/** `name version` of each of our supplied packages some of `inputs` (absolute paths a build read) belong to. */
export function suppliedIn(inputs: readonly string[]): string[] {
  return ownCopies()
    .filter(({ dir }) => inputs.some((input) => input.startsWith(dir + sep)))
    .map(({ name, version }) => `${name} ${version}`);
}

/** Packages a note already named, in this process. */
const noted = new Set<string>();

/**
 * The note for a build that used supplied packages the workspace of `script` does not install,
 * naming each package once per process; undefined when there is nothing new to say.
 */
export function suppliedNote(script: string, supplied: readonly string[]): string | undefined {
  const missing = supplied
    .filter((entry) => !noted.has(entry) && installedFrom(entry.split(" ")[0]!, dirname(script)) === undefined)
    .sort();
  if (missing.length === 0) return undefined;
  for (const entry of missing) noted.add(entry);
  return (
    `this workspace does not install ${missing.map((entry) => entry.split(" ")[0]).join(", ")}, which its tools import: ` +
    `trailblaze-ts supplies its own (${missing.join(", ")}); install them in the workspace to choose the versions`
  );
}

/**
 * Where Bun resolves `specifier`, imported by `importer`, to our copy in `folder` (see
 * suppliedNodePath): for a supplied package its importer's folders do not install; undefined otherwise.
 */
export function resolveSupplied(specifier: string, importer: string, folder: string): string | undefined {
  if (!SUPPLIED_IMPORT.test(specifier) || installedFrom(packageOf(specifier), dirname(importer)) !== undefined) return undefined;
  try {
    return Bun.resolveSync(specifier, folder);
  } catch {
    return undefined;
  }
}

/**
 * Where Bun's bundler finds `specifier` imported by `importer`: the installed copy Node's lookup
 * finds from the importer, else ours for a supplied package (in `folder`, see suppliedNodePath);
 * undefined when there is neither. Never Bun's auto-install: a bun started without --no-install
 * resolves a package no node_modules folder above the importer holds into its global cache
 * (~/.bun/install/cache/<name>@<version>/…), a file the bundler itself never uses.
 */
export function resolveForBundler(specifier: string, importer: string, folder: string): string | undefined {
  const from = dirname(importer);
  const bare = !/^(?:\.{1,2}(?:\/|$)|\/)/.test(specifier);
  if (bare && installedFrom(packageOf(specifier), from) === undefined) return resolveSupplied(specifier, importer, folder);
  try {
    return Bun.resolveSync(specifier, from);
  } catch {
    return undefined;
  }
}

/** For Bun's bundler (precompiled host servers): supplied packages, as esbuild's nodePaths gives them to the other builds. */
export function suppliedPackagesBunPlugin(root: string): Bun.BunPlugin {
  return {
    name: "trailblaze-supplied-packages",
    setup(build) {
      build.onResolve({ filter: SUPPLIED_IMPORT }, (args) => {
        const path = args.importer ? resolveSupplied(args.path, args.importer, suppliedNodePath(root)) : undefined;
        return path === undefined ? undefined : { path };
      });
    },
  };
}
