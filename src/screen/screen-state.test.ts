// The screen engine on the demo map: walking it through shortcuts (selector, text, legacy
// selector, Back), staying put with a reason, text rules, hit-testing and closest candidates.
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { DEMO_MAP, screenFixture } from "../../test/support/screens.ts";
import { loadAppMap } from "./app-map.ts";
import { parseSelector } from "./selector.ts";
import { describeNode } from "./screen-model.ts";
import { ScreenState } from "./screen-state.ts";

const LOGIN = "myapp/android/login";

async function demo(start = LOGIN): Promise<ScreenState> {
  return ScreenState.fromMap(await loadAppMap(DEMO_MAP), start);
}

describe("ScreenState on an app map", () => {
  test("walks login → home → settings → profile through three shortcuts, then Back twice", async () => {
    const state = await demo();
    const steps = [
      await state.applyAction("tapOnElementBySelector", { nodeSelector: { androidAccessibility: { textRegex: "Log in" } } }),
      await state.applyAction("tapOnElementWithText", { text: "settings" }),
      await state.applyAction("tapOnElementBySelector", { nodeSelector: { androidAccessibility: { textRegex: "Profile" } } }),
      await state.applyAction("pressBack", {}),
      await state.applyAction("pressBack", {}),
    ];
    expect(steps.map((s) => s.message)).toEqual([
      "moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginToHome)",
      "moved from myapp/android/home to myapp/android/settings (shortcut myapp_android_homeToSettings)",
      "moved from myapp/android/settings to myapp/android/profile (shortcut myapp_android_settingsToProfile)",
      "moved from myapp/android/profile to myapp/android/settings (shortcut myapp_android_profileBack)",
      "moved from myapp/android/settings to myapp/android/home (shortcut myapp_android_settingsBack)",
    ]);
    expect(state.waypoint).toBe("myapp/android/home");
    expect(state.checkWaypoint("myapp/android/home").ok).toBe(true);
    expect(state.checkWaypoint("myapp/android/settings")).toEqual({
      id: "myapp/android/settings",
      platform: "android",
      ok: false,
      required: [
        { description: "Settings heading", kind: "noMatch", nodeIds: [], ok: false },
        { description: "Profile row", kind: "noMatch", nodeIds: [], ok: false },
        { description: "Notifications switch, right of its label", kind: "noMatch", nodeIds: [], ok: false },
      ],
      forbidden: [{ description: "Bottom navigation (hidden on settings)", kind: "singleMatch", nodeIds: [7], ok: false }],
    });
  });

  test("a different selector (and reason) that resolves to the recorded node takes the shortcut too", async () => {
    const state = await demo();
    const outcome = await state.applyAction("tapOnElementBySelector", {
      nodeSelector: { androidAccessibility: { resourceIdRegex: ".*:id/login" } },
      reason: "other words",
    });
    expect(outcome.moved).toBe(true);
  });

  test("an action no shortcut records leaves the screen as it is and says why", async () => {
    const state = await demo();
    const wrongNode = await state.applyAction("tapOnElementBySelector", {
      nodeSelector: { androidAccessibility: { textRegex: "Forgot password\\?" } },
    });
    const otherTool = await state.applyAction("longPressOnElementWithText", { text: "Log in" });
    const back = await state.applyAction("pressBack", {});
    expect([wrongNode, otherTool, back]).toEqual([
      {
        moved: false,
        reason: "no-matching-shortcut",
        message:
          'screen unchanged at myapp/android/login: no shortcut from myapp/android/login records tapOnElementBySelector on #6 TextView "Forgot password?" [60,1080][1020,1160] (its shortcuts: myapp_android_loginToHome)',
      },
      {
        moved: false,
        reason: "no-matching-shortcut",
        message:
          "screen unchanged at myapp/android/login: no shortcut from myapp/android/login records longPressOnElementWithText (its shortcuts: myapp_android_loginToHome)",
      },
      {
        moved: false,
        reason: "no-matching-shortcut",
        message:
          "screen unchanged at myapp/android/login: no shortcut from myapp/android/login records pressBack (its shortcuts: myapp_android_loginToHome)",
      },
    ]);
    expect(state.waypoint).toBe(LOGIN);
  });

  test("a shortcut is recognised by the node its action lands on, whichever tap tool lands there", async () => {
    // myapp_android_loginToHome records tapOnElementBySelector on the Log in button.
    const byText = await demo();
    expect((await byText.applyAction("tapOnElementWithText", { text: "Log in" })).message).toBe(
      "moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginToHome)",
    );
    const byPoint = await demo();
    const button = byPoint.resolve(parseSelector({ androidAccessibility: { textRegex: "Log in" } }, "test")).nodes[0]!;
    const { x, y } = byPoint.tapPoint({
      kind: "selector",
      selector: parseSelector({ androidAccessibility: { textRegex: "Log in" } }, "test"),
    })!;
    expect(button).toBeDefined();
    expect((await byPoint.applyAction("tapOnPoint", { x, y })).moved).toBe(true);
    // Another gesture on the same node is not the recorded tap.
    const pressed = await demo();
    expect((await pressed.applyAction("longPressOnElementWithText", { text: "Log in" })).moved).toBe(false);
  });

  test("a shortcut's action is its first tool that changes the screen: checks and waits before it are not", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shortcut-action-"));
    try {
      cpSync(DEMO_MAP, dir, { recursive: true });
      const file = join(dir, "shortcuts/myapp_android_loginToHome.shortcut.yaml");
      const text = readFileSync(file, "utf8");
      writeFileSync(
        file,
        text.replace(
          "tools:\n",
          "tools:\n  - assertVisibleWithText:\n      text: Log in\n  - wait:\n      seconds: 1\n  - rememberText:\n      text: x\n      variable: y\n",
        ),
      );
      const state = await ScreenState.fromMap(await loadAppMap(dir), LOGIN);
      expect((await state.applyAction("tapOnElementWithText", { text: "Log in" })).message).toBe(
        "moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginToHome)",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("starting at an unknown waypoint is a configuration error naming the known ones", async () => {
    const error = await demo("myapp/android/nowhere").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `${DEMO_MAP}: start: unknown waypoint "myapp/android/nowhere"; the map has myapp/android/home, myapp/android/login, myapp/android/profile, myapp/android/settings`,
    );
  });

  test("in a map of many waypoints, an unknown start names the closest ones and the count, not every id", async () => {
    const map = await loadAppMap(DEMO_MAP);
    const waypoints = new Map(map.waypoints);
    for (let i = 0; i < 20; i++) waypoints.set(`myapp/android/extra-${i}`, map.waypoints.get(LOGIN)!);
    const error = await ScreenState.fromMap({ ...map, waypoints }, "myapp/android/logn").catch((e: unknown) => e);
    expect((error as ConfigError).message).toBe(
      `${DEMO_MAP}: start: unknown waypoint "myapp/android/logn"; did you mean "myapp/android/login", "myapp/android/home" or "myapp/android/profile"?; the map has 24 waypoints, one per waypoints/*.waypoint.yaml`,
    );
  });
});

describe("ScreenState on one capture", () => {
  test("text: taps find the text anywhere in any case, assertions match it as a whole pattern", async () => {
    const state = ScreenState.fromCapture(await screenFixture("android-login.json"));
    const ids = (r: { kind: string; nodes: { id: number }[] }) => [r.kind, ...r.nodes.map((n) => n.id)];
    expect(ids(state.findByText({ text: "log in" }, "contains"))).toEqual(["multipleMatches", 7, 8]);
    expect(ids(state.findByText({ text: "log in", index: 1 }, "contains"))).toEqual(["singleMatch", 8]);
    expect(ids(state.findByText({ text: "log in", enabled: true }, "contains"))).toEqual(["singleMatch", 7]);
    expect(ids(state.findByText({ text: "example.com", id: "nope" }, "contains"))).toEqual(["noMatch"]);
    expect(ids(state.findByText({ text: "log in" }, "pattern"))).toEqual(["singleMatch", 7]);
    expect(ids(state.findByText({ text: "$3.00" }, "contains"))).toEqual(["noMatch"]);
  });

  test("hit-test: interactive before identifiable before smallest, then deepest", async () => {
    const state = ScreenState.fromCapture(await screenFixture("android-login.json"));
    const at = (x: number, y: number) => state.hitTest(x, y)?.id;
    // In a row: the clickable row wins over its (non-interactive) text; the clickable icon wins over the row.
    expect([at(100, 590), at(1000, 590), at(50, 60), at(5, 5), at(2000, 5)]).toEqual([10, 12, 2, 1, undefined]);
  });

  test("closest candidates for a failed selector or text", async () => {
    const state = ScreenState.fromCapture(await screenFixture("android-login.json"));
    expect(state.closestCandidates(parseSelector({ androidAccessibility: { textRegex: "Login" } }, "t")).map(describeNode)).toEqual([
      '#7 Button "Log in" id=com.example.myapp:id/login [40,440][520,500]',
      '#2 TextView "Sign in" id=com.example.myapp:id/title [40,40][1040,120]',
    ]);
    expect(state.closestCandidates("Remember").map((n) => n.id)).toEqual([6]);
    expect(state.closestCandidates("zzzzzz")).toEqual([]);
  });

  test("a static capture never moves", async () => {
    const state = ScreenState.fromCapture(await screenFixture("home.example.json"));
    expect(await state.applyAction("pressBack", {})).toEqual({
      moved: false,
      reason: "static",
      message: "screen unchanged: a static capture (home.example.json) has no shortcuts",
    });
  });
});
