import { describe, expect, test } from "bun:test";
import { SandboxError } from "../src/errors.ts";
import { GuestBudget, guestBudgetFrom, type GuestBudgetLimits } from "./guest-budget.ts";

const LIMITS: GuestBudgetLimits = {
  callDeadlineMs: 10_000,
  idleDeliveryMs: 1000,
  idleCpuMs: 2000,
  idleWindowMs: 10_000,
  sessionCpuMs: 300_000,
};

/** A budget on a clock the test moves; `busy(ms, inCall)` is a delivery of that long. */
function clocked(limits: Partial<GuestBudgetLimits> = {}) {
  let now = 0;
  const budget = new GuestBudget({ ...LIMITS, ...limits }, () => now);
  const busy = (ms: number, inCall = false, source = "a timer callback (setInterval)") => {
    now += ms;
    return budget.spend(ms, inCall, source);
  };
  return { budget, busy, idle: (ms: number) => void (now += ms) };
}

describe("deadlines", () => {
  test("a call's deliveries get callDeadlineMs, others idleDeliveryMs, then what is left of the budget outside calls", () => {
    const { budget, busy } = clocked();
    expect(budget.slot(true)).toEqual({ inCall: true, ms: 10_000, limit: "callDeadlineMs" });
    expect(budget.slot(false)).toEqual({ inCall: false, ms: 1000, limit: "idleDeliveryMs" });
    expect(busy(1000)).toBeUndefined();
    // 1200 ms left (200 regained meanwhile): room for a whole delivery. Then 400 ms, which a delivery
    // uses up in 500 ms (regained at 20 % as it runs).
    expect(budget.slot(false)).toEqual({ inCall: false, ms: 1000, limit: "idleDeliveryMs" });
    expect(busy(1000)).toBeUndefined();
    expect(budget.slot(false)).toEqual({ inCall: false, ms: 500, limit: "idleCpuMs" });
    expect(busy(500)).toBe("idleCpuMs");
  });

  test("time outside calls is regained at idleCpuMs per idleWindowMs, up to idleCpuMs; time in calls does not draw on it", () => {
    const { budget, busy, idle } = clocked();
    busy(1000);
    busy(1000);
    idle(10_000);
    expect(budget.slot(false).limit).toBe("idleDeliveryMs");
    expect(busy(9000, true)).toBeUndefined();
    expect(busy(1000)).toBeUndefined();
    // A steady 10 % outside calls (below the 20 % regained) never runs out.
    for (let i = 0; i < 100; i++) {
      idle(900);
      expect(busy(100)).toBeUndefined();
    }
  });

  test("the session's total bounds every deadline and stops the server once used", () => {
    const { budget, busy } = clocked({ sessionCpuMs: 15_000 });
    expect(busy(9000, true)).toBeUndefined();
    expect(budget.slot(true)).toEqual({ inCall: true, ms: 6000, limit: "sessionCpuMs" });
    expect(busy(6000, true)).toBe("sessionCpuMs");
  });
});

describe("messages", () => {
  test("outside calls: what used the time, the call in flight or the last one, the limits and their settings", () => {
    const { budget, busy } = clocked();
    busy(1000);
    busy(1000, false, 'resuming after trailblaze.execute("x")');
    busy(1000);
    expect(budget.exhaustedMessage("idleCpuMs", 'QuickJS server "s"', { label: 'tools/call "arm"', inFlight: false })).toBe(
      'QuickJS server "s" used more CPU outside its calls than it may: a timer callback (setInterval) used 2.0 s of CPU outside any call (3.0 s outside calls in all); ' +
        'the last call was tools/call "arm". Outside calls a server may use 2000 ms at once, regained at 2000 ms per 10000 ms (idleCpuMs, TRAILBLAZE_QUICKJS_IDLE_CPU_MS), ' +
        "and 1000 ms per timer callback or other delivery (idleDeliveryMs, TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS); the server was stopped. " +
        "Do long work inside a tool call, and clear timers that are no longer needed",
    );
  });

  test("the session's total: time in calls and outside them", () => {
    const { budget, busy } = clocked({ sessionCpuMs: 10_000 });
    busy(9500, true);
    busy(500);
    expect(budget.exhaustedMessage("sessionCpuMs", 'QuickJS server "s"', { label: 'tools/call "work"', inFlight: true })).toBe(
      'QuickJS server "s" used its CPU budget for the session, 10000 ms (sessionCpuMs, TRAILBLAZE_QUICKJS_SESSION_CPU_MS): 9.5 s handling calls and 0.5 s outside them ' +
        '(a timer callback (setInterval) used 0.5 s of CPU outside any call); while handling tools/call "work"; the server was stopped',
    );
  });
});

describe("settings from the environment", () => {
  test("TRAILBLAZE_QUICKJS_* set the limits; anything but a positive whole number of ms names the variable", () => {
    expect(guestBudgetFrom({})).toEqual({});
    expect(
      guestBudgetFrom({
        TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS: "250",
        TRAILBLAZE_QUICKJS_IDLE_CPU_MS: "",
        TRAILBLAZE_QUICKJS_SESSION_CPU_MS: "60000",
      }),
    ).toEqual({
      idleDeliveryMs: 250,
      sessionCpuMs: 60_000,
    });
    const error = (() => {
      try {
        guestBudgetFrom({ TRAILBLAZE_QUICKJS_IDLE_CPU_MS: "2s" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).message).toBe(
      'TRAILBLAZE_QUICKJS_IDLE_CPU_MS expects a positive whole number of milliseconds, got "2s"',
    );
  });
});
