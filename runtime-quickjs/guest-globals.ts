// The names on the guest's global object and what `typeof` gives for each, read from a real guest
// (the engine, the prelude) once per process and engine: what check-bundle decides with, so that
// a global the guest gains or lacks (TextEncoder, quickjs-ng's performance) is known without a list.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_QUICKJS_ENGINE, type QuickJsEngine } from "./quickjs-module.ts";
import { startQuickJsServer } from "./quickjs-server.ts";

/**
 * A guest script that answers any request with the names a bundle can use as globals (the global
 * object's own and those it inherits, `toString` say) and, as `X.y`, the properties of each that
 * is an object or a function (own or inherited), each with its `typeof` ("" where reading it
 * throws), as they are before any bundle runs.
 */
const PROBE = `const host = globalThis.__trailblazeHost;
const names = (value) => {
  const found = new Set();
  for (let object = value; object; object = Object.getPrototypeOf(object)) for (const name of Object.getOwnPropertyNames(object)) found.add(name);
  return found;
};
const typeOf = (object, name) => { try { return typeof object[name]; } catch { return ""; } };
const globals = Object.create(null);
for (const name of names(globalThis)) {
  const type = (globals[name] = typeOf(globalThis, name));
  const value = type === "object" || type === "function" ? globalThis[name] : null;
  if (value && value !== globalThis) for (const member of names(value)) globals[name + "." + member] = typeOf(value, member);
}
host.attach((json) => host.send(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(json).id, result: { globals } })));
`;

const read = new Map<QuickJsEngine, Promise<ReadonlyMap<string, string>>>();

/**
 * Name → `typeof` value of every property of the guest's `globalThis` (own or inherited), as a
 * bundle finds it, and `X.y` → `typeof X.y` for each property of each such object or function.
 */
export function guestGlobals(engine: QuickJsEngine = DEFAULT_QUICKJS_ENGINE): Promise<ReadonlyMap<string, string>> {
  let globals = read.get(engine);
  if (!globals) {
    globals = probe(engine);
    read.set(engine, globals);
    globals.catch(() => read.delete(engine));
  }
  return globals;
}

async function probe(engine: QuickJsEngine): Promise<ReadonlyMap<string, string>> {
  await using server = await startQuickJsServer({ name: "trailblaze-guest-globals", code: PROBE, engine, images: false });
  const answer = new Promise<JSONRPCMessage>((resolve, reject) => {
    server.transport.onmessage = resolve;
    server.transport.onerror = reject;
    server.transport.onclose = () => reject(new Error("the QuickJS guest closed before it listed its globals"));
  });
  await server.transport.start();
  await server.transport.send({ jsonrpc: "2.0", id: 1, method: "trailblaze/globals" });
  const message = (await answer) as { result?: { globals?: Record<string, string> } };
  return new Map(Object.entries(message.result?.globals ?? {}));
}
