// `trailblaze.execute(name, args)` as the host answers it: the guest gets a promise at once; the
// host runs the call (the sandbox's onExecute) and settles the promise with the JSON round trip of
// the result, or rejects it with an Error of the same name and message. Settling resumes the
// guest, which is a delivery of its own (the sandbox's `resume`).
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten";

interface GuestExecuteOptions {
  /** Runs the call; default (undefined): every call rejects, naming why. */
  onExecute: ((name: string, args: Record<string, unknown>) => Promise<unknown>) | undefined;
  /** Whether the sandbox still runs guest code (a promise settled after it stopped is dropped). */
  alive(): boolean;
  /** Resumes the guest: runs `apply` (which settles the promise) as a delivery, saying what for. */
  resume(apply: () => void, what: string): void;
}

export class GuestExecute {
  /** Promises handed to the guest and not settled yet: freed with the sandbox. */
  private readonly deferreds = new Set<QuickJSDeferredPromise>();

  constructor(
    private readonly vm: QuickJSContext,
    private readonly opts: GuestExecuteOptions,
  ) {}

  /** The guest's call: the promise it gets. */
  call(name: string, argsJson: string): QuickJSHandle {
    const vm = this.vm;
    const deferred = vm.newPromise();
    this.deferreds.add(deferred);
    const settle = (apply: () => void) => {
      this.deferreds.delete(deferred);
      if (!this.opts.alive()) return;
      this.opts.resume(apply, `resuming after trailblaze.execute("${name}")`);
    };
    const onExecute = this.opts.onExecute;
    Promise.resolve()
      .then(() => {
        if (!onExecute)
          throw new Error(`trailblaze.execute("${name}") is not available: this QuickJS server was started without onExecute`);
        return onExecute(name, JSON.parse(argsJson) as Record<string, unknown>);
      })
      .then((value) => JSON.stringify(value ?? null))
      .then(
        (json) =>
          settle(() => {
            using handle = vm.newString(json);
            deferred.resolve(handle);
          }),
        (error: unknown) =>
          settle(() => {
            const message = error instanceof Error ? error.message : String(error);
            using handle = vm.newError({ name: error instanceof Error ? error.name : "Error", message });
            deferred.reject(handle);
          }),
      );
    return deferred.handle;
  }

  /** Frees the promises still unsettled (the sandbox frees its runtime). */
  dispose(): void {
    for (const deferred of this.deferreds) deferred.dispose();
    this.deferreds.clear();
  }

  /** Forgets them without freeing (the runtime is reset or abandoned). */
  forget(): void {
    this.deferreds.clear();
  }
}
