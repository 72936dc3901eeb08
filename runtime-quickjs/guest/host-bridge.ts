// The contract between the QuickJS host and guest code: the native hooks the host installs
// as the hidden global `__trailblazeHost` before the prelude and the bundle run.

/** Native functions provided by the host (installed by runtime-quickjs/sandbox.ts). Strings cross as JSON. */
export interface HostBridge {
  /** Writes one formatted console line. */
  log(level: "debug" | "info" | "warn" | "error", text: string): void;
  /**
   * Arms a host timer; the host calls `__trailblazeGuest.fireTimer(id)` when it elapses. `repeat`:
   * a setInterval's (the host names which kind used the time when a budget runs out).
   */
  setTimer(id: number, delayMs: number, repeat: boolean): void;
  clearTimer(id: number): void;
  /** Guest→host MCP message, one JSON-RPC message serialized with JSON.stringify. */
  send(json: string): void;
  /**
   * A message the guest transport could not serialize (JSON.stringify threw: out of memory, a
   * cycle, a BigInt): `reason` is the error's text, `leastBytes` a lower bound of its size as
   * JSON in UTF-8 bytes, `id` the request it answers (if it is a response). The host decides:
   * over maxMessageBytes it is too large, out of memory stops the server, else the request fails.
   */
  unsent(reason: string, leastBytes: number, id: string | number | undefined): void;
  /** Registers the guest transport: the host delivers messages by calling `receive(json)`. */
  attach(receive: (json: string) => void): void;
  /** The guest transport closed (the author called `server.close()`); the host closes too. */
  detach(): void;
  /** Calls the host's `onExecute`; resolves with the JSON of its result. */
  execute(name: string, argsJson: string): Promise<string>;
}

/** Guest functions the prelude exposes for the host (hidden global `__trailblazeGuest`). */
export interface GuestHooks {
  fireTimer(id: number): void;
  /** Seeds Math.random (four 32-bit words): what a session restored from an image is given first. */
  seedRandom(a: number, b: number, c: number, d: number): void;
}

export const HOST_GLOBAL = "__trailblazeHost";
/**
 * The mark on a tools/call whose context the host sent once, in `_meta.trailblaze`: the guest
 * transport puts it back into the arguments (runtime-quickjs/context-once.ts).
 */
export const CONTEXT_ONCE = "trailblaze/contextOnce";
export const GUEST_GLOBAL = "__trailblazeGuest";

/** The host bridge, read once when a guest module is evaluated. */
export function hostBridge(): HostBridge {
  const bridge = (globalThis as Record<string, unknown>)[HOST_GLOBAL] as HostBridge | undefined;
  if (!bridge) throw new Error("trailblaze: this bundle must run inside the trailblaze QuickJS host");
  return bridge;
}
