// `check` on targets with a simulated screen: a `simulation.map` is checked as an app map
// (every waypoint's capture satisfies its own selectors, every shortcut's first selector resolves
// on its `from` capture) and its findings become check findings of kind `waypoint` and
// `shortcut`; the start waypoint must be in the map; a `simulation.capture` must load.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { TargetConfig } from "../config/workspace.ts";
import { CaptureError } from "../errors.ts";
import { checkAppMap } from "../screen/check-app-map.ts";
import { loadCapture } from "../screen/load-capture.ts";

/** A check finding about a target's simulated screen (check-workspace.ts adds them to its own). */
interface SimulationFinding {
  severity: "error" | "warning";
  kind: "config" | "waypoint" | "shortcut" | "trailhead";
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Findings for every target's `simulation:`; paths resolve against the workspace `root`, files show relative to `cwd`. */
export async function checkSimulations(targets: Iterable<TargetConfig>, root: string, cwd: string): Promise<SimulationFinding[]> {
  const findings: SimulationFinding[] = [];
  for (const target of targets) {
    const sim = target.simulation;
    if (!sim) continue;
    const at = { file: sim.where.file, line: sim.where.line, col: sim.where.col };
    const located = (path: string, message: string) => `${at.file}:${at.line}:${at.col} ${path}: ${message}`;
    if (sim.kind === "capture") {
      try {
        await loadCapture(resolve(root, sim.capture), sim.capture);
      } catch (error) {
        if (!(error instanceof CaptureError)) throw error;
        findings.push({ severity: "error", kind: "config", message: located("simulation.capture", error.message), ...at });
      }
      continue;
    }
    const dir = resolve(root, sim.map);
    if (!isFolder(dir)) {
      findings.push({
        severity: "error",
        kind: "config",
        message: located(
          "simulation.map",
          `app map folder ${dir} not found (relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)`,
        ),
        ...at,
      });
      continue;
    }
    const report = await checkAppMap(dir, cwd);
    for (const finding of report.findings) {
      const where = finding.file ? `${finding.file}${finding.line ? `:${finding.line}:${finding.col}` : ""} ` : "";
      findings.push({ ...finding, message: `${where}${finding.message}` });
    }
    const ids = report.waypointIds;
    if (!ids.includes(sim.start)) {
      const start = { file: sim.startWhere.file, line: sim.startWhere.line, col: sim.startWhere.col };
      const message = `${start.file}:${start.line}:${start.col} simulation.start: unknown waypoint "${sim.start}"; the map ${sim.map} has ${ids.join(", ") || "no waypoints"}`;
      findings.push({ severity: "error", kind: "waypoint", message, ...start });
    }
  }
  return findings;
}
