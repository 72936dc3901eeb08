// What a session that only lists tools needs of a QuickJS server (its initialize result and every
// page of tools/list), kept per server in `.cache/trailblaze-listings/` of the workspace and keyed
// by everything the answer depends on: the bundle's content, the engine, trailblaze's version and
// the QuickJS runtime's files. A QuickJS guest reads no file and no environment, so the same
// bundle on the same runtime lists the same tools; a listing whose server called a session tool
// while starting is never stored. An unreadable or tampered entry is a miss, rewritten by the
// next store; entries unused for 30 days go as build entries do (build-cache.ts).
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { checkCacheFolder, fileStamp, PACKAGE_ROOT, writeAtomically } from "../core/cache-files.ts";
import { PACKAGE_VERSION } from "../core/package-version.ts";
import { markUsed, removeUnused, sha256 } from "../bundle/build-cache.ts";
import type { ServerHandshake } from "./mcp-connection.ts";

/** Bump when what is stored, or how a listing is taken, changes. */
const LISTING_FORMAT = 1;
/** The folder of `.cache/` the listings are kept in. */
export const LISTINGS_FOLDER = "trailblaze-listings";

export interface Listing {
  handshake: ServerHandshake;
  tools: Tool[];
}

interface Entry {
  key: string;
  /** sha256 of the listing's JSON: an entry that does not match it was damaged or edited. */
  digest: string;
  listing: Listing;
}

let runtimeStamp: string | undefined;

/** The engine asked for: `TRAILBLAZE_QUICKJS` of the session and of the process, as given (an unknown name fails before anything is stored). */
const engineOf = (env: Record<string, string | undefined>) => [env.TRAILBLAZE_QUICKJS ?? "", process.env.TRAILBLAZE_QUICKJS ?? ""];

/**
 * The key of a listing: the bundle's content, the engine, the package version, and a stamp of the
 * QuickJS runtime's files (its limits, prelude and message handling) and of the client side of
 * the handshake.
 */
function listingKey(code: string, env: Record<string, string | undefined>): string {
  runtimeStamp ??= fileStamp(
    `listing ${LISTING_FORMAT}`,
    [join(PACKAGE_ROOT, "runtime-quickjs")],
    ["src/servers/mcp-connection.ts", "src/servers/listing-cache.ts"],
  );
  return sha256(
    JSON.stringify({ format: LISTING_FORMAT, code: sha256(code), engine: engineOf(env), version: PACKAGE_VERSION, runtime: runtimeStamp }),
  );
}

/** The cached listing of one server (a script or prebuilt bundle, by absolute path) in a workspace's `.cache/`. */
export class ListingCache {
  readonly #folder: string;
  readonly #file: string;
  readonly #key: string;

  /** `code`: the server's bundle as it runs now; `env`: the session's environment (the engine it asks for). */
  constructor(cacheRoot: string, server: string, code: string, env: Record<string, string | undefined>) {
    this.#folder = join(cacheRoot, LISTINGS_FOLDER);
    const slot = sha256(JSON.stringify([server, ...engineOf(env)])).slice(0, 16);
    this.#file = join(this.#folder, `${basename(server, extname(server))}-${slot}.json`);
    this.#key = listingKey(code, env);
  }

  /** Where this server's listing is kept (one file per server and engine, replaced when its key changes). */
  get file(): string {
    return this.#file;
  }

  /** The listing stored under this key; undefined when there is none, another key's, or one that cannot be read. */
  lookup(): Listing | undefined {
    let entry: Entry;
    try {
      entry = JSON.parse(readFileSync(this.#file, "utf8")) as Entry;
    } catch {
      return undefined;
    }
    if (entry?.key !== this.#key || typeof entry.digest !== "string" || !isListing(entry.listing)) return undefined;
    if (sha256(JSON.stringify(entry.listing)) !== entry.digest) return undefined;
    markUsed(this.#file);
    return entry.listing;
  }

  /**
   * Keeps `listing` under this key, replacing the server's earlier entry; a cache that cannot be
   * written is left as it is, but a listings folder a link carries out of `.cache` is refused
   * (UsageError, checkCacheFolder).
   */
  store(listing: Listing): void {
    checkCacheFolder(this.#folder);
    try {
      const entry: Entry = { key: this.#key, digest: sha256(JSON.stringify(listing)), listing };
      writeAtomically(this.#file, JSON.stringify(entry));
      removeUnused(this.#folder, Date.now());
    } catch {
      // A read-only workspace still runs: the next session runs the server again.
    }
  }
}

function isListing(value: unknown): value is Listing {
  const listing = value as Listing | undefined;
  return (
    typeof listing === "object" &&
    listing !== null &&
    typeof listing.handshake === "object" &&
    listing.handshake !== null &&
    Array.isArray(listing.tools)
  );
}
