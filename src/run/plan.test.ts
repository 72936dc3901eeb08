import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findDriver } from "../core/drivers.ts";
import { parseTrailFile } from "../trail/trail-file.ts";
import { agentStepMessage, classifiersFor, needsAgentMessage, planTrail, type TrailPlan } from "./plan.ts";

const FILES = join(import.meta.dir, "../../fixtures/trail-files");
const load = (name: string) => parseTrailFile(name, readFileSync(join(FILES, name), "utf8"));
const driver = (name: string) => findDriver(name)!;

/** A plan without source positions: what would be dispatched, step by step. */
function shape(plan: TrailPlan) {
  return plan.steps.map((s) => ({
    index: s.index,
    kind: s.step.kind,
    title: s.step.title,
    recordingKey: s.recordingKey,
    calls: s.calls?.map((c) => ({ tool: c.tool, args: c.args })),
  }));
}

describe("planning", () => {
  test("the current and the older list form of one trail give the same plan", () => {
    const current = load("equivalent/login.current.trail.yaml");
    const list = load("equivalent/login.list.trail.yaml");
    const android = driver("android-ondevice-accessibility");
    const a = shape(planTrail(current, classifiersFor(current, android)));
    const b = shape(planTrail(list, classifiersFor(list, android)));
    expect(a).toEqual(b);
    expect(a).toEqual([
      {
        index: 1,
        kind: "trailhead",
        title: "Launch the app",
        recordingKey: "tools",
        calls: [{ tool: "launchApp", args: { appId: "com.example.myapp" } }],
      },
      {
        index: 2,
        kind: "step",
        title: "Log in with the test account",
        recordingKey: "tools",
        calls: [
          { tool: "myapp_logInWithEmail", args: { email: "{{email}}" } },
          { tool: "hideKeyboard", args: {} },
        ],
      },
      {
        index: 3,
        kind: "verify",
        title: "The greeting names the user",
        recordingKey: "tools",
        calls: [{ tool: "assertVisibleWithText", args: { text: "Hello Test" } }],
      },
      { index: 4, kind: "step", title: "Open settings without a recording", recordingKey: undefined, calls: undefined },
    ]);
  });

  test("the session's device key wins, then its platform, then tools; other platforms need an agent", () => {
    const trail = load("contract-example.trail.yaml");
    const android = planTrail(trail, classifiersFor(trail, driver("ANDROID_ONDEVICE_ACCESSIBILITY")));
    expect(android.classifiers).toEqual({ deviceKey: "android-phone", platform: "ANDROID", driver: "android-ondevice-accessibility" });
    expect(android.steps.map((s) => s.recordingKey)).toEqual(["android-phone", "android-phone", "android", "tools"]);
    const ios = planTrail(trail, classifiersFor(trail, driver("ios-host")));
    expect(ios.classifiers).toEqual({ platform: "IOS", driver: "ios-host" });
    expect(ios.steps.map((s) => s.recordingKey)).toEqual([undefined, undefined, undefined, "tools"]);
    expect(needsAgentMessage(ios.steps[0]!, ios.classifiers)).toBe(
      "this step needs an agent: it has recordings for android-phone only (this session replays ios, all, tools), and no model is chosen for the built-in agent: " +
        "give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in trailblaze.yaml (docs/agent.md); or record tool calls for it under recording: tools:",
    );
  });

  test("a step without any recording says so, and why it has no agent; with a model, check says where it goes", () => {
    const trail = load("equivalent/login.current.trail.yaml");
    const plan = planTrail(trail, classifiersFor(trail, driver("ios-host")));
    expect(needsAgentMessage(plan.steps[3]!, plan.classifiers, "--use-recorded-steps replays recordings only")).toBe(
      "this step needs an agent: it has no recording (this session replays ios, all, tools), and --use-recorded-steps replays recordings only; or record tool calls for it under recording: tools:",
    );
    expect(
      agentStepMessage(plan.steps[3]!, plan.classifiers, { label: "gw/m1", origin: "trails/config/trailblaze.yaml:9:12 defaults.model" }),
    ).toBe(
      "this step goes to the built-in agent: it has no recording (this session replays ios, all, tools), and run gives it to gw/m1 " +
        "(chosen by trails/config/trailblaze.yaml:9:12 defaults.model), which asks the model on each run until a passing one saves its calls as the step's recording",
    );
  });
});
