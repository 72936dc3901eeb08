// The host bridge a sandbox installs before anything runs in its guest: the hidden, frozen global
// `__trailblazeHost` (guest/host-bridge.ts is the guest's side) whose functions the prelude and the
// guest transport call. Each function reads its arguments as a hostile guest may give them (any
// value, of any type) and hands the sandbox plain values; what the sandbox does with them is its own.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten";
import { HOST_GLOBAL } from "./guest/host-bridge.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

const LEVELS = new Set<LogLevel>(["debug", "info", "warn", "error"]);

/** What the sandbox does for each bridge function, given plain values. */
export interface BridgeHooks {
  /** Largest message the guest may send, in UTF-8 bytes (see the sandbox's maxMessageBytes). */
  maxMessageBytes: number;
  /** A console line; an unknown level is `info`. */
  log(level: LogLevel, text: string): void;
  setTimer(id: number, ms: number, repeat: boolean): void;
  clearTimer(id: number): void;
  /** The guest called `send`, whatever becomes of its message (counted for images). */
  sending(): void;
  /** A message the guest sent, copied out. */
  message(json: string): void;
  /** A message the guest could not send, with a lower bound of its size and the request it answers, if any. */
  unsent(reason: string, leastBytes: number, id: string | number | undefined): void;
  /** The guest transport attached its receive function (the sandbox keeps the handle; it is the bridge's call's to dup). */
  attach(receive: QuickJSHandle): void;
  detach(): void;
  /** `trailblaze.execute(name, argsJson)`: the guest gets the promise handle returned. */
  execute(name: string, argsJson: string): QuickJSHandle;
}

/** Installs `__trailblazeHost` on the context's global object. */
export function installHostBridge(vm: QuickJSContext, hooks: BridgeHooks): void {
  using bridge = vm.newObject();
  const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | void) => {
    using handle = vm.newFunction(name, impl);
    vm.setProp(bridge, name, handle);
  };
  fn("log", (level, text) => {
    const name = vm.getString(level) as LogLevel;
    hooks.log(LEVELS.has(name) ? name : "info", vm.getString(text));
  });
  fn("setTimer", (id, ms, repeat) => hooks.setTimer(vm.getNumber(id), vm.getNumber(ms), repeat !== undefined && vm.dump(repeat) === true));
  fn("clearTimer", (id) => hooks.clearTimer(vm.getNumber(id)));
  fn("send", (json) => {
    hooks.sending();
    using length = vm.getProp(json, "length");
    const units = vm.typeof(length) === "number" ? vm.getNumber(length) : 0;
    if (units > hooks.maxMessageBytes) return hooks.unsent("too large", units, undefined);
    const text = vm.getString(json);
    // Copying a string out that is not all ASCII takes memory in the guest; without it QuickJS gives none.
    if (text === "" && units > 0) return hooks.unsent("InternalError: out of memory", units, undefined);
    hooks.message(text);
  });
  fn("unsent", (reason, leastBytes, id) => {
    // Checked as anything else from the guest: a number of bytes, a request id or none.
    const bytes = vm.typeof(leastBytes) === "number" ? vm.getNumber(leastBytes) : 0;
    const kind = id === undefined ? "undefined" : vm.typeof(id);
    const requestId = kind === "string" ? vm.getString(id) : kind === "number" ? vm.getNumber(id) : undefined;
    hooks.unsent(vm.getString(reason), Number.isFinite(bytes) ? bytes : 0, requestId);
  });
  fn("attach", (receive) => hooks.attach(receive));
  fn("detach", () => hooks.detach());
  fn("execute", (name, argsJson) => hooks.execute(vm.getString(name), vm.getString(argsJson)));
  vm.defineProp(vm.global, HOST_GLOBAL, { value: bridge, configurable: false, enumerable: false });
}
