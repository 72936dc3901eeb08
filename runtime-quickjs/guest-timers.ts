// A guest's timers, on the host's own: the prelude's setTimeout/setInterval arm one by id through
// the host bridge, and the host fires it back into the guest (a delivery of its own, sandbox.ts).
// Bounded in number and delay; each remembers what armed it (the call in flight, or the timer
// whose callback armed it), so a budget that runs out can name it.

/** Timers a guest may have pending at once: a loop that never clears them cannot exhaust the host. */
const MAX_PENDING_TIMERS = 10_000;
/** The longest timer delay, in ms (2^31 - 1, the host's own largest). */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

export class GuestTimers {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** `fire`: runs timer `id`'s callback in the guest; `origin` is what armed it, `repeat` whether it is an interval. */
  constructor(private readonly fire: (id: number, origin: string | undefined, repeat: boolean) => void) {}

  /** Arms (or re-arms) timer `id`, armed by `origin`. Throws a RangeError for the guest past MAX_PENDING_TIMERS. */
  set(id: number, ms: number, repeat: boolean, origin: string | undefined): void {
    if (!this.timers.has(id) && this.timers.size >= MAX_PENDING_TIMERS) {
      throw new RangeError(`too many pending timers (at most ${MAX_PENDING_TIMERS} at once on-device); clear the ones you no longer need`);
    }
    clearTimeout(this.timers.get(id));
    // As browsers do: no delay below 0, and none beyond the host's largest (a bigger one would fire at once).
    const delay = Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_TIMER_DELAY_MS) : 0;
    const handle = setTimeout(() => {
      this.timers.delete(id);
      this.fire(id, origin, repeat);
    }, delay);
    handle.unref?.();
    this.timers.set(id, handle);
  }

  clear(id: number): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }

  /** Every pending timer cleared (the sandbox is disposed). */
  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
