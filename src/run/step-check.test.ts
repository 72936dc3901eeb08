import { describe, expect, test } from "bun:test";
import { uncheckedStep } from "./step-check.ts";

const ok = (name: string, extra: Record<string, unknown> = {}) => ({ name, result: { status: "success", variant: "Success", ...extra } });
const failed = (name: string) => ({ name, result: { status: "error", variant: "ExceptionThrown" } });
const acted = (name: string) => ok(name, { unchecked: "acted on a simulated device with no screen loaded" });

describe("what a step checked", () => {
  test("a call that checked something for real, and none that could not check: passed (undefined)", () => {
    expect(uncheckedStep([acted("launchApp"), ok("assertEquals")])).toBeUndefined();
    // A failed call the agent recovered from counts neither way.
    expect(uncheckedStep([failed("tapOnElementWithText"), ok("notes_addNote")])).toBeUndefined();
  });

  test("a check that could not be made makes it unverified with the first one's reason, whatever else checked", () => {
    expect(uncheckedStep([ok("assertEquals"), ok("tap", { unverified: "no screen loaded" }), ok("x", { unverified: "other" })])).toBe(
      "no screen loaded",
    );
  });

  test("calls that only acted: nothing checked, each tool named once, grouped by why", () => {
    expect(uncheckedStep([acted("launchApp"), acted("swipe"), acted("swipe")])).toBe(
      "nothing checked: launchApp, swipe acted on a simulated device with no screen loaded",
    );
    expect(uncheckedStep([acted("launchApp"), ok("rememberValue", { unchecked: "only used session memory" })])).toBe(
      "nothing checked: launchApp acted on a simulated device with no screen loaded; rememberValue only used session memory",
    );
  });

  test("no call, or none that succeeded: nothing checked", () => {
    expect(uncheckedStep([])).toBe("nothing checked: the step made no calls");
    expect(uncheckedStep([failed("tapOnElementWithText")])).toBe("nothing checked: no call succeeded");
  });
});
