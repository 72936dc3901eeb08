// Loads the screen a session's simulated device shows (`SessionSpec.simulation`): one capture, or
// an app map at its start waypoint, as the framework tools' DeviceScreen. A missing file names
// where it was set (`--capture`, or the target's `simulation:` with file:line:col).

import { formatProblem } from "../errors.ts";
import { statSync } from "node:fs";
import { EngineScreen } from "../builtins/screen-adapter.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { loadAppMap } from "../screen/app-map.ts";
import { loadCapture } from "../screen/load-capture.ts";
import { ScreenState } from "../screen/screen-state.ts";
import type { SimulationSpec } from "./session-spec.ts";

function missing(sim: SimulationSpec, what: string): Error {
  if ("flag" in sim.origin) return new UsageError(`${sim.origin.flag}: ${what} ${sim.shown} not found`);
  const message = `${what} ${sim.kind === "capture" ? sim.file : sim.dir} not found`;
  const { where, path } = sim.origin;
  return new ConfigError([
    {
      ...where,
      path,
      message: `${message} (relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)`,
    },
  ]);
}

function exists(path: string, kind: "file" | "folder"): boolean {
  try {
    const stat = statSync(path);
    return kind === "file" ? stat.isFile() : stat.isDirectory();
  } catch {
    return false;
  }
}

/** The simulated device's screen for `sim`; `cwd` shows map files relative to it in messages. */
export async function loadSimulatedScreen(sim: SimulationSpec, cwd: string, warn?: (message: string) => void): Promise<EngineScreen> {
  if (sim.kind === "capture") {
    if (!exists(sim.file, "file")) throw missing(sim, "capture file");
    return new EngineScreen(ScreenState.fromCapture(await loadCapture(sim.file, sim.shown)));
  }
  if (!exists(sim.dir, "folder")) throw missing(sim, "app map folder");
  const map = await loadAppMap(sim.dir, cwd, (problem) => warn?.(formatProblem(problem)));
  return new EngineScreen(await ScreenState.fromMap(map, sim.start));
}
