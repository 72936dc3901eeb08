// Guest `AbortController`/`AbortSignal`: the SDK creates one per request (cancellation) and
// listens for "abort"; a minimal event target is enough.
import { DOMException } from "./dom-exception.ts";

type Listener = ((event: { type: string; target: AbortSignal }) => void) | { handleEvent(event: unknown): void };

export class AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: { type: string; target: AbortSignal }) => void) | null = null;
  private listeners: { listener: Listener; once: boolean }[] = [];

  addEventListener(type: string, listener: Listener | null, options?: boolean | { once?: boolean }): void {
    if (type !== "abort" || !listener || this.listeners.some((l) => l.listener === listener)) return;
    this.listeners.push({ listener, once: typeof options === "object" && options?.once === true });
  }

  removeEventListener(type: string, listener: Listener | null): void {
    if (type === "abort") this.listeners = this.listeners.filter((l) => l.listener !== listener);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** @internal */
  _abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    const event = { type: "abort", target: this };
    const listeners = this.listeners;
    this.listeners = listeners.filter((l) => !l.once);
    this.onabort?.(event);
    for (const { listener } of listeners) {
      if (typeof listener === "function") listener(event);
      else listener.handleEvent(event);
    }
  }

  static abort(reason?: unknown): AbortSignal {
    const signal = new AbortSignal();
    signal._abort(reason);
    return signal;
  }

  static timeout(ms: number): AbortSignal {
    const signal = new AbortSignal();
    setTimeout(() => signal._abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
    return signal;
  }
}

export class AbortController {
  readonly signal = new AbortSignal();
  abort(reason?: unknown): void {
    this.signal._abort(reason);
  }
}
