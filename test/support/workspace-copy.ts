// Copies of fixture workspaces that tests write into, at fixed places, keeping the schemas their
// per-file tools were derived to from one run to the next.
//
// Deriving a per-file tool's schemas compiles it with TypeScript (src/bundle/tool-schemas.ts): the
// slowest step of most workspace tests, and cached in the workspace by file path and content. A
// copy made afresh at a new place each run derives everything again, in both passes of `npm test`.
// Here each copy has a fixed place: the copy itself is made anew every time (the fixture's files,
// none of its logs/ or .cache/), and only .cache/trailblaze-tool-schemas carries over, as in a
// user's own workspace from one run to the next. Everything else (bundles, generated entries,
// supplied packages) is built afresh by each run. A test of the derivation itself, or of a cold
// schema cache, makes its copy with tempDir.

import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { REPO } from "./cli.ts";

const SCHEMAS = join(".cache", "trailblaze-tool-schemas");
/** A fixture's own run output and caches are not part of it (a fresh clone has none). */
const NOT_COPIED = new Set(["logs", ".cache", "node_modules"]);

export interface WorkspaceCopyOptions {
  /** The copy's folder name (default "ws"): some tests show it. */
  folder?: string;
  /** Outside the repository, so no node_modules folder above it resolves anything (default: under the repository's .cache). */
  outsideRepo?: boolean;
}

/**
 * A fresh copy of `fixture` at the place named by `key` (unique per call site: two copies with one
 * key are one folder), with the schemas derived in the previous copy at that place.
 */
export function workspaceCopy(fixture: string, key: string, options: WorkspaceCopyOptions = {}): string {
  const base = options.outsideRepo
    ? join(tmpdir(), `trailblaze-test-workspaces-${Bun.hash(REPO).toString(36)}`)
    : join(REPO, ".cache", "test-workspaces");
  const home = join(base, key);
  const dir = join(home, options.folder ?? "ws");
  const kept = join(home, "tool-schemas");
  rmSync(kept, { recursive: true, force: true });
  if (existsSync(join(dir, SCHEMAS))) renameSync(join(dir, SCHEMAS), kept);
  rmSync(dir, { recursive: true, force: true });
  cpSync(fixture, dir, { recursive: true, filter: (src) => !NOT_COPIED.has(relative(fixture, src).split(sep)[0]!) });
  if (existsSync(kept)) {
    mkdirSync(join(dir, ".cache"), { recursive: true });
    renameSync(kept, join(dir, SCHEMAS));
  }
  return dir;
}
