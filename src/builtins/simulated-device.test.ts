import { describe, expect, test } from "bun:test";
import { buildContext } from "../core/context.ts";
import { SimulatedDevice, simulatedDeviceTools } from "./simulated-device.ts";

const context = buildContext({ platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" }, {});

function device() {
  const state = new SimulatedDevice();
  const tools = new Map(simulatedDeviceTools(state).map((t) => [t.name, t]));
  const call = (name: string, args: Record<string, unknown> = {}) => tools.get(name)!.invoke({ args, context });
  return { state, tools, call };
}

describe("simulated device", () => {
  test("actions are validated, recorded in order with a timestamp, and answered with what was done", async () => {
    const { state, call } = device();
    const before = Date.now();
    expect(await call("launchApp", { appId: "com.example.myapp", launchMode: "RESUME" })).toMatchObject({
      variant: "Success",
      message: "simulated device: launchApp com.example.myapp (RESUME)",
    });
    expect((await call("tap", { x: 10, y: 20 })).message).toBe("simulated device: tap at (10, 20)");
    expect((await call("tapOnElementWithText", { text: "Log in" })).message).toBe('simulated device: tapOnElementWithText text "Log in"');
    expect((await call("inputText", { text: "ada", reasoning: "focused" })).message).toBe('simulated device: inputText "ada"');
    expect((await call("pressBack")).message).toBe("simulated device: pressBack");
    expect(state.actions.map(({ at: _, ...rest }) => rest)).toEqual([
      { action: "launchApp", app: "com.example.myapp", launchMode: "RESUME" },
      { action: "tap", x: 10, y: 20, app: "com.example.myapp" },
      { action: "tapOnElementWithText", text: "Log in", app: "com.example.myapp" },
      { action: "inputText", text: "ada", app: "com.example.myapp" },
      { action: "pressBack", app: "com.example.myapp" },
    ]);
    for (const action of state.actions) expect(Date.parse(action.at)).toBeGreaterThanOrEqual(before - 1);
    const result = await call("swipe", { direction: "UP" });
    expect(result.structuredContent).toEqual({ simulatedDevice: state.actions.at(-1) });
  });

  test("bad arguments fail with what is wrong", async () => {
    const { call, state } = device();
    expect(await call("launchApp", {})).toMatchObject({
      variant: "MissingRequiredArgs",
      message: "launchApp: invalid arguments: appId: Invalid input: expected string, received undefined",
    });
    expect(await call("tap", {})).toMatchObject({
      variant: "MissingRequiredArgs",
      message: "tap: say what to tap: selector, nodeSelector, text, ref or id, or a point x and y",
    });
    expect(await call("tap", { x: 5 })).toMatchObject({ variant: "MissingRequiredArgs", message: "tap: give both x and y (got only x)" });
    expect(await call("tap", { x: 5, y: 5, text: "OK" })).toMatchObject({ variant: "ExceptionThrown", message: "tap: give either a point (x, y) or an element (text), not both" });
    expect(await call("tap", { x: 1080, y: 5 })).toMatchObject({ variant: "ExceptionThrown", message: "tap: point (1080, 5) is outside the 1080x2400 screen" });
    expect(await call("tapOnPoint", { x: -1, y: 5 })).toMatchObject({ message: "tapOnPoint: point (-1, 5) is outside the 1080x2400 screen" });
    expect(await call("pressKey", { keyCode: "MENU" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'pressKey: invalid arguments: keyCode: Invalid option: expected one of "BACK"|"ENTER"|"HOME"|"BACKSPACE"|"TAB"|"ESCAPE"',
    });
    expect(await call("inputText", { text: "x", colour: "red" })).toMatchObject({
      variant: "ExceptionThrown",
      message: 'inputText: invalid arguments: arguments: Unrecognized key: "colour"',
    });
    expect(state.actions).toEqual([]);
  });

  test("anything that would have to look at the screen fails instead of passing", async () => {
    const { call, state } = device();
    expect(await call("assertVisibleWithText", { text: "Hello Test" })).toEqual({
      variant: "ExceptionThrown",
      content: [],
      message:
        'assertVisibleWithText: the simulated device has no screen to check, so this assertion cannot pass here (it would check that "Hello Test" is visible); ' +
        "run the trail with a real device driver, or assert on tool results and memory with assertEquals",
    });
    for (const [name, args] of [
      ["assertNotVisibleWithText", { text: "7:30" }],
      ["assertVisibleBySelector", { nodeSelector: { androidAccessibility: { textRegex: "Groceries" } } }],
      ["assertVisible", { ref: "y778" }],
      ["scrollUntilTextIsVisible", { text: "Privacy" }],
    ] as const) {
      expect((await call(name, args)).message).toStartWith(`${name}: the simulated device has no screen to check`);
    }
    expect(state.actions).toEqual([]);
  });
});
