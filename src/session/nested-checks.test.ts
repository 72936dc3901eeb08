import { describe, expect, test } from "bun:test";
import { exceptionThrown, success } from "../core/tool-result.ts";
import { NestedChecks } from "./nested-checks.ts";

const acted = success("acted", { unchecked: "acted on a simulated device with no screen loaded" });

describe("what a tool's calls through ctx.tools checked", () => {
  test("a tool that made no call answers for itself", () => {
    const checks = new NestedChecks();
    expect(checks.noted).toBe(false);
    expect(checks.apply(success("done"))).toEqual(success("done"));
  });

  test("calls that all only acted leave it unchecked, naming them", () => {
    const checks = new NestedChecks();
    checks.note("android_adbShell", acted);
    checks.note("android_adbShell", acted);
    checks.note("launchApp", acted);
    expect(checks.noted).toBe(true);
    expect(checks.apply(success("launched"))).toMatchObject({
      unchecked: "only called android_adbShell, launchApp, which acted on a simulated device with no screen loaded",
    });
  });

  test("one call that checked for real is enough; a failed one does not count", () => {
    const checks = new NestedChecks();
    checks.note("launchApp", acted);
    checks.note("assertVisibleWithText", exceptionThrown("nothing matches"));
    checks.note("assertEquals", success("equal"));
    expect(checks.apply(success("done"))).toEqual(success("done"));
  });

  test("a check that could not be made leaves it unverified, whatever else checked; a failed tool stays failed", () => {
    const checks = new NestedChecks();
    checks.note("assertEquals", success("equal"));
    checks.note("assertVisibleWithText", success("unverified", { unverified: "no screen loaded" }));
    expect(checks.apply(success("done"))).toMatchObject({ unverified: "assertVisibleWithText (through ctx.tools): no screen loaded" });
    expect(checks.apply(exceptionThrown("boom"))).toEqual(exceptionThrown("boom"));
  });
});
