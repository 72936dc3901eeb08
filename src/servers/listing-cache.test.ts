// The listing cache: one entry per server and engine, found only under the key it was stored
// with; damaged entries are misses that the next store rewrites; unused ones are pruned.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UNUSED_ENTRY_MS } from "../bundle/build-cache.ts";
import { LISTINGS_FOLDER, ListingCache, type Listing } from "./listing-cache.ts";

const SERVER = "/workspace/tools/login.ts";
const LISTING: Listing = {
  handshake: { serverInfo: { name: "login", version: "1.0.0" }, capabilities: { tools: {} }, instructions: "Log in first" },
  tools: [{ name: "login_submit", description: "Submits", inputSchema: { type: "object", properties: { user: { type: "string" } } } }],
};
const dir = mkdtempSync(join(tmpdir(), "listing-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let roots = 0;
const cacheRoot = () => {
  const root = join(dir, String(++roots));
  mkdirSync(root);
  return root;
};

describe("ListingCache", () => {
  test("a stored listing is found again under the same bundle and engine, and nowhere else", () => {
    const root = cacheRoot();
    new ListingCache(root, SERVER, "bundle v1", {}).store(LISTING);
    expect(new ListingCache(root, SERVER, "bundle v1", {}).lookup()).toEqual(LISTING);
    expect(new ListingCache(root, SERVER, "bundle v2", {}).lookup()).toBeUndefined();
    expect(new ListingCache(root, SERVER, "bundle v1", { TRAILBLAZE_QUICKJS: "quickjs-ng" }).lookup()).toBeUndefined();
    expect(new ListingCache(root, "/workspace/tools/other.ts", "bundle v1", {}).lookup()).toBeUndefined();
  });

  test("one file per server and engine: a new bundle replaces the entry, another engine keeps its own", () => {
    const root = cacheRoot();
    const first = new ListingCache(root, SERVER, "bundle v1", {});
    first.store(LISTING);
    const edited = new ListingCache(root, SERVER, "bundle v2", {});
    expect(edited.file).toBe(first.file);
    edited.store({ ...LISTING, tools: [] });
    new ListingCache(root, SERVER, "bundle v2", { TRAILBLAZE_QUICKJS: "quickjs-ng" }).store(LISTING);
    expect(readdirSync(join(root, LISTINGS_FOLDER)).filter((name) => name.startsWith("login-")).length).toBe(2);
    expect(new ListingCache(root, SERVER, "bundle v1", {}).lookup()).toBeUndefined();
    expect(new ListingCache(root, SERVER, "bundle v2", {}).lookup()).toEqual({ ...LISTING, tools: [] });
    expect(new ListingCache(root, SERVER, "bundle v2", { TRAILBLAZE_QUICKJS: "quickjs-ng" }).lookup()).toEqual(LISTING);
  });

  test("an entry cut short, not JSON, of another shape or edited by hand is a miss, and the next store rewrites it", () => {
    const root = cacheRoot();
    const cache = new ListingCache(root, SERVER, "bundle v1", {});
    cache.store(LISTING);
    const stored = readFileSync(cache.file, "utf8");
    const edited = stored.replace("Submits", "Submits everything");
    expect(edited).not.toBe(stored);
    for (const damaged of [
      stored.slice(0, stored.length / 2),
      "",
      "null",
      "[]",
      JSON.stringify({ ...JSON.parse(stored), listing: { tools: "none" } }),
      edited,
    ]) {
      writeFileSync(cache.file, damaged);
      expect(cache.lookup()).toBeUndefined();
    }
    cache.store(LISTING);
    expect(readFileSync(cache.file, "utf8")).toBe(stored);
    expect(cache.lookup()).toEqual(LISTING);
  });

  test("a cache that cannot be written is no error: nothing is stored", () => {
    const root = cacheRoot();
    writeFileSync(join(root, LISTINGS_FOLDER), "a file where the folder should be");
    const cache = new ListingCache(root, SERVER, "bundle v1", {});
    expect(() => cache.store(LISTING)).not.toThrow();
    expect(cache.lookup()).toBeUndefined();
  });

  test("entries unused for 30 days are removed by the next store in the folder; used ones stay", () => {
    const root = cacheRoot();
    const old = new ListingCache(root, "/workspace/tools/gone.ts", "bundle", {});
    const used = new ListingCache(root, "/workspace/tools/kept.ts", "bundle", {});
    old.store(LISTING);
    used.store(LISTING);
    const longAgo = (Date.now() - UNUSED_ENTRY_MS - 60_000) / 1000;
    utimesSync(old.file, longAgo, longAgo);
    utimesSync(used.file, longAgo, longAgo);
    expect(used.lookup()).toEqual(LISTING); // a lookup dates its entry
    new ListingCache(root, SERVER, "bundle", {}).store(LISTING);
    expect(existsSync(old.file)).toBe(false);
    expect(existsSync(used.file)).toBe(true);
  });
});
