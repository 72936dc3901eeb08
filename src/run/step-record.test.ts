// What a step records about its screens, on the demo app map: the screen it began on with the nodes
// it touched there, the screen a move left it on with the nodes touched after, and for a failed
// assertWaypoint or selector what it expected, beside the device's screen.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { EngineScreen } from "../builtins/screen-adapter.ts";
import { frameworkTools, SimulatedDevice } from "../builtins/index.ts";
import { buildContext } from "../core/context.ts";
import { Secrets } from "../core/secrets.ts";
import type { ToolResult } from "../core/tool-result.ts";
import { loadAppMap } from "../screen/app-map.ts";
import { ScreenState } from "../screen/screen-state.ts";
import { ScreenTable } from "./screen-table.ts";
import { noteActivity, stepScreenOf } from "./step-record.ts";

const REPO = resolve(import.meta.dir, "../..");
const context = buildContext(
  { sessionId: "step-record", invocationId: "call-1" },
  { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
  {},
);

/** A device on the demo map at `start`, a screen table, and `call`, which notes each call's activity on `step` as a run does. */
async function demo(start: string) {
  const engine = new EngineScreen(await ScreenState.fromMap(await loadAppMap("fixtures/demo/maps/myapp", REPO), start));
  const device = new SimulatedDevice();
  device.screen = engine;
  const tools = new Map(frameworkTools(device).map((t) => [t.name, t]));
  const table = new ScreenTable();
  const step = stepScreenOf(engine.state, table, new Secrets());
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await tools.get(name)!.invoke({ args, context });
    await noteActivity(step, engine.takeActivity(), result);
    return result;
  };
  const idOf = (waypoint: string) => Object.entries(table.toJSON()).find(([, s]) => s.waypoint === waypoint)?.[0];
  return { step, call, idOf };
}

describe("a step's screens", () => {
  test("a move: the nodes touched before it on the screen the step began on, after it on the screen it led to", async () => {
    const { step, call, idOf } = await demo("myapp/android/home");
    await call("tapOnElementWithText", { text: "Settings" });
    await call("assertVisibleWithText", { text: "Notifications" });
    expect(step).toEqual({
      kind: "capture",
      screen: idOf("myapp/android/home")!,
      waypoint: "myapp/android/home",
      matched: [9],
      moves: [{ from: "myapp/android/home", to: "myapp/android/settings", shortcut: "myapp_android_homeToSettings" }],
      after: idOf("myapp/android/settings")!,
      afterMatched: [6],
    });
  });

  test("a failed assertWaypoint: the expected waypoint's capture, each condition's nodes on both screens", async () => {
    const { step, call, idOf } = await demo("myapp/android/home");
    const result = await call("assertWaypoint", { waypoint: "myapp/android/settings" });
    expect(result.variant).not.toBe("Success");
    const expected = step.expected!;
    expect({ kind: expected.kind, waypoint: expected.waypoint, screen: expected.screen, actual: expected.actual }).toEqual({
      kind: "waypoint",
      waypoint: "myapp/android/settings",
      screen: idOf("myapp/android/settings")!,
      actual: idOf("myapp/android/home")!,
    });
    expect(expected.conditions.map(({ role, description, ok }) => `${ok ? "✓" : "✗"} ${role} ${description}`)).toEqual([
      "✗ required Settings heading",
      "✗ required Profile row",
      "✗ required Notifications switch, right of its label",
      "✗ forbidden Bottom navigation (hidden on settings)",
    ]);
    // Found on the expected screen, not here; and the bottom navigation here, which settings forbids.
    expect(expected.conditions.slice(0, 3).every((c) => c.actual.length === 0 && c.expected.length > 0)).toBe(true);
    expect(expected.conditions[3]).toMatchObject({ actual: [7], expected: [] });
  });

  test("a selector that matched nothing: the first waypoint where it matches, shortcuts from here first", async () => {
    const { step, call, idOf } = await demo("myapp/android/home");
    await call("tapOnElementWithText", { text: "Log out" });
    expect(step.expected).toMatchObject({
      kind: "selector",
      waypoint: "myapp/android/settings",
      screen: idOf("myapp/android/settings"),
      actual: idOf("myapp/android/home"),
    });
    expect(step.expected!.conditions).toEqual([
      { role: "selector", description: expect.stringContaining("Log out"), ok: false, actual: [], expected: [expect.any(Number)] },
    ]);
  });

  test("a check that passes, or a miss that is what the call wanted, expects nothing", async () => {
    const { step, call } = await demo("myapp/android/home");
    await call("assertWaypoint", { waypoint: "myapp/android/home" });
    await call("assertNotVisibleWithText", { text: "Log out" });
    expect(step.expected).toBeUndefined();
    expect(step.after).toBeUndefined();
  });
});
