import { describe, expect, test } from "bun:test";
import { buildContext } from "../core/context.ts";
import { recordedArgIssues } from "../registry/recorded-args.ts";
import { frameworkTools, SimulatedDevice } from "./index.ts";
import type { DeviceScreen, ScreenNode } from "./screen-checks.ts";

const context = buildContext(
  { sessionId: "simulated-device", invocationId: "call-1" },
  { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
  {},
);

function device(options: ConstructorParameters<typeof SimulatedDevice>[0] = {}) {
  const state = new SimulatedDevice(options);
  const tools = new Map(frameworkTools(state).map((t) => [t.name, t]));
  const call = (name: string, args: Record<string, unknown> = {}) => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no built-in ${name}`);
    return tool.invoke({ args, context });
  };
  return { state, tools, call };
}

/** A screen with nodes showing texts, for the with-screen paths. */
function fakeScreen(texts: Record<string, string>): DeviceScreen & { applied: string[] } {
  const nodes = Object.keys(texts).map((nodeId): ScreenNode => ({ nodeId }));
  const match = (found: ScreenNode[]) => ({
    kind: found.length === 0 ? ("noMatch" as const) : found.length === 1 ? ("singleMatch" as const) : ("multipleMatches" as const),
    nodes: found,
  });
  const applied: string[] = [];
  return {
    applied,
    resolve: (selector) =>
      match(nodes.filter((n) => typeof selector.textRegex === "string" && new RegExp(`^${selector.textRegex}$`).test(texts[n.nodeId]!))),
    findByText: ({ text }, mode) =>
      match(
        nodes.filter((n) =>
          mode === "pattern" ? new RegExp(`^${text}$`).test(texts[n.nodeId]!) : texts[n.nodeId]!.toLowerCase().includes(text.toLowerCase()),
        ),
      ),
    findByRef: (ref) => match(nodes.filter((n) => n.nodeId === ref)),
    selectorOf: (node) => ({ textRegex: texts[node.nodeId] }),
    hitTest: () => nodes[0],
    textOf: (node) => texts[node.nodeId],
    checkWaypoint: (id) => ({ ok: id === "home", detail: "fake" }),
    apply: (tool) => {
      applied.push(tool);
      return Promise.resolve({ moved: false, message: "screen unchanged" });
    },
  };
}

describe("framework tools on the simulated device", () => {
  test("actions change the device and are recorded in order with a timestamp", async () => {
    const { state, call } = device({ installedApps: ["com.example.other"] });
    const before = Date.now();
    expect(await call("launchApp", { appId: "com.example.myapp", launchMode: "resume" })).toMatchObject({
      variant: "Success",
      message: "simulated device: launchApp com.example.myapp (RESUME)",
    });
    expect((await call("tapOnPoint", { x: 10, y: 20 })).message).toBe("simulated device: tapOnPoint (10, 20)");
    expect((await call("inputText", { text: 1234 })).message).toBe('simulated device: inputText "1234"');
    expect((await call("eraseText", { charactersToErase: 2 })).message).toBe("simulated device: eraseText 2");
    expect(state.focusedText).toBe("12");
    await call("mobile_setClipboard", { text: "ada" });
    await call("mobile_pasteClipboard");
    expect(state.focusedText).toBe("12ada");
    await call("clearText");
    expect(state.focusedText).toBe("");
    expect((await call("networkConnection", { connected: false })).message).toBe("simulated device: network offline (airplane mode)");
    expect(state.connected).toBe(false);
    expect((await call("mobile_listInstalledApps")).structuredContent).toEqual({ appIds: ["com.example.myapp", "com.example.other"] });
    expect((await call("swipe", { direction: "up" })).message).toBe("simulated device: swipe UP");
    expect((await call("pressKey", { keyCode: "home" })).message).toBe("simulated device: pressKey HOME");
    expect(state.foregroundApp).toBeUndefined();
    expect(state.actions.map((a) => a.action)).toEqual([
      "launchApp",
      "tapOnPoint",
      "inputText",
      "eraseText",
      "mobile_setClipboard",
      "mobile_pasteClipboard",
      "clearText",
      "networkConnection",
      "swipe",
      "pressKey",
    ]);
    for (const action of state.actions) expect(Date.parse(action.at)).toBeGreaterThanOrEqual(before - 1);
    expect(state.actions[1]).toMatchObject({ action: "tapOnPoint", x: 10, y: 20, app: "com.example.myapp" });
  });

  test("wait: {} waits 5 s; timeToWaitInSeconds sets it", async () => {
    const slept: number[] = [];
    const { call } = device({ sleep: async (ms) => void slept.push(ms) });
    expect((await call("wait", {})).message).toBe("waited 5 s");
    expect((await call("wait", { timeToWaitInSeconds: "2" })).message).toBe("waited 2 s");
    expect(slept).toEqual([5000, 2000]);
  });

  test("objectiveStatus takes any case and needs an explanation; FAILED fails", async () => {
    const { call } = device();
    expect((await call("objectiveStatus", { status: "completed", explanation: "logged in" })).message).toBe(
      "objective completed: logged in",
    );
    expect(await call("objectiveStatus", { status: "Failed", explanation: "no button" })).toMatchObject({
      variant: "ExceptionThrown",
      message: "objective failed: no button",
    });
    expect(await call("objectiveStatus", { status: "COMPLETED" })).toMatchObject({
      variant: "MissingRequiredArgs",
      message: "objectiveStatus: invalid arguments: explanation: required (a string), missing",
    });
  });

  test("inputTextRandom types prefix + digits and remembers them", async () => {
    const { call, state } = device();
    const result = await call("inputTextRandom", { variable: "code" });
    expect(result.variant).toBe("Success");
    const value = (result as { memoryDelta?: Record<string, string> }).memoryDelta!.code!;
    expect(value).toMatch(/^TBZ-\d{6}$/);
    expect(state.focusedText).toBe(value);
    const custom = await call("inputTextRandom", { variable: "v", prefix: "X", digitCount: 3 });
    expect((custom as { memoryDelta?: Record<string, string> }).memoryDelta!.v).toMatch(/^X\d{3}$/);
  });

  test("assertions compare as text; assertMath evaluates", async () => {
    const { call } = device();
    expect((await call("assertEquals", { actual: 5, expected: "5" })).variant).toBe("Success");
    expect(await call("assertNotEquals", { actual: "a", expected: "a" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'expected a value other than "a"',
    });
    expect((await call("assertMath", { expression: "(2 + 3) * 4 ^ 2 / 8", expected: "10" })).message).toBe("(2 + 3) * 4 ^ 2 / 8 = 10");
    expect(await call("assertMath", { expression: "1 + 1", expected: "3" })).toMatchObject({
      message: "Math assertion failed: 1 + 1 evaluated to 2, expected 3",
    });
    expect(await call("assertMath", { expression: "2 +* 3", expected: "5" })).toMatchObject({
      message: 'Math assertion failed: cannot evaluate "2 +* 3": unexpected "*"',
    });
  });

  test("AI-backed tools fail saying they need a model, and what to write instead", async () => {
    const { call } = device();
    expect(await call("assertWithAi", { prompt: "the cart is empty" })).toMatchObject({
      variant: "ExceptionThrown",
      message:
        'assertWithAi needs a model to judge "the cart is empty", and trailblaze-ts does not ask one for a recorded call; replace the call in the recording with tools that replay without one, or write the step in words for the built-in agent (docs/agent.md)',
    });
    expect((await call("rememberWithAi", { prompt: "the total", variable: "t" })).message).toStartWith(
      "rememberWithAi needs a model to read",
    );
  });

  test("without a screen, screen checks are unverified and element actions are recorded but unverified", async () => {
    const { call, state } = device();
    expect(await call("assertVisibleWithText", { text: "Hello Test" })).toEqual({
      variant: "Success",
      message: 'unverified: no screen loaded (would check that "Hello Test" is visible)',
      content: [{ type: "text", text: 'unverified: no screen loaded (would check that "Hello Test" is visible)' }],
      unverified: "no screen loaded",
    });
    const tap = await call("tapOnElementWithText", { text: "Log in" });
    expect(tap).toMatchObject({
      unverified: "no screen loaded",
      message:
        'unverified: no screen loaded (tapOnElementWithText text "Log in" recorded; would check that text "Log in" is on the screen)',
    });
    for (const [name, args] of [
      ["assertNotVisibleWithText", { text: "7:30" }],
      ["assertVisibleBySelector", { nodeSelector: { androidAccessibility: { textRegex: "Groceries" } }, textMatchMode: "prefix" }],
      ["assertVisible", { ref: "y778", expectedText: "OK" }],
      ["scrollUntilTextIsVisible", { text: "Privacy", direction: "up" }],
      ["rememberText", { prompt: "total", variable: "t" }],
      ["assertWaypoint", { waypoint: "app/home" }],
      ["findMatches", { selector: { androidAccessibility: { textRegex: "Co.*" } } }],
    ] as const) {
      expect((await call(name, args)).message).toStartWith("unverified: no screen loaded (");
    }
    expect(state.actions.map((a) => a.action)).toEqual(["tapOnElementWithText", "scrollUntilTextIsVisible"]);
  });

  test("with a screen loaded, the same tools check it", async () => {
    const { call, state } = device();
    const screen = fakeScreen({ n1: "Hello Test", n2: "Total 42", n3: "Log in" });
    state.screen = screen;
    expect((await call("assertVisibleWithText", { text: "Hello.*" })).message).toBe('"Hello.*" is visible (n1)');
    expect(await call("assertNotVisibleWithText", { text: "Log in" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'assertNotVisibleWithText: "Log in" is visible (n3)',
    });
    expect(await call("assertVisibleWithText", { text: "Bye" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'assertVisibleWithText: nothing on the screen matches "Bye"',
    });
    expect((await call("tapOnElementWithText", { text: "Log in" })).message).toBe(
      'simulated device: tapOnElementWithText text "Log in" on n3; screen unchanged',
    );
    expect(await call("rememberNumber", { prompt: "Total 42", variable: "total" })).toMatchObject({ memoryDelta: { total: "42" } });
    expect(screen.applied).toEqual(["tapOnElementWithText"]);
  });

  test("bad arguments say what the schema wants, in the words check uses", async () => {
    const { call, tools, state } = device();
    expect(await call("launchApp", {})).toMatchObject({
      variant: "MissingRequiredArgs",
      message: "launchApp: invalid arguments: appId: required (a string), missing",
    });
    expect(await call("wait", { seconds: 3 })).toMatchObject({
      variant: "ExceptionThrown",
      message: "wait: invalid arguments: seconds: not a parameter of wait (it takes timeToWaitInSeconds)",
    });
    expect(await call("swipe", { direction: "sideways" })).toMatchObject({
      message: 'swipe: invalid arguments: direction: expected one of "UP", "DOWN", "RIGHT", "LEFT" (any case), got a string ("sideways")',
    });
    expect(await call("tapOnPoint", { x: 1080, y: 5 })).toMatchObject({
      message: "tapOnPoint: point (1080, 5) is outside the 1080x2400 screen",
    });
    expect(recordedArgIssues(tools.get("wait")!, { timeToWaitInSeconds: "{{n}}" })).toEqual([]);
    expect(recordedArgIssues(tools.get("wait")!, { timeToWaitInSeconds: "five" })).toEqual([
      { path: ["timeToWaitInSeconds"], message: 'expected a number, got a string ("five")' },
    ]);
    expect(state.actions).toEqual([]);
  });

  test("advertised schemas show upstream's parameters, required ones and defaults", () => {
    const { tools } = device();
    expect(tools.get("wait")!.inputSchema).toEqual({
      type: "object",
      properties: { timeToWaitInSeconds: { default: 5, type: "integer", minimum: 0, maximum: 600 } },
      additionalProperties: false,
    });
    expect(tools.get("objectiveStatus")!.inputSchema.required).toEqual(["explanation", "status"]);
    expect((tools.get("inputTextRandom")!.inputSchema.properties as Record<string, unknown>).prefix).toEqual({
      default: "TBZ-",
      type: "string",
    });
  });
});

describe("what a call checked", () => {
  const checkOf = (result: unknown) => {
    const r = result as { variant: string; unverified?: string; unchecked?: string };
    return r.unverified !== undefined ? `unverified: ${r.unverified}` : r.unchecked !== undefined ? `unchecked: ${r.unchecked}` : r.variant;
  };

  test("with no screen: actions and answers from the device's state are unchecked, screen checks unverified, assertions on memory checked", async () => {
    const { call } = device({ installedApps: ["com.example.myapp"] });
    const acted = "unchecked: acted on a simulated device with no screen loaded";
    expect(checkOf(await call("launchApp", { appId: "com.example.myapp" }))).toBe(acted);
    expect(checkOf(await call("tapOnPoint", { x: 10, y: 20 }))).toBe(acted);
    expect(checkOf(await call("swipe", { direction: "UP" }))).toBe(acted);
    expect(checkOf(await call("wait", { timeToWaitInSeconds: 0 }))).toBe(acted);
    expect(checkOf(await call("mobile_listInstalledApps"))).toBe("unchecked: answered from a simulated device with no screen loaded");
    expect(checkOf(await call("rememberValue", { key: "k", value: 1 }))).toBe("unchecked: only used session memory");
    expect(checkOf(await call("objectiveStatus", { status: "COMPLETED", explanation: "done" }))).toBe("unchecked: only reported a status");
    expect(checkOf(await call("assertVisibleWithText", { text: "Hello" }))).toBe("unverified: no screen loaded");
    expect(checkOf(await call("assertEquals", { actual: "a", expected: "a" }))).toBe("Success");
  });

  test("with a screen loaded, the same actions act on it: nothing is unchecked there but memory and status reports", async () => {
    const { call } = device({ installedApps: ["com.example.myapp"], screen: fakeScreen({ a: "Hello" }) });
    expect(checkOf(await call("launchApp", { appId: "com.example.myapp" }))).toBe("Success");
    expect(checkOf(await call("tapOnPoint", { x: 10, y: 20 }))).toBe("Success");
    expect(checkOf(await call("mobile_listInstalledApps"))).toBe("Success");
    expect(checkOf(await call("assertVisibleWithText", { text: "Hello" }))).toBe("Success");
    expect(checkOf(await call("rememberValue", { key: "k", value: 1 }))).toBe("unchecked: only used session memory");
  });

  test("a device backed by a real page (a browser driver) is no device without a screen", async () => {
    const { call } = device({ realPage: true });
    expect(checkOf(await call("wait", { timeToWaitInSeconds: 0 }))).toBe("Success");
    expect(checkOf(await call("launchApp", { appId: "com.example.myapp" }))).toBe("Success");
  });
});
