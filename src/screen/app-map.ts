// An app map (upstream's trailmap folder): `waypoints/**/*.waypoint.yaml` with their captures,
// `shortcuts/**/*.shortcut.yaml` and `trailheads/**/*.trailhead.yaml`, read into a graph of
// screens and the recorded actions between them. Captures load lazily, once each.

import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { shownPath } from "../core/shown-path.ts";
import { ConfigError, type ConfigProblem } from "../errors.ts";
import { loadCapture } from "./load-capture.ts";
import type { Screen } from "./screen-model.ts";
import { parseShortcut, parseTrailhead, type Shortcut, type Trailhead } from "./shortcut.ts";
import { parseWaypoint, type Waypoint } from "./waypoint.ts";

interface MapProblem {
  kind: "waypoint" | "shortcut" | "trailhead";
  problem: ConfigProblem;
  /** A warning leaves the map usable (an unknown selector field, ignored as upstream ignores it). */
  severity: "error" | "warning";
}

export interface AppMap {
  dir: string;
  waypoints: Map<string, Waypoint>;
  shortcuts: Shortcut[];
  /** Bootstrap edges: from any state to their `to` waypoint. */
  trailheads: Trailhead[];
  /** Waypoint id → the shortcuts that start there, in file order. */
  outgoing: Map<string, Shortcut[]>;
  /** Problems found while reading (bad YAML, bad selectors, duplicate ids); `loadAppMap` throws on any error. */
  problems: MapProblem[];
  /** The waypoint's capture (undefined when it has none); loaded once. */
  capture(waypointId: string): Promise<Screen | undefined>;
}

async function filesUnder(dir: string, suffix: RegExp): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && suffix.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The shortcuts and trailheads of the trailmap folder `dir` alone (no waypoints, no captures): what
 * a trailmap offers as tools when no map is simulated. Files that do not parse are problems.
 */
export async function readNavigation(
  dir: string,
  cwd: string = process.cwd(),
): Promise<Pick<AppMap, "shortcuts" | "trailheads" | "problems">> {
  const shown = (file: string) => shownPath(cwd, file);
  const [shortcutFiles, trailheadFiles] = await Promise.all([
    filesUnder(join(dir, "shortcuts"), /\.shortcut\.ya?ml$/),
    filesUnder(join(dir, "trailheads"), /\.trailhead\.ya?ml$/),
  ]);
  const problems: MapProblem[] = [];
  const read = async <T>(
    files: string[],
    kind: "shortcut" | "trailhead",
    parse: (file: string, text: string, found: ConfigProblem[]) => T | undefined,
  ): Promise<T[]> => {
    const texts = await Promise.all(files.map((f) => readFile(f, "utf8")));
    return files.flatMap((file, i) => {
      const found: ConfigProblem[] = [];
      const parsed = parse(shown(file), texts[i]!, found);
      problems.push(...found.map((problem) => ({ kind, problem, severity: "error" as const })));
      return parsed ? [parsed] : [];
    });
  };
  const [shortcuts, trailheads] = await Promise.all([
    read(shortcutFiles, "shortcut", parseShortcut),
    read(trailheadFiles, "trailhead", parseTrailhead),
  ]);
  return { shortcuts, trailheads, problems };
}

/** Reads the map at `dir`, collecting every problem instead of stopping at the first. */
export async function readAppMap(dir: string, cwd: string = process.cwd()): Promise<AppMap> {
  const shown = (file: string) => shownPath(cwd, file);
  if (!existsSync(dir)) {
    throw new ConfigError([
      {
        file: shown(dir),
        line: 0,
        col: 0,
        path: "",
        message: "the folder does not exist (an app map is a folder holding waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)",
      },
    ]);
  }
  if (!existsSync(join(dir, "waypoints"))) {
    throw new ConfigError([
      {
        file: shown(dir),
        line: 0,
        col: 0,
        path: "",
        message: "not an app map: it has no waypoints/ folder (an app map holds waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)",
      },
    ]);
  }
  const [waypointFiles, shortcutFiles, trailheadFiles] = await Promise.all([
    filesUnder(join(dir, "waypoints"), /\.waypoint\.ya?ml$/),
    filesUnder(join(dir, "shortcuts"), /\.shortcut\.ya?ml$/),
    filesUnder(join(dir, "trailheads"), /\.trailhead\.ya?ml$/),
  ]);
  const problems: MapProblem[] = [];
  const waypoints = new Map<string, Waypoint>();
  const texts = await Promise.all([...waypointFiles, ...shortcutFiles, ...trailheadFiles].map((f) => readFile(f, "utf8")));
  waypointFiles.forEach((file, i) => {
    const found: ConfigProblem[] = [];
    const ignored: ConfigProblem[] = [];
    const waypoint = parseWaypoint(shown(file), texts[i]!, found, file, ignored);
    problems.push(...found.map((problem) => ({ kind: "waypoint" as const, problem, severity: "error" as const })));
    problems.push(...ignored.map((problem) => ({ kind: "waypoint" as const, problem, severity: "warning" as const })));
    if (!waypoint) return;
    const earlier = waypoints.get(waypoint.id);
    if (earlier) {
      problems.push({
        kind: "waypoint",
        severity: "error",
        problem: { ...waypoint.where, path: "id", message: `duplicate waypoint id "${waypoint.id}" (also in ${earlier.file})` },
      });
      return;
    }
    waypoints.set(waypoint.id, waypoint);
  });
  const shortcuts: Shortcut[] = [];
  const outgoing = new Map<string, Shortcut[]>();
  shortcutFiles.forEach((file, i) => {
    const found: ConfigProblem[] = [];
    const shortcut = parseShortcut(shown(file), texts[waypointFiles.length + i]!, found);
    problems.push(...found.map((problem) => ({ kind: "shortcut" as const, problem, severity: "error" as const })));
    if (!shortcut) return;
    shortcuts.push(shortcut);
    outgoing.set(shortcut.from, [...(outgoing.get(shortcut.from) ?? []), shortcut]);
  });
  const trailheads: Trailhead[] = [];
  trailheadFiles.forEach((file, i) => {
    const found: ConfigProblem[] = [];
    const trailhead = parseTrailhead(shown(file), texts[waypointFiles.length + shortcutFiles.length + i]!, found);
    problems.push(...found.map((problem) => ({ kind: "trailhead" as const, problem, severity: "error" as const })));
    if (trailhead) trailheads.push(trailhead);
  });
  const captures = new Map<string, Promise<Screen | undefined>>();
  const capture = (id: string): Promise<Screen | undefined> => {
    let screen = captures.get(id);
    if (!screen) {
      const file = waypoints.get(id)?.capture;
      // A screenshot beside a capture is embedded only from inside the map's folder.
      screen = file ? loadCapture(file, shown(file), { folder: dir, what: "the map's folder" }) : Promise.resolve(undefined);
      captures.set(id, screen);
    }
    return screen;
  };
  return { dir, waypoints, shortcuts, trailheads, outgoing, problems, capture };
}

/** Reads the map at `dir`; any error in any file is one ConfigError listing them all. Warnings go to `warn`. */
export async function loadAppMap(dir: string, cwd?: string, warn?: (problem: ConfigProblem) => void): Promise<AppMap> {
  const map = await readAppMap(dir, cwd);
  const errors = map.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) throw new ConfigError(errors.map((p) => p.problem));
  for (const { problem } of map.problems) warn?.(problem);
  return map;
}
