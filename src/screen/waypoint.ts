// A waypoint (`*.waypoint.yaml`): an id, and per platform the `required` selectors a screen must
// match and the `forbidden` ones it must not, with the capture taken there beside the file
// (`<name>.example.json`); and checking a screen against it.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigError, type ConfigProblem } from "../errors.ts";
import { locate, problemAt, type Where, type YamlFile } from "../core/yaml-file.ts";
import { resolveSelector, type MatchKind } from "./resolve-selector.ts";
import type { Screen } from "./screen-model.ts";
import { describeSelector, type Selector } from "./selector.ts";
import { parseMapFile, selectorAt } from "./yaml-selector.ts";
import { isPlainMap } from "../core/describe.ts";

export interface WaypointCondition {
  description: string;
  selector: Selector;
  /** The selector as written, for JSON output. */
  raw: unknown;
  /** How many nodes a required selector must match (default 1). */
  minCount: number;
  where: Where;
}

interface WaypointBlock {
  required: WaypointCondition[];
  forbidden: WaypointCondition[];
}

export interface Waypoint {
  id: string;
  description?: string;
  file: string;
  where: Where;
  /** Platform (android, ios, web, compose, or a finer classifier) → its conditions. */
  platforms: Map<string, WaypointBlock>;
  /** The capture beside the file (`<name>.example.json`), when there is one. */
  capture?: string;
}

const TOP_KEYS = new Set(["id", "description", "route"]);

function conditions(
  yaml: YamlFile,
  platform: string,
  list: "required" | "forbidden",
  problems: ConfigProblem[],
  warnings?: ConfigProblem[],
): WaypointCondition[] {
  const block = (yaml.data as Record<string, Record<string, unknown>>)[platform]!;
  const entries = block[list];
  if (entries == null) return [];
  if (!Array.isArray(entries)) {
    problems.push(problemAt(yaml, [platform, list], "value", "expected a list of {description, selector} entries"));
    return [];
  }
  const out: WaypointCondition[] = [];
  entries.forEach((entry, i) => {
    const path = [platform, list, i];
    if (!isPlainMap(entry) || !isPlainMap(entry.selector)) {
      problems.push(
        problemAt(
          yaml,
          isPlainMap(entry) ? [...path, "selector"] : path,
          "value",
          "expected an entry with a selector: {description, selector: {…}}",
        ),
      );
      return;
    }
    const minCount = entry.minCount ?? 1;
    if (!Number.isInteger(minCount) || (minCount as number) < 1) {
      problems.push(problemAt(yaml, [...path, "minCount"], "value", `expected an integer of at least 1, got ${JSON.stringify(minCount)}`));
    }
    const selector = selectorAt(yaml, [...path, "selector"], problems, undefined, warnings);
    if (!selector) return;
    const description = typeof entry.description === "string" ? entry.description : describeSelector(selector);
    out.push({ description, selector, raw: entry.selector, minCount: minCount as number, where: locate(yaml, path) });
  });
  return out;
}

/**
 * Parses waypoint YAML; problems are pushed, and a waypoint is returned when it has an id.
 * `file` names it in messages; `path` (default `file`) is where it is, to find its capture.
 * With `warnings`, an unknown selector field is pushed there and ignored, not a problem.
 */
export function parseWaypoint(
  file: string,
  text: string,
  problems: ConfigProblem[],
  path: string = file,
  warnings?: ConfigProblem[],
): Waypoint | undefined {
  const opened = parseMapFile(file, text, problems, "a waypoint: {id, description, <platform>: {required, forbidden}}");
  if (!opened) return undefined;
  const { yaml, data } = opened;
  if (typeof data.id !== "string" || data.id === "") {
    problems.push(
      problemAt(
        yaml,
        ["id"],
        data.id === undefined ? "parent" : "value",
        "expected the waypoint's id, a non-empty string",
        data.id === undefined ? [] : ["id"],
      ),
    );
    return undefined;
  }
  const waypoint: Waypoint = { id: data.id, file, where: locate(yaml, ["id"]), platforms: new Map() };
  if (typeof data.description === "string") waypoint.description = data.description;
  for (const [key, value] of Object.entries(data)) {
    if (TOP_KEYS.has(key)) continue;
    if (!isPlainMap(value)) {
      problems.push(problemAt(yaml, [key], "value", "expected a platform block: {required: […], forbidden: […]}"));
      continue;
    }
    for (const extra of Object.keys(value)) {
      if (extra !== "required" && extra !== "forbidden")
        problems.push(problemAt(yaml, [key, extra], "key", "unknown key; a platform block has required and forbidden"));
    }
    waypoint.platforms.set(key, {
      required: conditions(yaml, key, "required", problems, warnings),
      forbidden: conditions(yaml, key, "forbidden", problems, warnings),
    });
  }
  const capture = join(dirname(path), `${basename(path).replace(/\.waypoint\.ya?ml$/, "")}.example.json`);
  if (existsSync(capture)) waypoint.capture = capture;
  return waypoint;
}

/** Loads one waypoint file; every problem in it is one ConfigError. */
export async function loadWaypoint(file: string): Promise<Waypoint> {
  const problems: ConfigProblem[] = [];
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new ConfigError([{ file, line: 0, col: 0, path: "", message: "waypoint file not found" }]);
  }
  const waypoint = parseWaypoint(file, text, problems);
  if (problems.length > 0 || !waypoint) throw new ConfigError(problems);
  return waypoint;
}

interface ConditionResult {
  description: string;
  kind: MatchKind;
  nodeIds: number[];
  ok: boolean;
}

export interface WaypointCheck {
  id: string;
  platform: string;
  ok: boolean;
  required: ConditionResult[];
  forbidden: ConditionResult[];
  /** Set when the waypoint has no block for the platform (then ok is false). */
  skipped?: string;
}

const PLATFORM_OF: Record<string, string> = {
  androidAccessibility: "android",
  androidMaestro: "android",
  iosMaestro: "ios",
  iosAxe: "ios",
  web: "web",
  compose: "compose",
};

/** The platform a screen was captured on, from its root's driver. */
export function platformOf(screen: Screen): string {
  return PLATFORM_OF[screen.root.detail.class] ?? "android";
}

/** Checks `screen` against the waypoint's block for `platform` (default: the screen's platform). */
export function checkWaypoint(screen: Screen, waypoint: Waypoint, platform: string = platformOf(screen)): WaypointCheck {
  const block = waypoint.platforms.get(platform);
  if (!block) {
    const has = [...waypoint.platforms.keys()];
    return {
      id: waypoint.id,
      platform,
      ok: false,
      required: [],
      forbidden: [],
      skipped: `the waypoint has no ${platform} block${has.length ? ` (it has ${has.join(", ")})` : ""}`,
    };
  }
  const result = (c: WaypointCondition, wantPresent: boolean): ConditionResult => {
    const { kind, nodes } = resolveSelector(screen, c.selector);
    const ok = wantPresent ? nodes.length >= c.minCount : nodes.length === 0;
    return { description: c.description, kind, nodeIds: nodes.map((n) => n.id), ok };
  };
  const required = block.required.map((c) => result(c, true));
  const forbidden = block.forbidden.map((c) => result(c, false));
  return { id: waypoint.id, platform, ok: required.every((r) => r.ok) && forbidden.every((r) => r.ok), required, forbidden };
}
