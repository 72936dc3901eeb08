// Finds the program that runs an author's .ts MCP server: bun if on PATH, else node with tsx; cached per process.

import { access, constants, readFile, realpath, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeNotFoundError } from "../../errors.ts";

// The hint for a server that died because its packages are missing depends on the runtime's output.
export { explainStartupFailure } from "./startup-failure.ts";

type RuntimeKind = "bun" | "node";

/** How to run a TypeScript MCP server file. */
export interface Runtime {
  readonly kind: RuntimeKind;
  /** Absolute path of the executable found on PATH (or the bun running this process). */
  readonly command: string;
  /** True when node + tsx runs the servers because no bun was found: slower, worth a note. */
  readonly fellBack?: boolean;
  /** Arguments that make `command` run `script` (resolved to an absolute path). */
  /** `preload`: a module bun loads before the script (ignored by node). */
  argsFor(script: string, preload?: string): string[];
}

interface DetectRuntimeOptions {
  /**
   * Where `tsx` is resolved from first when falling back to node: a directory or file.
   * Default: this package's own location, so the tsx installed next to trailblaze-ts is found
   * from any working directory. `tsx` on PATH is tried after it.
   */
  resolveTsxFrom?: string;
  /**
   * The bun executable running this process, used when no bun is on PATH. Default
   * `process.execPath` under Bun, else none; `null` turns it off (tests of the PATH search).
   */
  runningBun?: string | null;
}

const NO_RUNTIME_MESSAGE = "No compatible TypeScript runtime found on PATH. Install bun (https://bun.sh) or Node with tsx.";

const cache = new Map<string, Promise<Runtime>>();

/**
 * Picks the runtime for TypeScript MCP servers, in this order:
 * 1. `bun` on PATH, else the bun running this process → `bun run --no-install --no-orphans <file>` (`--no-install`: a missing package
 *    is an error, never a silent download; authors run their own `bun install`. `--no-orphans`: the
 *    server exits when its parent dies, even by SIGKILL, and takes its own children with it).
 * 2. `node` on PATH with a resolvable `tsx` → `node --import <tsx loader URL> <file>`.
 * 3. Otherwise a {@link RuntimeNotFoundError}.
 *
 * `TRAILBLAZE_RUNTIME=bun|node` in `env` forces one of the two (and errors if it is not usable);
 * unset or empty means automatic. The answer is cached per process, keyed by PATH, the override and
 * `options.resolveTsxFrom`; failures are not cached.
 */
export function detectRuntime(env: Record<string, string | undefined>, options: DetectRuntimeOptions = {}): Promise<Runtime> {
  const path = env.PATH ?? "";
  const forced = env.TRAILBLAZE_RUNTIME ?? "";
  const tsxFrom = options.resolveTsxFrom ?? import.meta.dirname;
  const runningBun = options.runningBun === undefined ? (typeof Bun === "undefined" ? null : process.execPath) : options.runningBun;
  const key = JSON.stringify([path, forced, tsxFrom, runningBun]);
  let found = cache.get(key);
  if (!found) {
    found = detect(path, forced, tsxFrom, runningBun);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

async function detect(path: string, forced: string, tsxFrom: string, runningBun: string | null): Promise<Runtime> {
  if (forced !== "" && forced !== "bun" && forced !== "node") {
    throw new RuntimeNotFoundError(`TRAILBLAZE_RUNTIME must be "bun" or "node" (or unset), got "${forced}"`);
  }
  if (forced !== "node") {
    const bun = (await findOnPath("bun", path)) ?? runningBun;
    if (bun) return bunRuntime(bun);
    if (forced === "bun") {
      throw new RuntimeNotFoundError(
        `TRAILBLAZE_RUNTIME=bun but bun was not found on PATH (and this process does not run under bun). Install bun (https://bun.sh) or unset TRAILBLAZE_RUNTIME.`,
      );
    }
  }
  const node = await findOnPath("node", path);
  if (!node) {
    if (forced === "node") {
      throw new RuntimeNotFoundError(
        `TRAILBLAZE_RUNTIME=node but node was not found on PATH. Install Node (https://nodejs.org) or unset TRAILBLAZE_RUNTIME.`,
      );
    }
    throw new RuntimeNotFoundError(NO_RUNTIME_MESSAGE);
  }
  const loader = (await tsxNextTo(tsxFrom)) ?? (await tsxOnPath(path));
  if (!loader) {
    throw new RuntimeNotFoundError(
      `Found node at ${node} but no TypeScript loader: tsx is neither installed next to trailblaze-ts nor on PATH. ` +
        `Install it with \`npm install -g tsx\`, or install bun (https://bun.sh).`,
    );
  }
  return nodeRuntime(node, pathToFileURL(loader).href, forced !== "node");
}

function bunRuntime(command: string): Runtime {
  return {
    kind: "bun",
    command,
    argsFor: (script, preload) => ["run", "--no-install", "--no-orphans", ...(preload ? ["--preload", preload] : []), resolve(script)],
  };
}

function nodeRuntime(command: string, loaderUrl: string, fellBack: boolean): Runtime {
  return { kind: "node", command, fellBack, argsFor: (script) => ["--import", loaderUrl, resolve(script)] };
}

/** Absolute path of an executable regular file called `name` in one of PATH's directories. */
export async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = resolve(dir, name);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** tsx's ESM loader (`tsx/dist/loader.mjs`) as resolved from `from`, if installed there. */
async function tsxNextTo(from: string): Promise<string | undefined> {
  try {
    const base = (await stat(from)).isDirectory() ? join(from, "noop.js") : from;
    return createRequire(base).resolve("tsx");
  } catch {
    return undefined;
  }
}

/** tsx's loader for a `tsx` executable on PATH (a symlink into a tsx package, as npm -g installs it). */
async function tsxOnPath(path: string): Promise<string | undefined> {
  const bin = await findOnPath("tsx", path);
  if (!bin) return undefined;
  let dir = dirname(await realpath(bin));
  for (let depth = 0; depth < 4; depth++) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (manifest.name === "tsx") return createRequire(join(dir, "noop.js")).resolve("tsx");
    } catch {
      // no manifest here
    }
    dir = dirname(dir);
  }
  return undefined;
}
