// Guest timers backed by host timers: the guest keeps the callbacks, the host keeps the clocks
// and calls back `fireTimer(id)` (each firing is a delivery with its own deadline).
import type { HostBridge } from "./host-bridge.ts";

interface Timer {
  fn: (...args: unknown[]) => void;
  args: unknown[];
  /** Set for setInterval: the period to re-arm with. */
  every: number | undefined;
}

export function makeTimers(host: HostBridge) {
  const timers = new Map<number, Timer>();
  let nextId = 1;
  const delayOf = (ms: unknown) => Math.max(0, Number(ms) || 0);

  function arm(fn: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    if (typeof fn !== "function") throw new TypeError("setTimeout/setInterval need a function (strings are not evaluated)");
    const id = nextId++;
    const delay = delayOf(ms);
    // The host arms it first: past its limit on pending timers it throws, and nothing is kept here.
    host.setTimer(id, delay, repeat);
    timers.set(id, { fn: fn as Timer["fn"], args, every: repeat ? delay : undefined });
    return id;
  }

  function clear(id: unknown): void {
    if (typeof id === "number" && timers.delete(id)) host.clearTimer(id);
  }

  function fireTimer(id: number): void {
    const timer = timers.get(id);
    if (!timer) return;
    if (timer.every === undefined) timers.delete(id);
    else host.setTimer(id, timer.every, true);
    timer.fn(...timer.args);
  }

  return {
    setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) => arm(fn, ms, args, false),
    setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) => arm(fn, ms, args, true),
    clearTimeout: clear,
    clearInterval: clear,
    fireTimer,
  };
}
