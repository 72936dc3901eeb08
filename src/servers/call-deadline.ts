// One tools/call's limits: the idle timeout that progress resets, the overall cap, the caller's
// signal and the connection closing — all ending in one AbortSignal whose reason says which.

/** How many times the per-call timeout the overall cap is, when none is configured. */
export const DEFAULT_TOTAL_TIMEOUT_FACTOR = 10;

/**
 * Why a call was aborted. The SDK sends `String(reason)` as the `notifications/cancelled`
 * reason, so `toString()` is the plain text the server sees.
 */
export class CallAbort extends Error {
  readonly kind: "timeout" | "cap" | "caller" | "closing";
  constructor(kind: CallAbort["kind"], message: string) {
    super(message);
    this.kind = kind;
  }
  override toString(): string {
    return this.message;
  }
}

interface CallDeadlineOptions {
  /** Idle time allowed without an answer or progress, in ms. */
  timeoutMs: number;
  /** Overall bound in ms; raised to `timeoutMs` when lower. */
  maxTotalTimeoutMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal | undefined;
}

export class CallDeadline implements Disposable {
  readonly timeoutMs: number;
  readonly capMs: number;
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort = () => this.abort(new CallAbort("caller", describeReason(this.#callerSignal?.reason)));
  #idle: ReturnType<typeof setTimeout> | undefined;
  readonly #cap: ReturnType<typeof setTimeout>;

  constructor(options: CallDeadlineOptions) {
    this.timeoutMs = options.timeoutMs;
    this.capMs = Math.max(options.timeoutMs, options.maxTotalTimeoutMs);
    this.#callerSignal = options.signal;
    this.#cap = setTimeout(() => this.abort(new CallAbort("cap", `timed out after ${this.capMs} ms overall`)), this.capMs);
    this.progressed();
    if (this.#callerSignal?.aborted) this.#onCallerAbort();
    this.#callerSignal?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  /** Aborted with a {@link CallAbort} when any limit is hit. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the call was aborted, if it was. */
  get aborted(): CallAbort | undefined {
    const reason: unknown = this.#controller.signal.reason;
    return reason instanceof CallAbort ? reason : undefined;
  }

  /** The server reported progress: the idle timeout starts over (the cap does not). */
  progressed(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.abort(new CallAbort("timeout", `timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
  }

  abort(reason: CallAbort): void {
    this.#controller.abort(reason);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#idle);
    clearTimeout(this.#cap);
    this.#callerSignal?.removeEventListener("abort", this.#onCallerAbort);
  }
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (reason === undefined) return "the caller aborted the call";
  return String(reason);
}
