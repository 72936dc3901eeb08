// A content-addressed cache for built files: a manifest per (entry, build settings) lists every
// input file the build read and a hash of their contents; the build is reused while that hash
// still matches. Shared by the on-device bundles and the precompiled host servers.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { writeAtomically } from "../core/cache-files.ts";

export interface CacheEntry {
  /** Where the build's main output lives. */
  file: string;
  /** Warnings of the build, kept for cache hits. */
  warnings: string[];
  /** The packages trailblaze-ts supplied to the build (`name version`), kept for cache hits. */
  supplied?: string[];
}

interface Manifest extends CacheEntry {
  key: string;
  inputs: string[];
}

export const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** Hash of the settings and every input's path and content; undefined when an input is gone. */
function contentKey(fingerprint: string, inputs: readonly string[]): string | undefined {
  const hash = createHash("sha256").update(fingerprint);
  for (const input of inputs) {
    if (!existsSync(input)) return undefined;
    hash.update(`\0${input}\0`).update(readFileSync(input));
  }
  return hash.digest("hex");
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/** The cache slot of `entry` built with `fingerprint` (build settings, tool versions) in `cacheDir`. */
export class BuildCache {
  readonly #fingerprint: string;
  readonly #manifestFile: string;
  /** File name stem of this slot's outputs: `<entry name>-<hash of the fingerprint>`. */
  readonly stem: string;

  constructor(
    readonly cacheDir: string,
    entry: string,
    fingerprint: string,
  ) {
    this.#fingerprint = fingerprint;
    this.stem = `${basename(entry, extname(entry))}-${sha256(fingerprint).slice(0, 16)}`;
    this.#manifestFile = join(cacheDir, `${this.stem}.json`);
  }

  /** The cached build, when its output exists and no input changed. */
  lookup(): CacheEntry | undefined {
    const manifest = readManifest(this.#manifestFile);
    if (!manifest || !existsSync(manifest.file) || contentKey(this.#fingerprint, manifest.inputs) !== manifest.key) return undefined;
    return { file: manifest.file, warnings: manifest.warnings, ...(manifest.supplied ? { supplied: manifest.supplied } : {}) };
  }

  /** Records a finished build (its output already written) with the absolute paths of its inputs. */
  store(entry: CacheEntry, inputs: readonly string[]): void {
    const key = contentKey(this.#fingerprint, inputs);
    if (key) writeAtomically(this.#manifestFile, JSON.stringify({ ...entry, key, inputs }, null, 1));
  }
}

