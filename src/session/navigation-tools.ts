// Which shortcuts and trailheads a session registers as tools: the simulated map's (checked against
// the device's waypoint), else, for a target from a trailmap, the trailmap folder's own
// (`shortcuts/`, `trailheads/`), whose results are unverified. A file that does not parse is a
// warning naming it; the others stay usable.

import { dirname, relative } from "node:path";
import { formatProblem } from "../errors.ts";
import type { ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { readNavigation } from "../screen/app-map.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import { mapTools, unmappedTools } from "./map-tools.ts";
import type { SessionSpec } from "./session-spec.ts";

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

export async function navigationTools(
  spec: SessionSpec,
  state: ScreenState | undefined,
  call: Call,
  warn: (message: string) => void,
): Promise<RegisteredTool[]> {
  if (state?.map && spec.simulation?.kind === "map") return mapTools(state, `app map ${spec.simulation.shown}`, call);
  const { target } = spec;
  if (!target.trailmap || !target.toolsDir) return [];
  const dir = dirname(target.toolsDir);
  const edges = await readNavigation(dir, spec.cwd);
  for (const { problem } of edges.problems) warn(`${formatProblem(problem)} (this file's shortcut or trailhead is not a tool)`);
  return unmappedTools(edges, `trailmap ${relative(spec.cwd, dir) || dir}`, call);
}
