// What a run records about each step beyond its calls: the simulated screen it began on (stored
// once in the run's screen table) with the nodes it touched there, the shortcuts it took and the
// screen they led to, what a failed check expected beside the screen the device was on, and what
// it changed in session memory.

import { isDeepStrictEqual } from "node:util";
import type { ScreenActivity } from "../builtins/screen-adapter.ts";
import type { Secrets } from "../core/secrets.ts";
import { isSuccess, type ToolResult } from "../core/tool-result.ts";
import { resolveSelector } from "../screen/resolve-selector.ts";
import type { Screen } from "../screen/screen-model.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import { describeSelector, type Selector } from "../screen/selector.ts";
import { checkWaypoint, type WaypointCheck } from "../screen/waypoint.ts";
import type { Memory } from "../session/memory.ts";
import type { CaptureStepScreen, ExpectedCondition, ExpectedScreen, StepReport } from "./run-types.ts";
import type { ScreenTable } from "./screen-table.ts";

/** Where a step's screen record adds the screens it meets: kept beside the record, not in it (the record is report data). */
interface Recorder {
  /** The simulated device, as it moves. */
  state: ScreenState;
  table: ScreenTable;
  mask: (text: string) => string;
}

const recorders = new WeakMap<CaptureStepScreen, Recorder>();

/** The screen a step begins on (the simulated device's `state` now). */
export function stepScreenOf(state: ScreenState, table: ScreenTable, secrets: Secrets): CaptureStepScreen {
  const mask = (text: string) => secrets.mask(text);
  const screen: CaptureStepScreen = { kind: "capture", screen: table.add(state.screen, mask), matched: [] };
  if (state.waypoint !== undefined) screen.waypoint = state.waypoint;
  recorders.set(screen, { state, table, mask });
  return screen;
}

/**
 * Adds a call's screen activity to its step: nodes touched on the step's first screen (before any
 * move), moves, the screen they led to and the nodes touched there after the last one; and, when
 * `result` failed a waypoint check or a selector, what was expected (`CaptureStepScreen.expected`).
 */
export async function noteActivity(screen: CaptureStepScreen, activity: ScreenActivity, result?: ToolResult): Promise<void> {
  const nodes = activity.nodes.filter((id) => !(screen.moves === undefined ? screen.matched : (screen.afterMatched ?? [])).includes(id));
  if (screen.moves === undefined) screen.matched.push(...nodes);
  // A call that moved touched its nodes on the screen it left; one after the last move, on the screen the step ends on.
  else if (activity.moves.length === 0) screen.afterMatched = [...(screen.afterMatched ?? []), ...nodes];
  const recorder = recorders.get(screen);
  if (activity.moves.length > 0) {
    screen.moves = [...(screen.moves ?? []), ...activity.moves];
    delete screen.afterMatched;
    if (recorder) screen.after = recorder.table.add(recorder.state.screen, recorder.mask);
  }
  if (!recorder || result === undefined || isSuccess(result) || screen.expected) return;
  const expected =
    activity.checks.length > 0
      ? await expectedWaypoint(recorder, activity.checks.at(-1)!)
      : activity.misses.length > 0
        ? await expectedSelector(recorder, activity.misses[0]!)
        : undefined;
  if (expected) screen.expected = expected;
}

/** The screen a failed `assertWaypoint` expected: the waypoint's capture, its required and forbidden selectors on both screens. */
async function expectedWaypoint({ state, table, mask }: Recorder, id: string): Promise<ExpectedScreen | undefined> {
  const { map, screen: actual } = state;
  const waypoint = map?.waypoints.get(id);
  if (!map || !waypoint) return undefined;
  const capture = await map.capture(id).catch(() => undefined);
  const there = checkWaypoint(actual, waypoint);
  const wanted = capture ? checkWaypoint(capture, waypoint, there.platform) : undefined;
  const conditions = (
    role: "required" | "forbidden",
    list: WaypointCheck["required"],
    others: WaypointCheck["required"] | undefined,
  ): ExpectedCondition[] =>
    list.map((c, i) => ({ role, description: mask(c.description), ok: c.ok, actual: c.nodeIds, expected: others?.[i]?.nodeIds ?? [] }));
  return {
    kind: "waypoint",
    waypoint: id,
    ...(capture ? { screen: table.add(capture, mask) } : {}),
    actual: table.add(actual, mask),
    conditions: [
      ...conditions("required", there.required, wanted?.required),
      ...conditions("forbidden", there.forbidden, wanted?.forbidden),
    ],
  };
}

/**
 * For a selector that matched nothing: the first waypoint of the map where it does match (those a
 * shortcut leads to from here first, then the rest in the map's order), or undefined when none does.
 */
async function expectedSelector({ state, table, mask }: Recorder, selector: Selector): Promise<ExpectedScreen | undefined> {
  const { map, screen: actual, waypoint: at } = state;
  if (!map) return undefined;
  const near = (at !== undefined ? (map.outgoing.get(at) ?? []) : []).map((s) => s.to);
  const order = [...new Set([...near, ...map.waypoints.keys()])].filter((id) => id !== at);
  for (const id of order) {
    const capture: Screen | undefined = await map.capture(id).catch(() => undefined);
    if (!capture) continue;
    const found = resolveSelector(capture, selector).nodes.map((n) => n.id);
    if (found.length === 0) continue;
    return {
      kind: "selector",
      waypoint: id,
      screen: table.add(capture, mask),
      actual: table.add(actual, mask),
      conditions: [{ role: "selector", description: mask(describeSelector(selector)), ok: false, actual: [], expected: found }],
    };
  }
  return undefined;
}

/** What changed in memory since `before` (masked with the rest of the report), or undefined when nothing did. */
export function memoryChanges(before: Record<string, unknown>, memory: Memory): StepReport["memory"] {
  const after = memory.snapshot();
  const set = Object.entries(after).filter(([key, value]) => !(key in before) || !isDeepStrictEqual(before[key], value));
  const deleted = Object.keys(before).filter((key) => !(key in after));
  if (set.length === 0 && deleted.length === 0) return undefined;
  return { ...(set.length > 0 ? { set: Object.fromEntries(set) } : {}), ...(deleted.length > 0 ? { deleted } : {}) };
}
