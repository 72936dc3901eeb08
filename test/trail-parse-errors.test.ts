// Mistakes in trail files: every problem of a file in one error, each at file:line:col.
import { describe, expect, test } from "bun:test";
import { ConfigError } from "../src/errors.ts";
import { parseTrailFile } from "../src/trail/trail-file.ts";

function problems(text: string): string {
  try {
    parseTrailFile("t.trail.yaml", text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("parsed without problems");
}

const DRIVERS =
  "android-ondevice-accessibility, android-ondevice-instrumentation, android-test, revyl-android, ios-host, ios-axe, " +
  "revyl-ios, playwright-native, playwright-electron, compose (or their enum spellings, e.g. ANDROID_ONDEVICE_ACCESSIBILITY)";

describe("file shape", () => {
  test("not a trail at all", () => {
    expect(problems("")).toBe(
      "t.trail.yaml:1:1: expected a trail (a map with config:, trailhead: and trail:, or the older list of - config: / - prompts: blocks), got an empty file",
    );
    expect(problems("config:\n  id: x\n")).toBe(
      "t.trail.yaml:1:1: the trail has no steps; add a trail: list (- step: ... / - verify: ...)",
    );
  });

  test("unknown top-level key", () => {
    expect(problems("config: {id: x}\ntrial:\n  - step: a\n")).toBe('t.trail.yaml:2:1: unknown key "trial"; did you mean "trail"?');
  });

  test("YAML syntax errors", () => {
    expect(problems("trail:\n  - step: a\n   recording: {}\n")).toBe(
      "t.trail.yaml:3:1: YAML syntax error: Sequence item without - indicator",
    );
  });

  test("list form blocks", () => {
    expect(
      problems(
        "- config:\n    id: a\n- config:\n    id: b\n- prompts:\n  - step: x\n- maestro:\n  - launchApp\n- promts:\n  - step: y\n- trailhead: { step: late }\n- { prompts: [], tools: [] }\n",
      ),
    ).toBe(
      "5 configuration problems:\n" +
        "  t.trail.yaml:3:3 [1].config: a second config: block; merge it into the first\n" +
        "  t.trail.yaml:7:3 [3].maestro: maestro: blocks are not supported; record the steps as tool calls (- tools: [...]) instead\n" +
        '  t.trail.yaml:9:3 [4]: unknown key "promts"; did you mean "prompts"?\n' +
        "  t.trail.yaml:11:3 [5].trailhead: trailhead: must come before the first step\n" +
        "  t.trail.yaml:12:3 [6]: expected a block like `- config:`, `- prompts:` or `- tools:`, got a map with 2 keys (prompts, tools); give each block its own -",
    );
  });
});

describe("config block", () => {
  test("unknown keys, wrong types and bad enums together", () => {
    expect(problems("config:\n  id: x\n  titel: y\n  tags: smoke\n  skip: 3\n  memory: [a]\n  agent: cloud\ntrail:\n  - step: x\n")).toBe(
      "5 configuration problems:\n" +
        '  t.trail.yaml:3:3 config: unknown key "titel"; did you mean "title"?\n' +
        '  t.trail.yaml:4:9 config.tags: expected a list, got a string ("smoke")\n' +
        "  t.trail.yaml:5:9 config.skip: expected a boolean, a string or a map, got a number (3)\n" +
        "  t.trail.yaml:6:11 config.memory: expected a map, got a list\n" +
        '  t.trail.yaml:7:10 config.agent: expected "host" or "on-device", got a string ("cloud")',
    );
  });

  test("unknown drivers in driver: and devices: (both device forms)", () => {
    expect(
      problems(
        "config:\n  driver: androidd\n  devices:\n    phone: ANDROID_ONDEVICE_ACESSIBILITY\n    tab: { driver: ios-hots }\ntrail:\n  - step: a\n",
      ),
    ).toBe(
      "3 configuration problems:\n" +
        `  t.trail.yaml:2:11 config.driver: unknown driver "androidd"; known drivers: ${DRIVERS}\n` +
        `  t.trail.yaml:4:12 config.devices.phone: unknown driver "ANDROID_ONDEVICE_ACESSIBILITY"; did you mean "android-ondevice-accessibility"? Known drivers: ${DRIVERS}\n` +
        `  t.trail.yaml:5:20 config.devices.tab.driver: unknown driver "ios-hots"; did you mean "ios-host"? Known drivers: ${DRIVERS}`,
    );
  });

  test("multi-device configurations are refused", () => {
    expect(problems("config:\n  devices:\n    pair: { devices: { a: { classifier: x } } }\ntrail:\n  - step: a\n")).toBe(
      "t.trail.yaml:3:13 config.devices.pair: multi-device configurations are not supported; declare one device per key " +
        "(e.g. android-phone: { driver: ANDROID_ONDEVICE_ACCESSIBILITY })",
    );
  });

  test("args: names, types, defaults and required", () => {
    expect(
      problems(
        "config:\n  args:\n    bad-name: string\n    n: { type: number }\n    o: { required: false }\n    p: { required: true, default: 1 }\n    q: { default: }\n    r: strin\ntrail:\n  - step: x\n",
      ),
    ).toBe(
      "6 configuration problems:\n" +
        '  t.trail.yaml:3:5 config.args: arg name "bad-name" is not an identifier; use letters, digits and _ (not starting with a digit) so {{args.bad-name}} can refer to it\n' +
        '  t.trail.yaml:4:16 config.args.n.type: unknown arg type "number"; known arg types: string, integer, boolean, array, object\n' +
        "  t.trail.yaml:5:20 config.args.o.required: required: false needs a default: (an arg without a default is required)\n" +
        "  t.trail.yaml:6:20 config.args.p.required: required: true contradicts default: (an arg with a default is optional); remove one of them\n" +
        "  t.trail.yaml:7:10 config.args.q.default: default: is empty; args cannot be null: use default: '' for an empty string, or remove default: to make the arg required\n" +
        '  t.trail.yaml:8:8 config.args.r: unknown arg type "strin"; did you mean "string"? Known arg types: string, integer, boolean, array, object',
    );
  });
});

describe("steps and recordings", () => {
  test("every step problem of the file at once", () => {
    const text = [
      "trail:",
      "  - step: a",
      "    verify: b",
      "  - recording: { tools: [] }",
      "  - step: ''",
      "  - stpe: x",
      "  - step: ok",
      "    recording:",
      "      tools:",
      "        - tapOn:",
      "          text: a",
      "        - tapOn: hello",
      "        - 42",
      "  - step: two",
      "    recording: [ { tapOn: {} } ]",
      "    maxRetries: -1",
      "    recordable: yes",
      "",
    ].join("\n");
    expect(problems(text)).toBe(
      "10 configuration problems:\n" +
        "  t.trail.yaml:3:5 trail[0]: has both step: and verify:; a step is one or the other\n" +
        "  t.trail.yaml:4:5 trail[1]: needs step: (what to do) or verify: (what to check)\n" +
        "  t.trail.yaml:5:11 trail[2].step: expected the step text (a non-empty string), got an empty string\n" +
        '  t.trail.yaml:6:5 trail[3]: unknown key "stpe"; did you mean "step"?\n' +
        "  t.trail.yaml:10:11 trail[4].recording.tools[0]: expected a tool call like `tapOn: { text: OK }`, got a map with 2 keys (tapOn, text); " +
        "start each call with its own - and indent arguments under the tool name\n" +
        '  t.trail.yaml:12:18 trail[4].recording.tools[1].tapOn: expected the arguments of tapOn as a map (e.g. tapOn: { name: value }), got a string ("hello")\n' +
        "  t.trail.yaml:13:11 trail[4].recording.tools[2]: expected a tool call like `tapOn: { text: OK }`, got a number (42)\n" +
        "  t.trail.yaml:15:16 trail[5].recording: expected a map from device key, platform or `tools` to tool calls, got a list; " +
        "put the calls under a key, e.g. recording: { tools: [...] }\n" +
        "  t.trail.yaml:16:17 trail[5].maxRetries: expected a whole number >= 0, got a number (-1)\n" +
        '  t.trail.yaml:17:17 trail[5].recordable: expected a boolean, got a string ("yes")',
    );
  });

  test("a recording map holds exactly one call", () => {
    expect(problems("trailhead:\n  step: go\n  recording:\n    android: { a: {}, b: {} }\ntrail:\n  - step: x\n")).toBe(
      "t.trail.yaml:4:14 trailhead.recording.android: a recording written as a map holds one tool call, this one has 2 (a, b); " +
        "write them as a list, one `- tool: {...}` per call",
    );
  });

  test("trailhead shapes", () => {
    expect(problems("trailhead:\n  stpe: go\n  recording: {}\n  tools: []\ntrail:\n  - step: x\n")).toBe(
      "2 configuration problems:\n" +
        '  t.trail.yaml:2:3 trailhead: unknown key "stpe"; did you mean "step"?\n' +
        "  t.trail.yaml:4:3 trailhead: has both recording: and tools:; use recording: { tools: [...] }",
    );
    expect(problems("trailhead: {}\ntrail:\n  - step: x\n")).toBe(
      "t.trail.yaml:1:12 trailhead: an empty trailhead; give it a step: and a recording:",
    );
  });
});
