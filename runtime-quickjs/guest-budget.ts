// How much of its thread a QuickJS server may take, across every delivery of a session (messages,
// timer callbacks, resuming after trailblaze.execute, their pending jobs): a delivery while a
// call is in flight gets the call deadline; one outside any call gets a short deadline of its own
// and draws on a duty-cycle budget; all of them draw on a total for the session. The sandbox
// measures each delivery, the server asks here for its deadline and whether a budget ran out.
import { SandboxError } from "../src/errors.ts";

export const DEFAULT_IDLE_DELIVERY_MS = 1000;
export const DEFAULT_IDLE_CPU_MS = 2000;
export const DEFAULT_IDLE_WINDOW_MS = 10_000;
export const DEFAULT_SESSION_CPU_MS = 300_000;

export interface GuestBudgetLimits {
  /** Longest one delivery while a call is in flight, in ms. */
  callDeadlineMs: number;
  /** Longest one delivery outside any call, in ms. */
  idleDeliveryMs: number;
  /** Guest time outside calls the server may use at once, in ms; regained at this much per `idleWindowMs`. */
  idleCpuMs: number;
  idleWindowMs: number;
  /** Guest time a session may use in all, calls included, in ms. */
  sessionCpuMs: number;
}

/** What set a delivery's deadline. */
type DeadlineLimit = "callDeadlineMs" | "idleDeliveryMs" | "idleCpuMs" | "sessionCpuMs";

/** A delivery about to run: whether it serves a call, its deadline and what set it. */
export interface DeliverySlot {
  inCall: boolean;
  ms: number;
  limit: DeadlineLimit;
}

/** The environment variables that set a session's limits, by option. */
export const BUDGET_ENV = {
  idleDeliveryMs: "TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS",
  idleCpuMs: "TRAILBLAZE_QUICKJS_IDLE_CPU_MS",
  sessionCpuMs: "TRAILBLAZE_QUICKJS_SESSION_CPU_MS",
} as const;

/** The budget options `env` sets (TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS, …); a value that is not a positive whole number of ms is an error naming it. */
export function guestBudgetFrom(env: Record<string, string | undefined>): Partial<Pick<GuestBudgetLimits, keyof typeof BUDGET_ENV>> {
  const limits: Partial<Pick<GuestBudgetLimits, keyof typeof BUDGET_ENV>> = {};
  for (const [key, name] of Object.entries(BUDGET_ENV) as [keyof typeof BUDGET_ENV, string][]) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n <= 0)
      throw new SandboxError(`${name} expects a positive whole number of milliseconds, got "${text}"`, "limits");
    limits[key] = n;
  }
  return limits;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export class GuestBudget {
  /** Guest time outside calls still allowed at once (it is regained as time passes). */
  private idleLeft: number;
  private refilledAt: number;
  private used = 0;
  private usedInCalls = 0;
  /** Guest time outside calls, by what used it, for the message that stops the server. */
  private readonly idleBy = new Map<string, number>();

  constructor(
    readonly limits: GuestBudgetLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.idleLeft = limits.idleCpuMs;
    this.refilledAt = now();
  }

  /** The deadline of a delivery about to run (`inCall`: a request of the client is in flight). */
  slot(inCall: boolean): DeliverySlot {
    this.refill();
    let ms = inCall ? this.limits.callDeadlineMs : this.limits.idleDeliveryMs;
    let limit: DeadlineLimit = inCall ? "callDeadlineMs" : "idleDeliveryMs";
    // The budget is regained while the delivery runs too: what it may take before the budget is at 0.
    const rate = this.limits.idleCpuMs / this.limits.idleWindowMs;
    const idleRoom = rate >= 1 ? Infinity : this.idleLeft / (1 - rate);
    if (!inCall && idleRoom < ms) [ms, limit] = [idleRoom, "idleCpuMs"];
    const sessionLeft = this.limits.sessionCpuMs - this.used;
    if (sessionLeft < ms) [ms, limit] = [sessionLeft, "sessionCpuMs"];
    return { inCall, ms: Math.max(1, Math.ceil(ms)), limit };
  }

  /** Records `ms` of guest time; returns the budget it used up, if any (the server must then be stopped). */
  spend(ms: number, inCall: boolean, source: string): "idleCpuMs" | "sessionCpuMs" | undefined {
    // Regained while the delivery ran, as it was spent: a full budget is not capped before the spending.
    this.refill(inCall ? 0 : ms);
    this.used += ms;
    if (inCall) this.usedInCalls += ms;
    else this.idleBy.set(source, (this.idleBy.get(source) ?? 0) + ms);
    if (this.used >= this.limits.sessionCpuMs) return "sessionCpuMs";
    if (!inCall && this.idleLeft <= 0) return "idleCpuMs";
    return undefined;
  }

  /** Adds what was regained since the last time, less `spent`, up to idleCpuMs. */
  private refill(spent = 0): void {
    const now = this.now();
    const { idleCpuMs, idleWindowMs } = this.limits;
    this.idleLeft = Math.min(idleCpuMs, this.idleLeft + ((now - this.refilledAt) * idleCpuMs) / idleWindowMs - spent);
    this.refilledAt = now;
  }

  /** What used the most time outside calls, and how much, with the total when others took part. */
  private idleCulprit(): string {
    let top: [string, number] = ["guest code", 0];
    let total = 0;
    for (const entry of this.idleBy) {
      total += entry[1];
      if (entry[1] > top[1]) top = entry;
    }
    const others = total - top[1] >= 50 ? ` (${seconds(total)} outside calls in all)` : "";
    return `${top[0]} used ${seconds(top[1])} of CPU outside any call${others}`;
  }

  /**
   * Why the server is stopped once `spend` returned `exhausted`. `server`: its label; `call`: the
   * call in flight (`while handling …`) or the last one (`the last call was …`), if any.
   */
  exhaustedMessage(
    exhausted: "idleCpuMs" | "sessionCpuMs",
    server: string,
    call: { label: string; inFlight: boolean } | undefined,
  ): string {
    const { idleCpuMs, idleWindowMs, idleDeliveryMs, sessionCpuMs } = this.limits;
    const about =
      call === undefined ? "no call had been made" : call.inFlight ? `while handling ${call.label}` : `the last call was ${call.label}`;
    if (exhausted === "idleCpuMs") {
      return (
        `${server} used more CPU outside its calls than it may: ${this.idleCulprit()}; ${about}. ` +
        `Outside calls a server may use ${idleCpuMs} ms at once, regained at ${idleCpuMs} ms per ${idleWindowMs} ms ` +
        `(idleCpuMs, ${BUDGET_ENV.idleCpuMs}), and ${idleDeliveryMs} ms per timer callback or other delivery ` +
        `(idleDeliveryMs, ${BUDGET_ENV.idleDeliveryMs}); the server was stopped. ` +
        `Do long work inside a tool call, and clear timers that are no longer needed`
      );
    }
    const idle = this.used - this.usedInCalls;
    return (
      `${server} used its CPU budget for the session, ${sessionCpuMs} ms (sessionCpuMs, ${BUDGET_ENV.sessionCpuMs}): ` +
      `${seconds(this.usedInCalls)} handling calls and ${seconds(idle)} outside them${idle >= 50 ? ` (${this.idleCulprit()})` : ""}; ${about}; ` +
      `the server was stopped`
    );
  }
}
