// A content-addressed cache for built files: a manifest per (entry, build settings) lists every
// input file the build read and a hash of their contents; the build is reused while that hash
// still matches. Shared by the on-device bundles and the precompiled host servers. A build that
// an edit overtakes is not stored: `begin()` hashes the inputs it knows before the build, and
// `store()` refuses when any input changed since (content differs, or modified after the start).
// Entries no lookup has used for 30 days (an entry of a file since deleted or renamed, or of older
// build settings) are removed by the next build stored in the same folder.
import { existsSync, lstatSync, lutimesSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { checkCacheFolder, writeAtomically } from "../core/cache-files.ts";

interface CacheEntry {
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

export const sha256 = (text: string | Buffer) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** Hash of the settings and every input's path and content; undefined when an input is gone. */
function contentKey(fingerprint: string, inputs: readonly string[]): string | undefined {
  const hash = new Bun.CryptoHasher("sha256").update(fingerprint);
  for (const input of inputs) {
    if (!existsSync(input)) return undefined;
    hash.update(`\0${input}\0`).update(readFileSync(input));
  }
  return hash.digest("hex");
}

/** What a build started from: when, and the content hash of every input known before it (the entry, the last build's inputs). */
interface BuildStart {
  startedAt: number;
  hashes: ReadonlyMap<string, string>;
}

const fileHash = (path: string): string | undefined => (existsSync(path) ? sha256(readFileSync(path)) : undefined);

/** What a file's stat says about its content: any write changes it (ctime at least). Undefined when it is gone. */
export function statSignature(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat && `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/**
 * Manifests whose inputs this process hashed and found matching, with the stat of every input
 * taken before hashing: a lookup whose inputs still stat the same is a hit without reading them
 * again (a session start in a long-running process stats the ~100 inputs instead of hashing them).
 */
const verified = new Map<string, { key: string; signatures: string }>();

/**
 * On while a `run` runs (`reusingVerifiedBuilds`): a build this process verified is then reused without
 * statting its inputs again, so the sessions of a run use the tools as the run first built them
 * (a file edited meanwhile is read by the next run). Statting ~100 inputs per server was ~1 ms of
 * every session start. Long-running processes (`trailblaze mcp`) keep checking at every lookup.
 */
let reuseVerified = false;
const settled = new Map<string, CacheEntry>();

/** Turns `reuseVerified` on until the result is disposed: around a batch of sessions (a `run`). */
export function reusingVerifiedBuilds(): Disposable {
  reuseVerified = true;
  return {
    [Symbol.dispose]() {
      reuseVerified = false;
      settled.clear();
    },
  };
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

const DAY_MS = 24 * 3600_000;
/** An entry no lookup used for this long is removed by the next build stored in its folder. */
export const UNUSED_ENTRY_MS = 30 * DAY_MS;

/** The cache slot of `entry` built with `fingerprint` (build settings, tool versions) in `cacheDir`. */
export class BuildCache {
  readonly #fingerprint: string;
  readonly #manifestFile: string;
  readonly #entry: string;
  /** File name stem of this slot's outputs: `<entry name>-<hash of the fingerprint>`. */
  readonly stem: string;

  constructor(
    readonly cacheDir: string,
    entry: string,
    fingerprint: string,
  ) {
    this.#fingerprint = fingerprint;
    this.#entry = entry;
    this.stem = `${basename(entry, extname(entry))}-${sha256(fingerprint).slice(0, 16)}`;
    this.#manifestFile = join(cacheDir, `${this.stem}.json`);
  }

  /** The cached build, when its output exists and no input changed. */
  lookup(): CacheEntry | undefined {
    const reused = reuseVerified ? settled.get(this.#manifestFile) : undefined;
    if (reused && existsSync(reused.file)) return reused;
    const manifest = readManifest(this.#manifestFile);
    if (!manifest || !existsSync(manifest.file)) return undefined;
    const signatures = manifest.inputs.map(statSignature);
    if (signatures.includes(undefined)) return undefined;
    const seen = verified.get(this.#manifestFile);
    if (seen?.key !== manifest.key || seen.signatures !== signatures.join("\n")) {
      if (contentKey(this.#fingerprint, manifest.inputs) !== manifest.key) return undefined;
      verified.set(this.#manifestFile, { key: manifest.key, signatures: signatures.join("\n") });
    }
    markUsed(this.#manifestFile);
    const entry = { file: manifest.file, warnings: manifest.warnings, ...(manifest.supplied ? { supplied: manifest.supplied } : {}) };
    if (reuseVerified) settled.set(this.#manifestFile, entry);
    return entry;
  }

  /**
   * Points the entry at `to`, another form of its output `from` (host-bundle.ts: the bytecode of
   * the ES module), if the entry still names `from` and `from` still has the stat `fromSignature`
   * it was compiled from: a build that replaced it meanwhile keeps its own entry. Returns whether
   * it did.
   */
  replaceOutput(from: string, fromSignature: string, to: string): boolean {
    const manifest = readManifest(this.#manifestFile);
    if (manifest?.file !== from || statSignature(from) !== fromSignature) return false;
    writeAtomically(this.#manifestFile, JSON.stringify({ ...manifest, file: to }, null, 1));
    const reused = settled.get(this.#manifestFile);
    if (reused) settled.set(this.#manifestFile, { ...reused, file: to });
    return true;
  }

  /**
   * Call right before building: hashes the inputs known so far, for `store` to check against.
   * Refuses (UsageError) a cache folder that a link carries outside its `.cache` (checkCacheFolder),
   * before the build writes anything there.
   */
  begin(): BuildStart {
    checkCacheFolder(this.cacheDir);
    const startedAt = Date.now();
    const hashes = new Map<string, string>();
    for (const input of new Set([this.#entry, ...(readManifest(this.#manifestFile)?.inputs ?? [])])) {
      const hash = fileHash(input);
      if (hash) hashes.set(input, hash);
    }
    return { startedAt, hashes };
  }

  /**
   * Records a finished build (its output already written) with the absolute paths of its inputs,
   * keyed by their content, unless an input changed since `start` (the build may have read the old
   * bytes, so the output would be stale under the new key): then nothing is stored and the next
   * lookup builds again. Returns whether it stored.
   */
  store(entry: CacheEntry, inputs: readonly string[], start: BuildStart): boolean {
    const now = Date.now();
    for (const input of inputs) {
      const known = start.hashes.get(input);
      if (known !== undefined && fileHash(input) !== known) return false;
      // Modified since the start: not stored, to be safe (the next build is). A file system that
      // stamps times at its timer tick may date a save in the build's first few ms before it; a
      // time in the future (a skewed clock, an archive) says nothing.
      const stat = statSync(input, { throwIfNoEntry: false });
      if (!stat || (Math.floor(stat.mtimeMs) >= start.startedAt && stat.mtimeMs <= now + 1)) return false;
    }
    const key = contentKey(this.#fingerprint, inputs);
    if (!key) return false;
    writeAtomically(this.#manifestFile, JSON.stringify({ ...entry, key, inputs }, null, 1));
    removeUnused(this.cacheDir, now);
    return true;
  }
}

/**
 * Dates a manifest's last use (its mtime), at most once a day: lookups stay read-only otherwise.
 * A manifest that is a link has the link dated, not the file it points at.
 */
export function markUsed(manifestFile: string): void {
  const now = Date.now();
  try {
    if (now - lstatSync(manifestFile).mtimeMs > DAY_MS) lutimesSync(manifestFile, now / 1000, now / 1000);
  } catch {
    // Another process removed or replaced it: nothing to date.
  }
}

/**
 * Removes the entries of `cacheDir` unused for UNUSED_ENTRY_MS: each manifest with its output (and the
 * output's folder of its own); a `.json` entry with no output (a cached listing) on its own.
 */
export function removeUnused(cacheDir: string, now: number): void {
  for (const name of readdirSync(cacheDir)) {
    if (!name.endsWith(".json")) continue;
    const manifestFile = join(cacheDir, name);
    const stat = statSync(manifestFile, { throwIfNoEntry: false });
    if (!stat?.isFile() || now - stat.mtimeMs < UNUSED_ENTRY_MS) continue;
    const manifest = readManifest(manifestFile);
    if (manifest && typeof manifest.file === "string") {
      const folder = dirname(manifest.file);
      if (folder === join(cacheDir, basename(name, ".json"))) rmSync(folder, { recursive: true, force: true });
      else if (folder === cacheDir) for (const file of [manifest.file, `${manifest.file}.map`]) rmSync(file, { force: true });
    }
    rmSync(manifestFile, { force: true });
  }
}
