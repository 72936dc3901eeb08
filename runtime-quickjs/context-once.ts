// The Trailblaze context crosses into the guest once per tools/call. A session's call carries the
// same context twice, in `arguments._trailblazeContext` and `_meta.trailblaze` (McpConnection.call
// puts one object in both), and QuickJS parses JSON slowly: each copy of a small context is
// ~10 µs of interpreter a call. The host sends it in `_meta` alone, with a mark; the guest transport
// (guest/stdio-server-transport.ts) puts the object it parsed back into the arguments, in the same
// place, before the SDK sees the message. Only for a bundle whose guest transport knows the mark.
// The handler then finds one object in both places, where a stdio server parses two equal copies.

import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CONTEXT_ONCE } from "./guest/host-bridge.ts";

const CONTEXT_KEY = "_trailblazeContext";

type Plain = Record<string, unknown>;
const plain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Bundles by their code: whether their guest transport takes the mark (a bundle built before it does not). */
const knows = new Map<string, boolean>();
const KNOWN_BUNDLES = 64;

/** Whether the guest transport of `code` restores a context sent once. */
export function takesContextOnce(code: string): boolean {
  let known = knows.get(code);
  if (known === undefined) {
    known = code.includes(CONTEXT_ONCE);
    knows.set(code, known);
    if (knows.size > KNOWN_BUNDLES) knows.delete(knows.keys().next().value!);
  }
  return known;
}

/**
 * `message` as JSON for the guest: a tools/call whose arguments end with the very object its
 * `_meta.trailblaze` holds is written with that object once (in `_meta`) and the mark; any other
 * message as it is.
 */
export function guestJson(message: JSONRPCMessage): string {
  const params = "method" in message && message.method === "tools/call" ? (message.params as Plain | undefined) : undefined;
  const args = params?.arguments;
  const meta = params?._meta;
  if (!plain(args) || !plain(meta) || args[CONTEXT_KEY] === undefined || args[CONTEXT_KEY] !== meta.trailblaze)
    return JSON.stringify(message);
  const keys = Object.keys(args);
  // Put back where it was taken from: only the last key can be (the guest appends it).
  if (keys.at(-1) !== CONTEXT_KEY) return JSON.stringify(message);
  const { [CONTEXT_KEY]: _context, ...rest } = args;
  return JSON.stringify({ ...message, params: { ...params, arguments: rest }, [CONTEXT_ONCE]: true });
}
