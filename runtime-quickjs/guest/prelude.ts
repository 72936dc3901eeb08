// The guest prelude: evaluated in every QuickJS context before the bundle. Installs the web
// globals the MCP SDK and zod need (console, timers, AbortController, atob/btoa, URL,
// queueMicrotask), UTF-8 TextEncoder/TextDecoder (libraries such as faker use them unguarded)
// and `trailblaze.execute`, all on top of the host bridge. Nothing here reaches
// the host except through that bridge.
import { AbortController, AbortSignal } from "./abort.ts";
import { atob, btoa } from "./base64.ts";
import { makeConsole } from "./console.ts";
import { installSeededRandom } from "./random.ts";
import { DOMException } from "./dom-exception.ts";
import { GUEST_GLOBAL, hostBridge, type GuestHooks } from "./host-bridge.ts";
import { TextDecoder, TextEncoder } from "./text-coding.ts";
import { makeTimers } from "./timers.ts";
import { URL, URLSearchParams } from "./url.ts";

const host = Object.freeze(hostBridge());
const timers = makeTimers(host);

/** `trailblaze.execute(name, args)`: runs a Trailblaze tool on the host; args and result cross as JSON. */
const trailblaze = Object.freeze({
  execute(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
    return host.execute(String(name), JSON.stringify(args)).then((json) => JSON.parse(json) as unknown);
  },
});

const globals: Record<string, unknown> = {
  console: makeConsole(host),
  setTimeout: timers.setTimeout,
  clearTimeout: timers.clearTimeout,
  setInterval: timers.setInterval,
  clearInterval: timers.clearInterval,
  queueMicrotask: (fn: () => void) => void Promise.resolve().then(fn),
  AbortController,
  AbortSignal,
  DOMException,
  atob,
  btoa,
  URL,
  URLSearchParams,
  TextEncoder,
  TextDecoder,
  trailblaze,
  // zod 4 reads its settings from this shared object. By default it compiles each object schema's
  // parser with `new Function` on first use; under QuickJS compiling costs more than it saves
  // (jitless: ~16 ms less per on-device session start, the same cost per call; see BENCHMARKS.md
  // P5). Same results either way; an author's own z.config({ jitless: false }) still wins.
  __zod_globalConfig: { jitless: true },
};
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

const hooks: GuestHooks = { fireTimer: timers.fireTimer, seedRandom: installSeededRandom().seed };
Object.defineProperty(globalThis, GUEST_GLOBAL, { value: Object.freeze(hooks), enumerable: false });
