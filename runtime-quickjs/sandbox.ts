// One QuickJS instance + runtime + context with limits, the host bridge installed
// (sandbox-bridge.ts), and "deliveries": every entry from the host into the guest (a message, a
// timer, an execute result) runs under a deadline the owner gives it, is followed by draining the
// guest's pending jobs, and is timed (the owner's budgets, guest-budget.ts, are spent from what
// each delivery took). The guest's timers (guest-timers.ts) and trailblaze.execute
// (guest-execute.ts) enter it as deliveries; images of it (sandbox-image.ts) are taken and restored here.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten";
import { GUEST_GLOBAL } from "./guest/host-bridge.ts";
import { GuestExecute } from "./guest-execute.ts";
import { GuestTimers } from "./guest-timers.ts";
import { installHostBridge } from "./sandbox-bridge.ts";
import { isOutOfMemoryText, type Delivery, type GuestError, type SandboxOptions } from "./sandbox-contract.ts";
import {
  dirtyPages,
  imagePages,
  layoutOf,
  sameLayout,
  wasmMemoryOf,
  writePages,
  zeroPages,
  type InstanceLayout,
  type SandboxImage,
} from "./sandbox-image.ts";
import { adoptHandle, forgetRuntime, liveHeapViews } from "./quickjs-internals.ts";

/** After an interrupt, the guest gets this long (at most) to unwind and reply before it counts as stuck. */
const GRACE_MS = 1000;
/** Jobs run per batch between host-side checks. */
const JOB_BATCH = 256;

export class Sandbox {
  /** Dropped on dispose so the instance (and its linear memory) can be collected. */
  private live: { module: QuickJSWASMModule; runtime: QuickJSRuntime; vm: QuickJSContext } | undefined;
  private deadline = 0;
  /** The deadline of the delivery now running, in ms (the grace after an interrupt is no longer). */
  private deliveryMs = 0;
  private interrupts = 0;
  /** Set by `halt()`: guest code is interrupted at once, until the sandbox is disposed. */
  private halted = false;
  private inGuest = false;
  private disposed = false;
  private disposeRequested: "free" | "reset" | "abandon" | undefined;
  /** A failure of a dispose that had to wait for the guest to return. */
  disposeFailure: Error | undefined;
  /** The instance, once disposed by `free` (without error) or `reset`: what may serve another sandbox. */
  private freed: QuickJSWASMModule | undefined;
  private receive: QuickJSHandle | undefined;
  private fireTimer: QuickJSHandle | undefined;
  private readonly timers: GuestTimers;
  /** The call that armed the timer firing now (or the timer that armed it, and so on). */
  private firingOrigin: string | undefined;
  private readonly execute: GuestExecute;
  /** Timers armed and host calls made so far: a sandbox that did any of these cannot be imaged. */
  private effects = 0;
  /** Messages the guest sent so far (an image may be taken after the replies of a handshake). */
  private sends = 0;
  /** Where the setup put the runtime, context and global, and the pages it wrote (see `prepareImage`). */
  private setup: { layout: InstanceLayout; pages: Uint8Array } | undefined;
  /** Whether anything ran in the guest since the setup (the prelude, a restore). */
  private used = false;
  /** Resolves when the guest transport attaches (the author's `server.connect(...)`). */
  readonly attached: Promise<void>;
  private markAttached!: () => void;

  /**
   * The setup every sandbox runs, in the same order, so that on a fresh instance it puts
   * everything at the same addresses (in a given environment: a worker thread's differ from the
   * main thread's): what lets `restore` adopt an image taken from another instance.
   */
  constructor(
    module: QuickJSWASMModule,
    private readonly opts: SandboxOptions,
  ) {
    this.attached = new Promise((resolve) => (this.markAttached = resolve));
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(opts.memoryLimitBytes);
    runtime.setMaxStackSize(opts.stackLimitBytes);
    runtime.setInterruptHandler(() => this.shouldInterrupt());
    this.live = { module, runtime, vm: runtime.newContext() };
    liveHeapViews(runtime, this.live.vm);
    this.timers = new GuestTimers((id, origin, repeat) => this.fire(id, origin, repeat));
    this.execute = new GuestExecute(this.live.vm, {
      onExecute: opts.onExecute,
      alive: () => this.alive,
      resume: (apply, what) => {
        const delivery = this.deliver(undefined, () => {
          apply();
          return undefined;
        });
        this.opts.onAsyncDelivery(delivery, what, what);
      },
    });
    installHostBridge(this.live.vm, {
      maxMessageBytes: opts.maxMessageBytes,
      log: (level, text) => this.opts.onLog(level, text),
      setTimer: (id, ms, repeat) => {
        this.effects++;
        // A timer armed by a timer callback (a setInterval re-arming, too) belongs to what armed that one.
        this.timers.set(id, ms, repeat, this.firingOrigin ?? this.opts.callInFlight?.());
      },
      clearTimer: (id) => this.timers.clear(id),
      sending: () => void this.sends++,
      message: (json) => this.opts.onGuestMessage(json),
      unsent: (reason, leastBytes, id) => this.opts.onUnsentMessage(reason, leastBytes, id),
      attach: (receive) => {
        if (this.receive) throw new Error("Only one StdioServerTransport can be connected per QuickJS server");
        this.receive = receive.dup();
        this.markAttached();
      },
      detach: () => this.opts.onDetach(),
      execute: (name, argsJson) => {
        this.effects++;
        return this.execute.call(name, argsJson);
      },
    });
  }

  /** Measures the setup (its layout, the pages it wrote), so `takeImage` can be used later. Only before anything runs in the guest. */
  prepareImage(): void {
    const memory = this.live && wasmMemoryOf(this.live.module);
    if (this.used || !memory || this.setup) return;
    this.setup = { layout: layoutOf(this.runtime, this.vm), pages: dirtyPages(memory) };
  }

  private get vm(): QuickJSContext {
    if (!this.live) throw new Error("the QuickJS sandbox is disposed");
    return this.live.vm;
  }

  private get runtime(): QuickJSRuntime {
    if (!this.live) throw new Error("the QuickJS sandbox is disposed");
    return this.live.runtime;
  }

  get alive(): boolean {
    return !this.disposed && this.disposeRequested === undefined;
  }

  /** Whether the deadline has interrupted guest code during the delivery now running. */
  get interruptedNow(): boolean {
    return this.inGuest && this.interrupts > 0;
  }

  get isAttached(): boolean {
    return this.receive !== undefined;
  }

  /** First interrupt: grant a short grace so the guest can unwind and reply; a second one means stuck. */
  private shouldInterrupt(): boolean {
    if (this.interrupts > 1 || this.halted) return true;
    const signal = this.opts.haltSignal;
    if (signal !== undefined && Atomics.load(signal, 0) !== 0) {
      this.halted = true;
      return true;
    }
    if (Date.now() <= this.deadline) return false;
    this.interrupts++;
    this.deadline = Date.now() + Math.min(GRACE_MS, this.deliveryMs);
    return true;
  }

  /**
   * Cuts guest code short from now on: the delivery running (if any) is interrupted at once and
   * runs no more jobs, and later ones are too. For a server that is being stopped.
   */
  halt(): void {
    this.halted = true;
  }

  /**
   * This sandbox as an image another fresh sandbox can `restore`: undefined unless `prepareImage`
   * measured its setup and it has done nothing a restore would not repeat (no timer armed, no host call,
   * no message sent but the `sends` expected, no job pending, no host function made since the setup)
   * and is attached.
   */
  takeImage(sends = 0): SandboxImage | undefined {
    const memory = this.live && wasmMemoryOf(this.live.module);
    if (!this.setup || !memory || !this.alive || this.inGuest || !this.receive || !this.fireTimer) return undefined;
    // `effects` counts every timer armed and every host call: at 0, no timer or deferred exists.
    if (this.effects > 0 || this.sends !== sends || this.runtime.hasPendingJob()) return undefined;
    const layout = layoutOf(this.runtime, this.vm);
    if (!sameLayout(layout, this.setup.layout)) return undefined;
    return {
      ...imagePages(memory, this.setup.pages),
      linearBytes: memory.buffer.byteLength,
      layout,
      handles: { fireTimer: this.fireTimer.value, receive: this.receive.value },
    };
  }

  /**
   * Turns this fresh sandbox (set up, nothing evaluated) into the one `image` was taken of, with a
   * new seed for the guest's Math.random. False, with nothing changed, when its setup did not land
   * where the image's did or its memory is smaller; the caller then evaluates as usual.
   */
  restore(image: SandboxImage): boolean {
    const memory = this.live && wasmMemoryOf(this.live.module);
    if (
      !memory ||
      memory.buffer.byteLength < image.linearBytes ||
      this.receive ||
      !sameLayout(layoutOf(this.runtime, this.vm), image.layout)
    )
      return false;
    this.used = true;
    writePages(memory, image);
    // The imaged sandbox's handles are in the restored memory: adopt them at their addresses.
    this.fireTimer = adoptHandle(this.vm, image.handles.fireTimer);
    this.receive = adoptHandle(this.vm, image.handles.receive);
    this.markAttached();
    this.reseed();
    return true;
  }

  /**
   * Puts a sandbox restored from an image taken after a later one of the same lineage (the same
   * handles, at the same addresses) back to `image`: its memory becomes exactly the image's. Only
   * while nothing ran in the guest since the restore but what the image accounts for.
   */
  rewind(image: SandboxImage): void {
    const memory = this.live && wasmMemoryOf(this.live.module);
    if (!memory || this.inGuest || image.handles.receive !== this.receive?.value || image.handles.fireTimer !== this.fireTimer?.value) {
      throw new Error("the QuickJS sandbox cannot be rewound to an image of another lineage (a host bug)");
    }
    zeroPages(memory);
    writePages(memory, image);
    this.reseed();
  }

  /** A new seed for the guest's Math.random (the prelude's generator), so no two restored sessions draw alike. */
  private reseed(): void {
    const seeds = crypto.getRandomValues(new Uint32Array(4));
    const { error } = this.deliver(this.opts.setupDeadlineMs, () => {
      using hooks = this.vm.getProp(this.vm.global, GUEST_GLOBAL);
      using seed = this.vm.getProp(hooks, "seedRandom");
      const args = [...seeds].map((n) => this.vm.newNumber(n));
      const result = this.vm.callFunction(seed, this.vm.undefined, ...args);
      for (const arg of args) arg.dispose();
      if (result.error) return result.error;
      result.value.dispose();
      return undefined;
    });
    if (error) throw new Error(`the QuickJS prelude could not seed Math.random in a restored image: ${error.message}`);
  }

  /** Evaluates the guest prelude (trusted setup code) and picks up the hooks it exposes. */
  installPrelude(code: string): void {
    this.used = true;
    const { error } = this.deliver(this.opts.setupDeadlineMs, () => this.vm.evalCode(code, "trailblaze-prelude.js").error);
    if (error) throw new Error(`the QuickJS prelude failed: ${error.stack || error.message}`);
    using hooks = this.vm.getProp(this.vm.global, GUEST_GLOBAL);
    this.fireTimer = this.vm.getProp(hooks, "fireTimer");
  }

  /**
   * Evaluates a script as one delivery. `settled` resolves once the script's value settles (a
   * bundle's async wrapper is a promise; anything else settles at once) with its rejection, if
   * any; it never settles if the sandbox is disposed first. `settledNow`: it settled within the
   * delivery itself, fulfilled (nothing the host does later can change what the script did).
   */
  evaluate(
    code: string,
    filename: string,
    deadlineMs: number,
  ): { delivery: Delivery; settled: Promise<GuestError | undefined>; settledNow: boolean } {
    let settled: Promise<GuestError | undefined> = Promise.resolve(undefined);
    let settledNow = false;
    let value: QuickJSHandle | undefined;
    const delivery = this.deliver(
      deadlineMs,
      () => {
        const result = this.vm.evalCode(code, filename);
        if (result.error) return result.error;
        value = result.value;
        return undefined;
      },
      () => {
        if (!value) return;
        using _value = value;
        // Read after the jobs ran: a promise that settled by then needs no host-side callbacks.
        const state = this.vm.getPromiseState(value);
        if (state.type === "fulfilled") {
          if (!state.notAPromise) state.value.dispose();
          settledNow = true;
        } else if (state.type === "rejected") {
          const error = this.copyError(state.error);
          state.error.dispose();
          settled = Promise.resolve(error);
        } else {
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
        }
      },
    );
    return { delivery, settled, settledNow };
  }

  /** Hands one MCP message (JSON) to the guest transport. */
  deliverMessage(json: string): Delivery {
    const receive = this.receive;
    if (!receive) throw new Error("the guest transport is not attached");
    return this.deliver(undefined, () => {
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
   * deadline (`deadlineMs`, default what deliveryDeadlineMs says), then drains pending jobs under
   * it, then runs `afterJobs`. A dispose requested meanwhile happens afterwards.
   */
  private deliver(deadlineMs: number | undefined, enter: () => QuickJSHandle | undefined, afterJobs?: () => void): Delivery {
    if (this.disposed) throw new Error("the QuickJS sandbox is disposed");
    if (this.inGuest) throw new Error("re-entrant delivery into the QuickJS guest");
    const ms = deadlineMs ?? this.opts.deliveryDeadlineMs?.() ?? this.opts.setupDeadlineMs;
    this.inGuest = true;
    this.interrupts = 0;
    this.deliveryMs = ms;
    const started = performance.now();
    this.deadline = Date.now() + ms;
    let first: GuestError | undefined;
    try {
      const error = enter();
      if (error) {
        first = this.copyError(error);
        error.dispose();
      }
      // A failed job stops the queue; the jobs behind it belong to other work, so keep going.
      while (this.interrupts <= 1 && !this.halted && this.runtime.hasPendingJob()) {
        const jobs = this.runtime.executePendingJobs(JOB_BATCH);
        if (jobs.error) {
          first ??= this.copyError(jobs.error);
          jobs.error.dispose();
        }
      }
      if (this.halted) {
        first = { kind: "halted", name: "InternalError", message: "interrupted", stack: "" };
      } else if (this.interrupts > 1) {
        first = { kind: "stuck", name: "InternalError", message: "interrupted", stack: "" };
      }
      afterJobs?.();
    } finally {
      this.inGuest = false;
      if (this.disposeRequested) this.disposeFailure = this.dispose(this.disposeRequested);
    }
    return { error: first, interrupted: this.interrupts > 0, elapsedMs: performance.now() - started };
  }

  private copyError(handle: QuickJSHandle): GuestError {
    const dumped: unknown = this.vm.dump(handle);
    const record = (typeof dumped === "object" && dumped !== null ? dumped : { message: String(dumped) }) as Record<string, unknown>;
    const name = typeof record.name === "string" ? record.name : "Error";
    const message = typeof record.message === "string" ? record.message : String(dumped);
    const stack = typeof record.stack === "string" ? record.stack : "";
    const kind =
      name === "InternalError" && message === "interrupted" ? "interrupted" : isOutOfMemoryText(message) ? "out-of-memory" : "exception";
    return { kind, name, message, stack };
  }

  /** Runs timer `id`'s callback in the guest, as armed by `origin` (GuestTimers fires it). */
  private fire(id: number, origin: string | undefined, repeat: boolean): void {
    const fire = this.fireTimer;
    if (!this.alive || !fire) return;
    this.firingOrigin = origin;
    let delivery: Delivery;
    try {
      delivery = this.deliver(undefined, () => {
        using arg = this.vm.newNumber(id);
        return this.callForError(fire, arg);
      });
    } finally {
      this.firingOrigin = undefined;
    }
    const kind = repeat ? "setInterval" : "setTimeout";
    this.opts.onAsyncDelivery(delivery, "running a timer callback", `a timer callback (${origin ? `${kind}, armed by ${origin}` : kind})`);
  }

  /** `heap`: bytes live in the guest heap (QuickJS's accounting); `linear`: the instance's memory size. */
  memoryUsage(): { heap: number; linear: number } {
    if (!this.alive || !this.live) return { heap: 0, linear: 0 };
    using usage = this.runtime.computeMemoryUsage();
    const dumped = this.vm.dump(usage) as { memory_used_size?: number };
    let linear = 0;
    try {
      linear = this.live.module.getWasmMemory().buffer.byteLength;
    } catch {
      // The debug variant does not expose its memory.
    }
    return { heap: dumped.memory_used_size ?? 0, linear };
  }

  /**
   * Stops timers and ends the runtime. `free` frees every handle, the context and the runtime
   * inside the instance, and QuickJS checks that nothing is left (a handle leak fails it); the
   * instance is then handed out (`takeInstance`). `reset` frees nothing inside the instance and
   * hands it out all the same, for a caller that wipes its memory back to a new instance's
   * (walking and freeing every object of a server was most of closing a session). `abandon`
   * frees nothing (after running out of memory QuickJS may hold leaked objects, and freeing the
   * runtime would then abort the instance) and drops the instance. Idempotent. Returns the error
   * if freeing failed.
   */
  dispose(mode: "free" | "reset" | "abandon" = "free"): Error | undefined {
    if (this.disposed) return undefined;
    if (this.inGuest) {
      if (this.disposeRequested !== "abandon") this.disposeRequested = mode;
      return undefined;
    }
    this.disposed = true;
    this.timers.clearAll();
    let failure: Error | undefined;
    if (mode === "reset" && this.live) {
      forgetRuntime(this.live.module, this.live.runtime);
    } else if (mode === "free") {
      try {
        this.execute.dispose();
        this.receive?.dispose();
        this.fireTimer?.dispose();
        this.vm.dispose();
        this.runtime.dispose();
      } catch (error) {
        // The instance aborted (a QuickJS assertion); it is dropped below all the same.
        failure = error instanceof Error ? error : new Error(String(error));
      }
    }
    this.execute.forget();
    this.receive = undefined;
    this.fireTimer = undefined;
    if (mode !== "abandon" && !failure) this.freed = this.live?.module;
    this.live = undefined;
    return failure;
  }

  /** The instance, once (and only if) this sandbox was disposed by `free` without error or by `reset`; given out once. */
  takeInstance(): QuickJSWASMModule | undefined {
    const module = this.freed;
    this.freed = undefined;
    return module;
  }
}
