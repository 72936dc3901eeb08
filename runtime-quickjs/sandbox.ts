// One QuickJS runtime + context with limits, the host bridge installed, and "deliveries": every
// entry from the host into the guest (a message, a timer, an execute result) runs under a fresh
// deadline and is followed by draining the guest's pending jobs.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule, QuickJSDeferredPromise } from "quickjs-emscripten";
import { GUEST_GLOBAL, HOST_GLOBAL } from "./guest/host-bridge.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** An exception that escaped guest code, copied out of the VM. */
export interface GuestError {
  kind: "interrupted" | "out-of-memory" | "exception";
  name: string;
  message: string;
  stack: string;
}

export interface SandboxOptions {
  memoryLimitBytes: number;
  stackLimitBytes: number;
  callDeadlineMs: number;
  onLog: (level: LogLevel, text: string) => void;
  onExecute: ((name: string, args: Record<string, unknown>) => Promise<unknown>) | undefined;
  /** A guest→host MCP message (JSON). Called synchronously from guest code. */
  onGuestMessage: (json: string) => void;
  /** The guest transport closed itself (the author called `server.close()`). */
  onDetach: () => void;
  /** A delivery that ran after evaluation (timer, execute result) ended with a guest error. */
  onAsyncError: (error: GuestError, what: string) => void;
}

const LEVELS = new Set<LogLevel>(["debug", "info", "warn", "error"]);

export function isOutOfMemoryText(text: string): boolean {
  return text === "out of memory" || text === "InternalError: out of memory";
}

export class Sandbox {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private deadline = 0;
  private inGuest = false;
  private disposed = false;
  private disposeRequested = false;
  private receive: QuickJSHandle | undefined;
  private fireTimer: QuickJSHandle | undefined;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly deferreds = new Set<QuickJSDeferredPromise>();
  /** Resolves when the guest transport attaches (the author's `server.connect(...)`). */
  readonly attached: Promise<void>;
  private markAttached!: () => void;

  constructor(module: QuickJSWASMModule, private readonly opts: SandboxOptions) {
    this.attached = new Promise((resolve) => (this.markAttached = resolve));
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(opts.memoryLimitBytes);
    this.runtime.setMaxStackSize(opts.stackLimitBytes);
    this.runtime.setInterruptHandler(() => Date.now() > this.deadline);
    this.vm = this.runtime.newContext();
    this.installBridge();
  }

  get alive(): boolean {
    return !this.disposed && !this.disposeRequested;
  }

  get isAttached(): boolean {
    return this.receive !== undefined;
  }

  private installBridge(): void {
    const vm = this.vm;
    using bridge = vm.newObject();
    const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | void) => {
      using handle = vm.newFunction(name, impl);
      vm.setProp(bridge, name, handle);
    };
    fn("log", (level, text) => {
      const name = vm.getString(level) as LogLevel;
      this.opts.onLog(LEVELS.has(name) ? name : "info", vm.getString(text));
    });
    fn("setTimer", (id, ms) => this.setTimer(vm.getNumber(id), vm.getNumber(ms)));
    fn("clearTimer", (id) => {
      const timer = this.timers.get(vm.getNumber(id));
      clearTimeout(timer);
      this.timers.delete(vm.getNumber(id));
    });
    fn("send", (json) => this.opts.onGuestMessage(vm.getString(json)));
    fn("attach", (receive) => {
      if (this.receive) throw new Error("Only one StdioServerTransport can be connected per QuickJS server");
      this.receive = receive.dup();
      this.markAttached();
    });
    fn("detach", () => this.opts.onDetach());
    fn("execute", (name, argsJson) => this.execute(vm.getString(name), vm.getString(argsJson)));
    vm.defineProp(vm.global, HOST_GLOBAL, { value: bridge, configurable: false, enumerable: false });
  }

  /** Evaluates the guest prelude (trusted setup code) and picks up the hooks it exposes. */
  installPrelude(code: string): void {
    const error = this.deliver(() => this.vm.evalCode(code, "trailblaze-prelude.js").error);
    if (error) throw new Error(`the QuickJS prelude failed: ${error.stack || error.message}`);
    using hooks = this.vm.getProp(this.vm.global, GUEST_GLOBAL);
    this.fireTimer = this.vm.getProp(hooks, "fireTimer");
  }

  /**
   * Evaluates a script as one delivery. `sync` is the error thrown while evaluating; `settled`
   * resolves once the script's value settles (a bundle's async wrapper is a promise; anything
   * else settles at once) with the rejection, if any. It never settles if the VM is disposed first.
   */
  evaluate(code: string, filename: string): { sync: GuestError | undefined; settled: Promise<GuestError | undefined> } {
    let settled: Promise<GuestError | undefined> = Promise.resolve(undefined);
    const sync = this.deliver(() => {
      const result = this.vm.evalCode(code, filename);
      if (result.error) return result.error;
      using value = result.value;
      settled = this.vm.resolvePromise(value).then((outcome) => {
        if (!outcome.error) {
          outcome.value.dispose();
          return undefined;
        }
        if (this.disposed) return undefined;
        const error = this.copyError(outcome.error);
        outcome.error.dispose();
        return error;
      });
      return undefined;
    });
    return { sync, settled };
  }

  /** Hands one MCP message (JSON) to the guest transport. */
  deliverMessage(json: string): GuestError | undefined {
    const receive = this.receive;
    if (!receive) throw new Error("the guest transport is not attached");
    return this.deliver(() => {
      using arg = this.vm.newString(json);
      return this.callForError(receive, arg);
    });
  }

  private callForError(fn: QuickJSHandle, arg: QuickJSHandle): QuickJSHandle | undefined {
    const result = this.vm.callFunction(fn, this.vm.undefined, arg);
    if (result.error) return result.error;
    result.value.dispose();
    return undefined;
  }

  /**
   * Runs `enter` (which calls into the guest and returns the exception handle, if any) under a
   * fresh deadline, then drains pending jobs, each batch again under a fresh deadline. Returns
   * the first guest error. A dispose requested meanwhile happens after the drain.
   */
  private deliver(enter: () => QuickJSHandle | undefined): GuestError | undefined {
    if (this.disposed) throw new Error("the QuickJS sandbox is disposed");
    if (this.inGuest) throw new Error("re-entrant delivery into the QuickJS guest");
    this.inGuest = true;
    let first: GuestError | undefined;
    try {
      this.deadline = Date.now() + this.opts.callDeadlineMs;
      const error = enter();
      if (error) {
        first = this.copyError(error);
        error.dispose();
      }
      // A failed job stops the queue; the jobs behind it belong to other work, so keep going.
      for (let round = 0; round < 10_000 && this.runtime.hasPendingJob(); round++) {
        this.deadline = Date.now() + this.opts.callDeadlineMs;
        const jobs = this.runtime.executePendingJobs();
        if (jobs.error) {
          first ??= this.copyError(jobs.error);
          jobs.error.dispose();
        }
      }
    } finally {
      this.inGuest = false;
      if (this.disposeRequested) this.dispose();
    }
    return first;
  }

  private copyError(handle: QuickJSHandle): GuestError {
    const dumped: unknown = this.vm.dump(handle);
    const record = (typeof dumped === "object" && dumped !== null ? dumped : { message: String(dumped) }) as Record<string, unknown>;
    const name = typeof record["name"] === "string" ? record["name"] : "Error";
    const message = typeof record["message"] === "string" ? record["message"] : String(dumped);
    const stack = typeof record["stack"] === "string" ? record["stack"] : "";
    const kind =
      name === "InternalError" && message === "interrupted" ? "interrupted" : isOutOfMemoryText(message) ? "out-of-memory" : "exception";
    return { kind, name, message, stack };
  }

  private setTimer(id: number, ms: number): void {
    clearTimeout(this.timers.get(id));
    const timer = setTimeout(() => {
      this.timers.delete(id);
      const fire = this.fireTimer;
      if (this.disposed || !fire) return;
      const error = this.deliver(() => {
        using arg = this.vm.newNumber(id);
        return this.callForError(fire, arg);
      });
      if (error) this.opts.onAsyncError(error, "a timer callback");
    }, ms);
    timer.unref?.();
    this.timers.set(id, timer);
  }

  private execute(name: string, argsJson: string): QuickJSHandle {
    const deferred = this.vm.newPromise();
    this.deferreds.add(deferred);
    const settle = (apply: () => void) => {
      this.deferreds.delete(deferred);
      if (this.disposed) return;
      const error = this.deliver(() => {
        apply();
        return undefined;
      });
      if (error) this.opts.onAsyncError(error, `the continuation of trailblaze.execute("${name}")`);
    };
    const onExecute = this.opts.onExecute;
    Promise.resolve()
      .then(() => {
        if (!onExecute) throw new Error(`trailblaze.execute("${name}") is not available: this QuickJS server was started without onExecute`);
        return onExecute(name, JSON.parse(argsJson) as Record<string, unknown>);
      })
      .then((value) => JSON.stringify(value ?? null))
      .then(
        (json) =>
          settle(() => {
            using handle = this.vm.newString(json);
            deferred.resolve(handle);
          }),
        (error: unknown) =>
          settle(() => {
            const message = error instanceof Error ? error.message : String(error);
            using handle = this.vm.newError({ name: error instanceof Error ? error.name : "Error", message });
            deferred.reject(handle);
          }),
      );
    return deferred.handle;
  }

  /** Bytes the guest heap uses now (QuickJS's own accounting). */
  memoryUsage(): number {
    if (this.disposed) return 0;
    using usage = this.runtime.computeMemoryUsage();
    const dumped = this.vm.dump(usage) as { memory_used_size?: number };
    return dumped.memory_used_size ?? 0;
  }

  /** Stops timers and frees every handle, the context and the runtime. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    if (this.inGuest) {
      this.disposeRequested = true;
      return;
    }
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const deferred of this.deferreds) deferred.dispose();
    this.deferreds.clear();
    this.receive?.dispose();
    this.fireTimer?.dispose();
    this.vm.dispose();
    this.runtime.dispose();
  }
}
