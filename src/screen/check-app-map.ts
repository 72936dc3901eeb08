// Checks an app map offline: every waypoint's capture satisfies its own required and forbidden
// selectors, every shortcut joins two known waypoints, and its first selector (or text) resolves
// on its `from` waypoint's capture. Findings carry file:line:col and name the failing selector.

import { CaptureError, SelectorError } from "../errors.ts";
import { locate } from "../core/yaml-file.ts";
import { readAppMap, type AppMap } from "./app-map.ts";
import { resolveSelector } from "./resolve-selector.ts";
import { describeNode } from "./screen-model.ts";
import { describeSelector } from "./selector.ts";
import { actionOf } from "./shortcut.ts";
import { callTarget } from "./tool-call.ts";
import { checkWaypoint, platformOf, type Waypoint } from "./waypoint.ts";

export interface MapFinding {
  severity: "error" | "warning";
  kind: "waypoint" | "shortcut" | "trailhead";
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

export interface MapReport {
  ok: boolean;
  dir: string;
  waypoints: number;
  /** Every waypoint id the map defines, in file order. */
  waypointIds: string[];
  shortcuts: number;
  /** Waypoints whose capture was checked. */
  captures: number;
  findings: MapFinding[];
  summary: { errors: number; warnings: number };
}

function at(where: { file: string; line: number; col: number }): Pick<MapFinding, "file" | "line" | "col"> {
  return { file: where.file, line: where.line, col: where.col };
}

async function checkWaypointCapture(map: AppMap, waypoint: Waypoint, findings: MapFinding[]): Promise<boolean> {
  if (!waypoint.capture) {
    findings.push({
      severity: "warning",
      kind: "waypoint",
      message: `waypoint ${waypoint.id} has no capture beside it; its selectors were not checked`,
      ...at(waypoint.where),
    });
    return false;
  }
  let screen;
  try {
    screen = await map.capture(waypoint.id);
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error;
    findings.push({
      severity: "error",
      kind: "waypoint",
      message: `waypoint ${waypoint.id}: capture ${error.message}`,
      ...at(waypoint.where),
    });
    return false;
  }
  if (!screen) return false;
  const platform = platformOf(screen);
  const result = checkWaypoint(screen, waypoint, platform);
  if (result.skipped) {
    findings.push({
      severity: "warning",
      kind: "waypoint",
      message: `waypoint ${waypoint.id}: ${result.skipped}, the platform of its capture`,
      ...at(waypoint.where),
    });
    return true;
  }
  const block = waypoint.platforms.get(platform)!;
  result.required.forEach((r, i) => {
    if (r.ok) return;
    const c = block.required[i]!;
    const count = c.minCount > 1 ? `matches ${r.nodeIds.length} node(s), fewer than minCount ${c.minCount}` : "matches nothing";
    findings.push({
      severity: "error",
      kind: "waypoint",
      message: `waypoint ${waypoint.id}: required selector "${r.description}" (${describeSelector(c.selector)}) ${count} on its capture`,
      ...at(c.where),
    });
  });
  result.forbidden.forEach((r, i) => {
    if (r.ok) return;
    const c = block.forbidden[i]!;
    const first = screen.byId.get(r.nodeIds[0]!)!;
    findings.push({
      severity: "error",
      kind: "waypoint",
      message: `waypoint ${waypoint.id}: forbidden selector "${r.description}" (${describeSelector(c.selector)}) matches ${describeNode(first)} on its capture`,
      ...at(c.where),
    });
  });
  return true;
}

async function checkShortcut(map: AppMap, shortcut: AppMap["shortcuts"][number], findings: MapFinding[]): Promise<void> {
  for (const end of ["from", "to"] as const) {
    if (!map.waypoints.has(shortcut[end])) {
      findings.push({
        severity: "error",
        kind: "shortcut",
        message: `shortcut ${shortcut.id}: ${end} waypoint "${shortcut[end]}" is not in the map`,
        ...at(locate(shortcut.yaml, ["shortcut", end])),
      });
    }
  }
  const action = actionOf(shortcut);
  if (!action) return;
  let target;
  try {
    target = callTarget(action.name, action.args, `${shortcut.id} ${action.name}`);
  } catch (error) {
    if (!(error instanceof SelectorError)) throw error;
    findings.push({ severity: "error", kind: "shortcut", message: `shortcut ${shortcut.id}: ${error.message}`, ...at(action.where) });
    return;
  }
  if (target.kind !== "selector" || !map.waypoints.has(shortcut.from)) return;
  let screen;
  try {
    screen = await map.capture(shortcut.from);
  } catch (error) {
    if (error instanceof CaptureError) return; // reported once, on the waypoint
    throw error;
  }
  if (!screen) return;
  const { kind, nodes } = resolveSelector(screen, target.selector);
  const what = `${action.name} selector ${describeSelector(target.selector)}`;
  if (kind === "noMatch") {
    findings.push({
      severity: "error",
      kind: "shortcut",
      message: `shortcut ${shortcut.id}: ${what} matches nothing on the capture of ${shortcut.from}`,
      ...at(action.where),
    });
  } else if (kind === "multipleMatches") {
    findings.push({
      severity: "warning",
      kind: "shortcut",
      message: `shortcut ${shortcut.id}: ${what} matches ${nodes.length} nodes on the capture of ${shortcut.from}; a tap takes the first, ${describeNode(nodes[0]!)}`,
      ...at(action.where),
    });
  }
}

/** Checks the app map at `dir`; file names in findings are relative to `cwd`. */
export async function checkAppMap(dir: string, cwd: string = process.cwd()): Promise<MapReport> {
  const map = await readAppMap(dir, cwd);
  const findings: MapFinding[] = map.problems.map(({ kind, problem, severity }) => ({
    severity,
    kind,
    message: problem.path ? `${problem.path}: ${problem.message}` : problem.message,
    file: problem.file,
    ...(problem.line > 0 ? { line: problem.line, col: problem.col } : {}),
  }));
  const checked = await Promise.all([...map.waypoints.values()].map((w) => checkWaypointCapture(map, w, findings)));
  for (const shortcut of map.shortcuts) await checkShortcut(map, shortcut, findings);
  for (const trailhead of map.trailheads.filter((t) => !map.waypoints.has(t.to))) {
    findings.push({
      severity: "error",
      kind: "trailhead",
      message: `trailhead ${trailhead.id}: to waypoint "${trailhead.to}" is not in the map`,
      ...at(locate(trailhead.yaml, ["trailhead", "to"])),
    });
  }
  const errors = findings.filter((f) => f.severity === "error").length;
  return {
    ok: errors === 0,
    dir,
    waypoints: map.waypoints.size,
    waypointIds: [...map.waypoints.keys()],
    shortcuts: map.shortcuts.length,
    captures: checked.filter(Boolean).length,
    findings,
    summary: { errors, warnings: findings.length - errors },
  };
}
