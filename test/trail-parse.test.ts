// Trail files in both forms, modelled on upstream ones, parse into the same Trail shape.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseTrailFile } from "../src/trail/trail-file.ts";
import type { Trail } from "../src/trail/trail-file.ts";
import { selectRecording, skipReason } from "../src/trail/select-recording.ts";

const ROOT = join(import.meta.dir, "..");
const parse = (name: string): Trail => {
  const file = `fixtures/trail-files/${name}`;
  return parseTrailFile(file, readFileSync(join(ROOT, file), "utf8"));
};

/** The trail without file names and positions (where, argWheres, path), for comparing content. */
function content(trail: Trail): unknown {
  return JSON.parse(
    JSON.stringify({ ...trail, file: undefined }, (key, value) =>
      key === "where" || key === "argWheres" || key === "path" ? undefined : value,
    ),
  );
}

describe("current and list forms", () => {
  test("equivalent files produce the same Trail", () => {
    const current = parse("equivalent/login.current.trail.yaml");
    const list = parse("equivalent/login.list.trail.yaml");
    expect(content(list)).toEqual(content(current));
    expect(content(current)).toEqual({
      id: "login-happy-path",
      title: "Log in with e-mail",
      target: "myapp",
      driver: "android-ondevice-accessibility",
      devices: {},
      memory: { email: "test@example.com" },
      args: {},
      tags: ["smoke", "login"],
      steps: [
        {
          kind: "trailhead",
          title: "Launch the app",
          recordable: true,
          recordings: { tools: [{ tool: "launchApp", args: { appId: "com.example.myapp" } }] },
        },
        {
          kind: "step",
          title: "Log in with the test account",
          recordable: true,
          recordings: {
            tools: [
              { tool: "myapp_logInWithEmail", args: { email: "{{email}}" } },
              { tool: "hideKeyboard", args: {} },
            ],
          },
        },
        {
          kind: "verify",
          title: "The greeting names the user",
          recordable: true,
          recordings: { tools: [{ tool: "assertVisibleWithText", args: { text: "Hello Test" } }] },
        },
        { kind: "step", title: "Open settings without a recording", recordable: true, recordings: {} },
      ],
    });
  });

  test("steps and calls remember where they were written", () => {
    const trail = parse("equivalent/login.list.trail.yaml");
    const file = "fixtures/trail-files/equivalent/login.list.trail.yaml";
    expect(trail.file).toBe(file);
    expect(trail.steps[1]!.where).toEqual({ file, line: 18, col: 7 });
    expect(trail.steps[1]!.recordings.tools![1]!.where).toEqual({ file, line: 23, col: 13 });
    expect(trail.steps[1]!.recordings.tools![0]!.argWheres).toEqual({ email: { file, line: 22, col: 15 } });
  });
});

describe("the contract example", () => {
  const trail = parse("contract-example.trail.yaml");

  test("devices normalize to driver keys", () => {
    expect(trail.devices).toEqual({ "android-phone": "android-ondevice-accessibility" });
  });

  test("a recording is chosen by device key, else platform, else tools", () => {
    const [head, login, verify, any] = trail.steps;
    const phone = { deviceKey: "android-phone", platform: "ANDROID" } as const;
    const ios = { platform: "IOS" } as const;
    expect(selectRecording(head!, phone)?.map((c) => c.tool)).toEqual(["launchApp"]);
    expect(selectRecording(head!, ios)).toBeUndefined();
    expect(selectRecording(login!, phone)?.map((c) => c.args)).toEqual([{ email: "{{email}}" }]);
    expect(selectRecording(verify!, phone)?.map((c) => c.tool)).toEqual(["assertEquals"]);
    expect(selectRecording(verify!, { platform: "ANDROID" })?.map((c) => c.tool)).toEqual(["assertEquals"]);
    expect(selectRecording(any!, ios)?.map((c) => c.tool)).toEqual(["acc_echo"]);
  });
});

describe("upstream-style trail files", () => {
  test("list form with nested selectors, comments, block scalars and quoted digits", () => {
    const trail = parse("upstream-style/notes/create-note/android.trail.yaml");
    expect(trail).toMatchObject({
      id: "android",
      title: "Notes: create a note with a checklist",
      target: "notes",
      platform: "android",
      driver: "android-ondevice-accessibility",
      tags: ["crud"],
    });
    expect(trail.steps.map((s) => [s.kind, s.recordings.tools?.length])).toEqual([
      ["step", 3],
      ["step", 2],
      ["step", 2],
      ["verify", 1],
    ]);
    expect(trail.steps[0]!.recordings.tools![2]!.args).toEqual({
      reason: "The floating action button starts a new note.",
      nodeSelector: { androidAccessibility: { resourceIdRegex: "com.example.notes:id/fab_new_note" } },
    });
    expect(trail.steps[2]!.recordings.tools![1]!.args.text).toBe("0042");
    expect(trail.steps[3]!.recordings.tools![0]!.args.expectedText).toBe("Groceries\n1 item");
  });

  test("a bare - tools: block becomes a step; recordable: false is kept", () => {
    const trail = parse("upstream-style/settings/toggle-dark-mode.trail.yaml");
    expect(trail.id).toBe("settings/toggle-dark-mode");
    expect(trail.steps.map((s) => [s.kind, s.title, s.recordable])).toEqual([
      ["step", "Run settings_android_launchApp", true],
      ["step", "Open the Display section", true],
      ["step", "Turn dark mode on", false],
      ["verify", "Dark theme is active", true],
    ]);
    expect(trail.steps[0]!.recordings).toEqual({
      tools: [{ tool: "settings_android_launchApp", args: {}, where: trail.steps[0]!.recordings.tools![0]!.where }],
    });
  });

  test("current form with device objects, args, per-device skip, metadata and an `all` trailhead", () => {
    const trail = parse("upstream-style/checkout/trail.yaml");
    expect(content({ ...trail, steps: [] })).toEqual({
      id: "shop/checkout-one-item",
      target: "shop",
      description: "Buy one latte and see it in the cart",
      priority: "P1",
      tags: ["smoke"],
      devices: { "android-phone": "android-ondevice-instrumentation", "ios-iphone": "ios-host" },
      skipByDevice: { web: "checkout page not built yet, see #12" },
      memory: { account_email: "qa-buyer@example.com", tier: 5 },
      args: {
        item: { type: "string", required: true },
        quantity: { type: "integer", default: 1, required: false },
        coupon: { type: "string", description: "Code applied at checkout", default: "007", required: false },
      },
      metadata: { owner: "payments", links: ["https://example.com/spec"] },
      source: { type: "HANDWRITTEN" },
      steps: [],
    });
    const [head, add, coupon, verify] = trail.steps;
    const phone = { deviceKey: "android-phone", platform: "ANDROID" } as const;
    const tablet = { deviceKey: "android-tablet", platform: "ANDROID" } as const;
    expect(selectRecording(head!, { platform: "WEB" })?.map((c) => c.tool)).toEqual(["shop_launchSignedIn"]);
    expect(selectRecording(add!, phone)?.map((c) => c.args)).toEqual([{ id: "menu_latte" }]);
    expect(selectRecording(add!, tablet)?.map((c) => c.args)).toEqual([{ text: "{{args.item}}" }]);
    expect(selectRecording(coupon!, phone)).toEqual([]);
    expect(coupon!.maxRetries).toBe(2);
    expect(selectRecording(coupon!, { platform: "IOS" })).toBeUndefined();
    expect(selectRecording(verify!, phone)).toBeUndefined();
    expect(skipReason(trail, { platform: "WEB" })).toBe("checkout page not built yet, see #12");
    expect(skipReason(trail, phone)).toBeUndefined();
  });
});

describe("config details", () => {
  test("id comes from the file name when config has none", () => {
    expect(parseTrailFile("trails/login/happy.trail.yaml", "trail:\n  - step: a\n").id).toBe("happy");
    expect(parseTrailFile("trails/checkout/trail.yaml", "trail:\n  - step: a\n").id).toBe("checkout");
    expect(parseTrailFile("x.yml", "- prompts:\n  - step: a\n").id).toBe("x");
  });

  test("skip: an empty reason runs the trail; true and a reason skip it", () => {
    const skip = (value: string) => parseTrailFile("t.yaml", `config:\n  skip: ${value}\ntrail:\n  - step: a\n`);
    expect(skip('""').skip).toBeUndefined();
    expect(skipReason(skip('""'), { platform: "ANDROID" })).toBeUndefined();
    expect(skip("true").skip).toBe(true);
    expect(skipReason(skip('"flaky, see #2"'), { platform: "IOS" })).toBe("flaky, see #2");
  });

  test("agent, platform hint, context and upstream-only keys are accepted", () => {
    const trail = parseTrailFile(
      "t.yaml",
      "config:\n  agent: on-device\n  platform: ios\n  context: Be careful\n  electron: { command: ./app }\n  priority: 1\ntrail:\n  - step: a\n",
    );
    expect(trail).toMatchObject({ agent: "on-device", platform: "ios", context: "Be careful", priority: "1" });
  });

  test("a bare-string trailhead is one call with the default title", () => {
    const trail = parseTrailFile("t.yaml", "- trailhead: myapp_freshInstall\n- prompts:\n  - step: a\n");
    expect(trail.steps[0]).toMatchObject({
      kind: "trailhead",
      title: "Reach the trailhead starting state",
      recordings: { tools: [{ tool: "myapp_freshInstall", args: {} }] },
    });
  });
});
