// What a run records about each step beyond its calls: the simulated screen it began on (stored
// once in the run's screen table) with the nodes it touched there and the shortcuts it took, and
// what it changed in session memory.

import { isDeepStrictEqual } from "node:util";
import type { EngineScreen, ScreenActivity } from "../builtins/screen-adapter.ts";
import type { Secrets } from "../core/secrets.ts";
import type { Memory } from "../session/memory.ts";
import type { CaptureStepScreen, StepReport } from "./run-types.ts";
import type { ScreenTable } from "./screen-table.ts";

/** The screen a step begins on; what the screen saw before it (earlier steps') is dropped. */
export function stepScreenOf(engine: EngineScreen, table: ScreenTable, secrets: Secrets): CaptureStepScreen {
  engine.takeActivity();
  const screen: CaptureStepScreen = { kind: "capture", screen: table.add(engine.state.screen, (text) => secrets.mask(text)), matched: [] };
  if (engine.state.waypoint !== undefined) screen.waypoint = engine.state.waypoint;
  return screen;
}

/** Adds a call's screen activity to its step: nodes touched on the step's first screen (before any move), and moves. */
export function noteActivity(screen: CaptureStepScreen, activity: ScreenActivity): void {
  if (screen.moves === undefined) for (const id of activity.nodes) if (!screen.matched.includes(id)) screen.matched.push(id);
  if (activity.moves.length > 0) screen.moves = [...(screen.moves ?? []), ...activity.moves];
}

/** What changed in memory since `before` (masked with the rest of the report), or undefined when nothing did. */
export function memoryChanges(before: Record<string, unknown>, memory: Memory): StepReport["memory"] {
  const after = memory.snapshot();
  const set = Object.entries(after).filter(([key, value]) => !(key in before) || !isDeepStrictEqual(before[key], value));
  const deleted = Object.keys(before).filter((key) => !(key in after));
  if (set.length === 0 && deleted.length === 0) return undefined;
  return { ...(set.length > 0 ? { set: Object.fromEntries(set) } : {}), ...(deleted.length > 0 ? { deleted } : {}) };
}
