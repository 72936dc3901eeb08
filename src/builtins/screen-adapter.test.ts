import { describe, expect, test } from "bun:test";
import { describeSelector } from "../screen/selector.ts";
import { textSelector } from "../screen/tool-call.ts";
import { resolve } from "node:path";
import { buildContext } from "../core/context.ts";
import { loadAppMap } from "../screen/app-map.ts";
import { loadCapture } from "../screen/load-capture.ts";
import { ScreenState } from "../screen/screen-state.ts";
import { frameworkTools, SimulatedDevice } from "./index.ts";
import { EngineScreen } from "./screen-adapter.ts";

const REPO = resolve(import.meta.dir, "../..");
const context = buildContext(
  { sessionId: "screen-adapter", invocationId: "call-1" },
  { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
  {},
);

/** The framework tools on a device showing `state`. */
function deviceShowing(state: ScreenState) {
  const device = new SimulatedDevice();
  device.screen = new EngineScreen(state);
  const tools = new Map(frameworkTools(device).map((t) => [t.name, t]));
  const call = (name: string, args: Record<string, unknown> = {}) => tools.get(name)!.invoke({ args, context });
  return { device, call };
}

const staticLogin = async () =>
  deviceShowing(ScreenState.fromCapture(await loadCapture(resolve(REPO, "fixtures/screens/android-login.json"), "android-login.json")));
const demoMap = async () =>
  deviceShowing(await ScreenState.fromMap(await loadAppMap("fixtures/demo/maps/myapp", REPO), "myapp/android/login"));

const LOG_IN = '#7 Button "Log in" id=com.example.myapp:id/login [40,440][520,500]';
const STATIC = "screen unchanged: a static capture (android-login.json) has no shortcuts";

describe("a static capture on the simulated device", () => {
  test("taps by text find the first of several matches (upstream's rule), taps by point hit-test, both say the screen stays", async () => {
    const { call, device } = await staticLogin();
    // "Log in" is in "Log in" and "Log in with SSO": the first, top-to-bottom then left-to-right.
    expect(await call("tapOnElementWithText", { text: "log in" })).toMatchObject({
      variant: "Success",
      message: `simulated device: tapOnElementWithText text "log in" on ${LOG_IN}; ${STATIC}`,
      structuredContent: { simulatedDevice: { action: "tapOnElementWithText", nodeId: "7" }, screen: { moved: false, message: STATIC } },
    });
    expect((await call("tapOnPoint", { x: 300, y: 470 })).message).toBe(`simulated device: tapOnPoint (300, 470) on ${LOG_IN}; ${STATIC}`);
    expect((await call("tap", { ref: "e4" })).message).toBe(
      `simulated device: tap ref "e4" on #4 EditText "Email" id=com.example.myapp:id/email [40,160][1040,240]; ${STATIC}`,
    );
    expect(device.actions.map((a) => a.action)).toEqual(["tapOnElementWithText", "tapOnPoint", "tap"]);
  });

  test("a tap that matches nothing fails naming the closest candidates, and records nothing", async () => {
    const { call, device } = await staticLogin();
    expect(await call("tapOnElementWithText", { text: "Sign up" })).toMatchObject({
      variant: "ExceptionThrown",
      message:
        'tapOnElementWithText: nothing on the screen matches text "Sign up"; closest: #2 TextView "Sign in" id=com.example.myapp:id/title [40,40][1040,120]',
    });
    expect(await call("tapOnElementBySelector", { nodeSelector: { androidAccessibility: { textRegex: "Log out" } } })).toMatchObject({
      variant: "ExceptionThrown",
      message: `tapOnElementBySelector: nothing on the screen matches the element {"androidAccessibility":{"textRegex":"Log out"}}; closest: ${LOG_IN}`,
    });
    expect(await call("tapOnElementWithText", { text: "Log in", index: 2 })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'tapOnElementWithText: 2 elements match text "Log in", so there is no index 2 (indexes start at 0)',
    });
    expect(device.actions).toEqual([]);
  });

  test("assertions pass and fail for real; text assertions take the text as a full pattern", async () => {
    const { call } = await staticLogin();
    expect((await call("assertVisibleWithText", { text: "Sign in" })).message).toBe(
      '"Sign in" is visible (#2 TextView "Sign in" id=com.example.myapp:id/title [40,40][1040,120])',
    );
    expect((await call("assertVisibleWithText", { text: "Sign" })).message).toBe(
      'assertVisibleWithText: nothing on the screen matches "Sign"; closest: #2 TextView "Sign in" id=com.example.myapp:id/title [40,40][1040,120]',
    );
    expect(await call("assertNotVisibleWithText", { text: "Log in" })).toMatchObject({
      variant: "ExceptionThrown",
      message: `assertNotVisibleWithText: "Log in" is visible (${LOG_IN})`,
    });
    expect((await call("assertNotVisibleWithText", { text: "Log out" })).message).toBe('"Log out" is not visible');
    expect(
      (
        await call("assertVisibleBySelector", {
          nodeSelector: { androidAccessibility: { resourceIdRegex: ".*:id/login" } },
          expectedText: "Log in",
        })
      ).variant,
    ).toBe("Success");
    expect((await call("assertVisibleWithResourceId", { resourceId: ".*:id/email" })).variant).toBe("Success");
    expect(await call("assertVisibleBySelector", { nodeSelector: { androidAccessibility: { textRegx: "x" } } })).toMatchObject({
      variant: "ExceptionThrown",
      message:
        'assertVisibleBySelector: selector: $.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?',
    });
  });

  test("rememberText/rememberNumber read the matched node's text; findMatches lists matches", async () => {
    const { call } = await staticLogin();
    expect(await call("rememberText", { prompt: "example.com", variable: "who" })).toMatchObject({
      message: 'remembered who = "ann@example.com"',
      memoryDelta: { who: "ann@example.com" },
    });
    expect(await call("rememberNumber", { prompt: "Remember me", variable: "n" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'rememberNumber: #6 CheckBox "Remember me" [40,360][500,420] shows "Remember me", which has no number',
    });
    expect(await call("findMatches", { selector: { androidAccessibility: { textRegex: ".*@example.com" } } })).toMatchObject({
      message: 'multipleMatches: #11 TextView "ann@example.com" [40,560][700,620], #14 TextView "bob@example.com" [40,680][700,740]',
      structuredContent: { kind: "multipleMatches", nodeIds: ["11", "14"] },
    });
    // Upstream's MatchDescriptor per match (what captureViewHierarchy reads): tree path, bounds, text.
    const { structuredContent } = (await call("findMatches", {
      selector: { androidAccessibility: { textRegex: "ann@example.com" } },
    })) as unknown as { structuredContent: { matches: unknown[] } };
    expect(structuredContent.matches).toEqual([
      { indexPath: expect.any(Array), bounds: { left: 40, top: 560, right: 700, bottom: 620 }, matchedText: "ann@example.com" },
    ]);
    expect((structuredContent.matches[0] as { indexPath: number[] }).indexPath.length).toBeGreaterThan(0);
  });

  test("assertWaypoint needs a map", async () => {
    const { call } = await staticLogin();
    expect((await call("assertWaypoint", { waypoint: "myapp/android/home" })).message).toBe(
      'assertWaypoint: the screen is not at waypoint "myapp/android/home": the device shows the static capture android-login.json and has no app map to check myapp/android/home against (load one with --map DIR --start WAYPOINT_ID)',
    );
  });
});

describe("an app map on the simulated device", () => {
  test("the actions of three shortcuts walk it to the profile; assertWaypoint passes there and fails for another waypoint", async () => {
    const { call } = await demoMap();
    expect(
      (
        await call("tapOnElementBySelector", {
          nodeSelector: { androidAccessibility: { resourceIdRegex: "com\\.example\\.myapp:id/login" } },
        })
      ).message,
    ).toEndWith("; moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginToHome)");
    expect((await call("tapOnElementWithText", { text: "Settings" })).message).toBe(
      'simulated device: tapOnElementWithText text "Settings" on #9 TextView "Settings" [540,2200][1080,2400]; moved from myapp/android/home to myapp/android/settings (shortcut myapp_android_homeToSettings)',
    );
    // An older recording's legacy selector, as the shortcut itself records it.
    expect(
      (await call("tapOnElementBySelector", { selector: { textRegex: "Profile", childOf: { idRegex: ".*:id/row_profile" } } })).message,
    ).toEndWith("; moved from myapp/android/settings to myapp/android/profile (shortcut myapp_android_settingsToProfile)");
    expect(await call("assertWaypoint", { waypoint: "myapp/android/profile" })).toMatchObject({
      variant: "Success",
      message: "at waypoint myapp/android/profile (the device is at myapp/android/profile)",
    });
    expect(await call("assertWaypoint", { waypoint: "myapp/android/settings" })).toMatchObject({
      variant: "ExceptionThrown",
      message:
        'assertWaypoint: the screen is not at waypoint "myapp/android/settings": the device is at myapp/android/profile: required "Settings heading" not found; required "Profile row" not found; required "Notifications switch, right of its label" not found',
    });
    expect((await call("assertWaypoint", { waypoint: "myapp/android/nowhere" })).message).toBe(
      'assertWaypoint: the screen is not at waypoint "myapp/android/nowhere": unknown waypoint "myapp/android/nowhere"; the map fixtures/demo/maps/myapp has myapp/android/home, myapp/android/login, myapp/android/profile, myapp/android/settings',
    );
  });

  test("an action no shortcut explains leaves the screen as it is and says so; checks do not move it", async () => {
    const { call } = await demoMap();
    expect((await call("inputText", { text: "ada" })).message).toBe(
      'simulated device: inputText "ada"; screen unchanged at myapp/android/login: no shortcut from myapp/android/login records inputText (its shortcuts: myapp_android_loginToHome)',
    );
    expect((await call("tapOnElementWithText", { text: "Forgot password?" })).message).toBe(
      'simulated device: tapOnElementWithText text "Forgot password?" on #6 TextView "Forgot password?" [60,1080][1020,1160]; screen unchanged at myapp/android/login: no shortcut from myapp/android/login records tapOnElementWithText on #6 TextView "Forgot password?" [60,1080][1020,1160] (its shortcuts: myapp_android_loginToHome)',
    );
    expect((await call("assertVisibleWithText", { text: "Welcome back" })).message).toBe(
      '"Welcome back" is visible (#2 TextView "Welcome back" id=com.example.myapp:id/title [60,200][1020,320])',
    );
    expect((await call("assertWaypoint", { waypoint: "myapp/android/login" })).variant).toBe("Success");
  });
});

describe("what the screen saw, for a run's report", () => {
  test("takeActivity: the nodes tools resolved or acted on, the shortcuts taken; then it starts afresh", async () => {
    const { call, device } = await demoMap();
    const screen = device.screen as EngineScreen;
    const none = { nodes: [], moves: [], checks: [], misses: [] };
    expect(screen.takeActivity()).toEqual(none);
    await call("assertWaypoint", { waypoint: "myapp/android/login" });
    await call("tapOnElementBySelector", { nodeSelector: { androidAccessibility: { resourceIdRegex: "com\\.example\\.myapp:id/login" } } });
    expect(screen.takeActivity()).toEqual({
      nodes: [2, 5],
      moves: [{ from: "myapp/android/login", to: "myapp/android/home", shortcut: "myapp_android_loginToHome" }],
      checks: ["myapp/android/login"],
      misses: [],
    });
    expect(screen.takeActivity()).toEqual(none);
    // A failed waypoint check marks what it found: here the bottom navigation, which settings forbids.
    await call("assertWaypoint", { waypoint: "myapp/android/settings" });
    expect(screen.takeActivity()).toMatchObject({ nodes: [7], checks: ["myapp/android/settings"] });
    // A selector and a text that match nothing are kept, as selectors, for the report to look for elsewhere.
    await call("assertVisibleWithText", { text: "No such text" });
    const { misses } = screen.takeActivity();
    expect(misses.map(describeSelector)).toEqual([describeSelector(textSelector({ text: "No such text" }, "pattern"))]);
  });
});
