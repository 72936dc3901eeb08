// A session with a screen: the demo trail walks the demo map (flags or a target's simulation:)
// with every screen step verified; asserting another waypoint fails; taps that match nothing name
// the closest candidates; every flag and YAML mistake is a clear error.

import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";

const DEMO = join(REPO, "fixtures/demo");
const MAP_FLAGS = ["--map", "maps/myapp", "--start", "myapp/android/login"];
type Json = Record<string, any>;

function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** A workspace with no servers: a target with `simulation` lines, the demo map and the demo map trail. */
function mapWorkspace(simulation: string): string {
  const dir = tempDir("screen-ws");
  write(dir, "trailblaze-config/targets/myapp.yaml", `id: myapp\n${simulation}platforms:\n  android: { app_ids: [com.example.myapp] }\n`);
  cpSync(join(DEMO, "maps"), join(dir, "maps"), { recursive: true });
  cpSync(join(DEMO, "trails-map"), join(dir, "trails-map"), { recursive: true });
  return dir;
}

describe("the demo map trail", () => {
  test("with --map/--start: three shortcuts, then assertWaypoint passes; no step unverified", async () => {
    const run = await cli(["run", "trails-map", ...MAP_FLAGS, "--reporter", "json", "--logs", tempDir("screen-logs")], { cwd: DEMO });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.summary).toMatchObject({ passed: 1, failed: 0, unverified: 0 });
    const tools = doc.trails[0].steps.flatMap((s: Json) => s.tools);
    expect(tools.flatMap((t: Json) => (t.result.structuredContent?.screen ? [t.result.structuredContent.screen.message] : []))).toEqual([
      "moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginToHome)",
      "moved from myapp/android/home to myapp/android/settings (shortcut myapp_android_homeToSettings)",
      "moved from myapp/android/settings to myapp/android/profile (shortcut myapp_android_settingsToProfile)",
    ]);
    expect(tools.at(-1)).toMatchObject({
      name: "assertWaypoint",
      result: { status: "success", message: "at waypoint myapp/android/profile (the device is at myapp/android/profile)" },
    });
    expect(tools.find((t: Json) => t.name === "rememberText").result.message).toBe('remembered greeting = "Hello Test"');
  });

  test("the list reporter shows each move on a line of its own", async () => {
    const run = await cli(["run", "trails-map", ...MAP_FLAGS, "--logs", tempDir("screen-logs")], { cwd: DEMO });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "\n        moved from myapp/android/home to myapp/android/settings (shortcut myapp_android_homeToSettings)\n",
    );
    expect(run.stdout).toMatch(/\n1 passed, 0 failed \(1 trail\) in [\d.]+ m?s\n$/);
  });

  test("asserting another waypoint at the end fails, naming what is missing there", async () => {
    const dir = tempDir("screen-trail");
    const trail = readFileSync(join(DEMO, "trails-map/walk-the-map.trail.yaml"), "utf8").replace(
      "assertWaypoint: { waypoint: myapp/android/profile }",
      "assertWaypoint: { waypoint: myapp/android/home }",
    );
    write(dir, "walk.trail.yaml", trail);
    const run = await cli(
      ["run", join(dir, "walk.trail.yaml"), "--config", join(DEMO, "trailblaze-config"), ...MAP_FLAGS, "--logs", tempDir("screen-logs")],
      { cwd: DEMO },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'assertWaypoint: the screen is not at waypoint "myapp/android/home": the device is at myapp/android/profile: required "Home heading" not found; required "Greeting with the user\'s name" not found; required "Settings tab in the bottom navigation" not found',
    );
  });

  test("a target's simulation: {map, start} (relative to the workspace root) gives the same walk; --start overrides its start", async () => {
    const dir = mapWorkspace("simulation: { map: ./maps/myapp, start: myapp/android/login }\n");
    const run = await cli(["run", ".", "--reporter", "json", "--logs", tempDir("screen-logs")], { cwd: join(dir, "trails-map") });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout).summary).toMatchObject({ passed: 1, failed: 0, unverified: 0 });
    const moved = await cli(["run", "trails-map", "--start", "myapp/android/home", "--logs", tempDir("screen-logs")], { cwd: dir });
    expect(moved.code).toBe(1);
    expect(moved.stdout).toContain(
      'assertWaypoint: the screen is not at waypoint "myapp/android/login": the device is at myapp/android/home',
    );
  });
});

describe("a static capture", () => {
  test("a tap that matches nothing fails the step naming the closest candidates", async () => {
    const dir = tempDir("screen-trail");
    write(
      dir,
      "tap.trail.yaml",
      "config: { id: tap-sign-up, target: myapp }\ntrail:\n  - step: Sign up\n    recording:\n      tools:\n        - tapOnElementWithText: { text: Sign up }\n",
    );
    const run = await cli(
      [
        "run",
        join(dir, "tap.trail.yaml"),
        "--config",
        join(DEMO, "trailblaze-config"),
        "--capture",
        join(REPO, "fixtures/screens/android-login.json"),
        "--logs",
        tempDir("screen-logs"),
      ],
      { cwd: DEMO },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'tapOnElementWithText: nothing on the screen matches text "Sign up"; closest: #2 TextView "Sign in" id=com.example.myapp:id/title [40,40][1040,120]',
    );
  });

  test("a target's simulation: {capture} verifies screen checks against it", async () => {
    const dir = mapWorkspace("simulation:\n  capture: ./maps/myapp/waypoints/myapp_android_home.example.json\n");
    const run = await cli(["call", "assertVisibleWithText", "--args", '{"text":"Hello Test"}'], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      '✓ assertVisibleWithText: "Hello Test" is visible (#3 TextView "Hello Test" id=com.example.myapp:id/greeting [60,360][1020,440])\n',
    );
  });

  test("call says ✓ only for what it checked: with no screen loaded the same check, and an action, read ⚠ with why", async () => {
    const dir = mapWorkspace("");
    const check = await cli(["call", "assertVisibleWithText", "--args", '{"text":"Hello Test"}', "--no-logging"], { cwd: dir });
    const act = await cli(["call", "launchApp", "--args", '{"appId":"com.example.myapp"}', "--no-logging"], { cwd: dir });
    expect([check.code, act.code]).toEqual([0, 0]);
    expect(check.stdout).toMatch(/^⚠ assertVisibleWithText: .*\n {2}unverified: no screen loaded/);
    expect(act.stdout).toMatch(/^⚠ launchApp: .*\n {2}nothing checked: .*no screen loaded/);
  });
});

describe("flag and YAML mistakes", () => {
  const flagError = async (flags: string[]) => {
    const run = await cli(["tools", ...flags], { cwd: mapWorkspace("") });
    expect(run.code).toBe(2);
    return run.stderr;
  };

  test("flags: each combination that cannot work says what to give", async () => {
    expect(await flagError(["--capture", "a.json", "--map", "maps/myapp"])).toContain(
      "--capture and --map both set the simulated screen; give --capture FILE (one static screen) or --map DIR --start WAYPOINT_ID (an app map)",
    );
    expect(await flagError(["--map", "maps/myapp"])).toContain(
      "--map needs --start WAYPOINT_ID, the waypoint the device starts at (e.g. --start myapp/android/login)",
    );
    expect(await flagError(["--start", "myapp/android/login"])).toContain(
      "--start needs an app map: give --map DIR too, or set simulation: {map: DIR, start: WAYPOINT_ID} in target myapp (",
    );
    expect(await flagError(["--capture", "a.json", "--start", "x"])).toContain(
      "--start only applies with --map (a capture is one screen; it has no waypoints to start at)",
    );
    expect(await flagError(["--capture", "nope.json"])).toContain("--capture: capture file nope.json not found");
    expect(await flagError(["--map", "maps/myapp", "--start", "myapp/android/nowhere"])).toContain(
      'start: unknown waypoint "myapp/android/nowhere"; the map has myapp/android/home, myapp/android/login, myapp/android/profile, myapp/android/settings',
    );
  });

  test("target YAML: every simulation: problem at file:line:col", async () => {
    const cases: [string, string][] = [
      [
        "simulation: { capture: a.json, map: ./maps/myapp }\n",
        "trailblaze-config/targets/myapp.yaml:2:32 simulation: has both capture: and map:; the simulated screen is one capture or one app map, not both",
      ],
      [
        "simulation: { map: ./maps/myapp }\n",
        "trailblaze-config/targets/myapp.yaml:2:13 simulation: map: needs start: WAYPOINT_ID, the waypoint the device starts at (e.g. start: myapp/android/login)",
      ],
      [
        "simulation: { capture: a.json, start: x }\n",
        "trailblaze-config/targets/myapp.yaml:2:32 simulation: start: only applies with map: (a capture is one screen; it has no waypoints to start at)",
      ],
      [
        "simulation: {}\n",
        "trailblaze-config/targets/myapp.yaml:2:13 simulation: needs capture: FILE (one static screen) or map: DIR with start: WAYPOINT_ID (an app map and the waypoint the device starts at)",
      ],
      [
        "simulation:\n  capture: ./screens/none.json\n",
        "trailblaze-config/targets/myapp.yaml:3:12 simulation.capture: capture file ROOT/screens/none.json not found (relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)",
      ],
    ];
    for (const [yaml, expected] of cases) {
      const dir = mapWorkspace(yaml);
      const message = expected.replace("ROOT", dir);
      const run = await cli(["tools"], { cwd: dir });
      expect({ yaml, code: run.code }).toEqual({ yaml, code: 2 });
      expect(run.stderr).toContain(message);
    }
  });
});

describe("check on a workspace whose target has a map", () => {
  test("the map's findings are check findings (waypoint, shortcut) at file:line:col; the start must be in the map", async () => {
    const dir = tempDir("screen-check");
    write(
      dir,
      "trailblaze-config/targets/myapp.yaml",
      "id: myapp\nsimulation: { map: ./maps/broken, start: broken/home }\nplatforms:\n  android: {}\n",
    );
    cpSync(join(REPO, "fixtures/screens/maps/broken"), join(dir, "maps/broken"), { recursive: true });
    const run = await cli(["check", "--json"], { cwd: dir });
    expect(run.code).toBe(1);
    const findings = JSON.parse(run.stdout).findings.map((f: Json) => [f.severity, f.kind, f.message, f.file, f.line, f.col]);
    expect(findings).toEqual([
      [
        "error",
        "waypoint",
        'maps/broken/waypoints/syntax.waypoint.yaml:5:1 YAML syntax error: Missing closing "quote',
        "maps/broken/waypoints/syntax.waypoint.yaml",
        5,
        1,
      ],
      [
        "warning",
        "waypoint",
        'maps/broken/waypoints/typo.waypoint.yaml:7:11 android.required[0].selector.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?; ignored, as upstream ignores it',
        "maps/broken/waypoints/typo.waypoint.yaml",
        7,
        11,
      ],
      [
        "error",
        "shortcut",
        "maps/broken/shortcuts/noTools.shortcut.yaml:3:3 shortcut.to: expected a waypoint id",
        "maps/broken/shortcuts/noTools.shortcut.yaml",
        3,
        3,
      ],
      [
        "error",
        "shortcut",
        "maps/broken/shortcuts/noTools.shortcut.yaml:4:8 tools: expected a non-empty list of recorded tool calls (- toolName: {args})",
        "maps/broken/shortcuts/noTools.shortcut.yaml",
        4,
        8,
      ],
      [
        "warning",
        "waypoint",
        "maps/broken/waypoints/nocapture.waypoint.yaml:1:5 waypoint broken/nocapture has no capture beside it; its selectors were not checked",
        "maps/broken/waypoints/nocapture.waypoint.yaml",
        1,
        5,
      ],
      [
        "warning",
        "waypoint",
        "maps/broken/waypoints/typo.waypoint.yaml:1:5 waypoint broken/typo has no capture beside it; its selectors were not checked",
        "maps/broken/waypoints/typo.waypoint.yaml",
        1,
        5,
      ],
      [
        "error",
        "waypoint",
        'maps/broken/waypoints/login.waypoint.yaml:8:7 waypoint broken/login: required selector "Sign-up link" (androidAccessibility{textRegex="Sign up"}) matches nothing on its capture',
        "maps/broken/waypoints/login.waypoint.yaml",
        8,
        7,
      ],
      [
        "error",
        "waypoint",
        'maps/broken/waypoints/login.waypoint.yaml:13:7 waypoint broken/login: forbidden selector "Password field" (androidAccessibility{isPassword=true}) matches #4 EditText "Password" id=com.example.myapp:id/password [60,680][1020,820] on its capture',
        "maps/broken/waypoints/login.waypoint.yaml",
        13,
        7,
      ],
      [
        "error",
        "shortcut",
        'maps/broken/shortcuts/loginToNowhere.shortcut.yaml:4:7 shortcut broken_loginToNowhere: to waypoint "broken/nowhere" is not in the map',
        "maps/broken/shortcuts/loginToNowhere.shortcut.yaml",
        4,
        7,
      ],
      [
        "error",
        "shortcut",
        'maps/broken/shortcuts/loginToNowhere.shortcut.yaml:6:5 shortcut broken_loginToNowhere: tapOnElementBySelector selector androidAccessibility{textRegex="Sign up"} matches nothing on the capture of broken/login',
        "maps/broken/shortcuts/loginToNowhere.shortcut.yaml",
        6,
        5,
      ],
      [
        "error",
        "waypoint",
        'trailblaze-config/targets/myapp.yaml:2:42 simulation.start: unknown waypoint "broken/home"; the map ./maps/broken has broken/login, broken/nocapture, broken/typo',
        "trailblaze-config/targets/myapp.yaml",
        2,
        42,
      ],
    ]);
  });

  test("the demo map checks clean", async () => {
    const run = await cli(["check", "--json"], { cwd: mapWorkspace("simulation: { map: ./maps/myapp, start: myapp/android/login }\n") });
    expect(JSON.parse(run.stdout).findings.filter((f: Json) => f.kind === "waypoint" || f.kind === "shortcut")).toEqual([]);
  });
});
