// App maps: the demo map reads into a graph and checks clean; a broken map yields one finding per
// problem, each at its file:line:col and naming the failing selector.
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ConfigError } from "../errors.ts";
import { DEMO_MAP, SCREENS } from "../../test/support/screens.ts";
import { loadAppMap } from "./app-map.ts";
import { checkAppMap } from "./check-app-map.ts";
import { loadWaypoint } from "./waypoint.ts";

const BROKEN = join(SCREENS, "maps/broken");
const REPO = join(SCREENS, "../..");

describe("app maps", () => {
  test("the demo map is a graph of four waypoints and five shortcuts", async () => {
    const map = await loadAppMap(DEMO_MAP, REPO);
    expect([...map.waypoints.keys()].sort()).toEqual([
      "myapp/android/home",
      "myapp/android/login",
      "myapp/android/profile",
      "myapp/android/settings",
    ]);
    expect(Object.fromEntries([...map.outgoing].map(([from, list]) => [from, list.map((s) => `${s.to} by ${s.tools[0]!.name}`)]))).toEqual({
      "myapp/android/login": ["myapp/android/home by tapOnElementBySelector"],
      "myapp/android/home": ["myapp/android/settings by tapOnElementWithText"],
      "myapp/android/settings": ["myapp/android/home by pressBack", "myapp/android/profile by tapOnElementBySelector"],
      "myapp/android/profile": ["myapp/android/settings by pressBack"],
    });
  });

  test("the demo map checks clean", async () => {
    const report = await checkAppMap(DEMO_MAP, REPO);
    expect({
      ok: report.ok,
      waypoints: report.waypoints,
      shortcuts: report.shortcuts,
      captures: report.captures,
      findings: report.findings,
    }).toEqual({
      ok: true,
      waypoints: 4,
      shortcuts: 5,
      captures: 4,
      findings: [],
    });
  });

  test("a broken map: every problem once, with its place and the failing selector", async () => {
    const report = await checkAppMap(BROKEN, REPO);
    const W = "fixtures/screens/maps/broken/waypoints";
    const S = "fixtures/screens/maps/broken/shortcuts";
    const lines = report.findings.map((f) => `${f.severity} ${f.kind} ${f.file}:${f.line}:${f.col} ${f.message}`);
    expect(lines).toEqual([
      `error waypoint ${W}/syntax.waypoint.yaml:5:1 YAML syntax error: Missing closing "quote`,
      // Upstream's loader ignores an unknown selector field: a warning, and the rest of the map still loads.
      `warning waypoint ${W}/typo.waypoint.yaml:7:11 android.required[0].selector.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?; ignored, as upstream ignores it`,
      `error shortcut ${S}/noTools.shortcut.yaml:3:3 shortcut.to: expected a waypoint id`,
      `error shortcut ${S}/noTools.shortcut.yaml:4:8 tools: expected a non-empty list of recorded tool calls (- toolName: {args})`,
      `warning waypoint ${W}/nocapture.waypoint.yaml:1:5 waypoint broken/nocapture has no capture beside it; its selectors were not checked`,
      `warning waypoint ${W}/typo.waypoint.yaml:1:5 waypoint broken/typo has no capture beside it; its selectors were not checked`,
      `error waypoint ${W}/login.waypoint.yaml:8:7 waypoint broken/login: required selector "Sign-up link" (androidAccessibility{textRegex="Sign up"}) matches nothing on its capture`,
      `error waypoint ${W}/login.waypoint.yaml:13:7 waypoint broken/login: forbidden selector "Password field" (androidAccessibility{isPassword=true}) matches #4 EditText "Password" id=com.example.myapp:id/password [60,680][1020,820] on its capture`,
      `error shortcut ${S}/loginToNowhere.shortcut.yaml:4:7 shortcut broken_loginToNowhere: to waypoint "broken/nowhere" is not in the map`,
      `error shortcut ${S}/loginToNowhere.shortcut.yaml:6:5 shortcut broken_loginToNowhere: tapOnElementBySelector selector androidAccessibility{textRegex="Sign up"} matches nothing on the capture of broken/login`,
    ]);
    expect({ ok: report.ok, summary: report.summary }).toEqual({ ok: false, summary: { errors: 7, warnings: 3 } });
  });

  test("loadAppMap refuses a map with errors, listing all of them; warnings go to its callback", async () => {
    const warnings: string[] = [];
    const error = await loadAppMap(BROKEN, REPO, (problem) => warnings.push(problem.path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.length).toBe(3);
    expect(warnings).toEqual([]);
  });

  test("an unknown selector field in a waypoint is a located warning, ignored as upstream ignores it; the map loads", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "map-unknown-field-")), "myapp");
    cpSync(DEMO_MAP, dir, { recursive: true });
    const file = join(dir, "waypoints/myapp_android_home.waypoint.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("          isHeading: true\n", "          isHeading: true\n          childOf: { text: Home }\n"),
    );
    try {
      const warnings: string[] = [];
      const map = await loadAppMap(dir, dir, (problem) =>
        warnings.push(`${problem.file}:${problem.line}:${problem.col} ${problem.path}: ${problem.message}`),
      );
      expect(map.waypoints.size).toBe(4);
      expect(warnings).toEqual([
        "waypoints/myapp_android_home.waypoint.yaml:10:11 android.required[0].selector.androidAccessibility.childOf: unknown androidAccessibility field; ignored, as upstream ignores it",
      ]);
      expect((await checkAppMap(dir, dir)).ok).toBe(true);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  test("a folder without waypoints/ is not an app map", async () => {
    const error = await loadAppMap(SCREENS, REPO).catch((e: unknown) => e);
    expect((error as ConfigError).message).toBe(
      "fixtures/screens: not an app map: it has no waypoints/ folder (an app map holds waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)",
    );
  });

  test("loadWaypoint reports a bad selector at its file:line:col", async () => {
    const file = join(BROKEN, "waypoints/typo.waypoint.yaml");
    const error = await loadWaypoint(file).catch((e: unknown) => e);
    expect((error as ConfigError).message).toBe(
      `${file}:7:11 android.required[0].selector.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?`,
    );
    expect(relative(REPO, file)).toBe("fixtures/screens/maps/broken/waypoints/typo.waypoint.yaml");
  });
});
