import { describe, expect, test } from "bun:test";
import { signatureOf, stuckHint } from "./agent-progress.ts";

const tap = (ref: string, reasoning = "why") => signatureOf("tap", { ref, reasoning });

describe("stuck detection", () => {
  test("a signature leaves out the reasoning and reads arguments in key order", () => {
    expect(signatureOf("tap", { reasoning: "a", ref: "n2", longPress: false })).toBe(signatureOf("tap", { longPress: false, ref: "n2" }));
    expect(tap("n2", "first")).toBe(tap("n2", "second"));
    expect(tap("n2")).not.toBe(tap("n3"));
  });

  test("nothing to say about calls that make progress", () => {
    expect(stuckHint([tap("n1"), tap("n2"), tap("n3"), tap("n4")])).toBeUndefined();
    expect(stuckHint([tap("n1")])).toBeUndefined();
  });

  test("the same call twice in a row is a warning; thirty times ends the objective", () => {
    expect(stuckHint([tap("n1"), tap("n2"), tap("n2")])).toEqual({
      level: "warning",
      message:
        "You called tap with the same arguments 2 times in a row, and it is not getting anywhere. Try another action or another way to reach the objective.",
    });
    expect(stuckHint(Array.from({ length: 30 }, () => tap("n2")))).toEqual({
      level: "critical",
      message: "tap was called with the same arguments 30 times in a row without progress.",
    });
  });

  test("a cycle of two or three calls", () => {
    const back = signatureOf("pressBack", {});
    expect(stuckHint([tap("n2"), back, tap("n2"), back])).toMatchObject({
      level: "warning",
      message: expect.stringContaining("(tap → pressBack) 2 times"),
    });
    const rounds = Array.from({ length: 15 }, () => [tap("n2"), back]).flat();
    expect(stuckHint(rounds)?.level).toBe("critical");
  });

  test("one call that takes most of the last fifteen, even with others between", () => {
    const swipe = signatureOf("swipe", { direction: "UP" });
    // 11 swipes among 15 calls, broken up by taps, so no loop is at the end.
    const calls = [swipe, swipe, swipe, tap("n1"), swipe, swipe, swipe, tap("n2"), swipe, swipe, swipe, tap("n3"), swipe, swipe, tap("n4")];
    expect(stuckHint(calls)).toMatchObject({ level: "warning", message: expect.stringContaining("swipe was 11 of your last 15 calls") });
    expect(stuckHint(calls.slice(1))).toBeUndefined();
  });
});
