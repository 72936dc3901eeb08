// A QuickJS worker thread: runs the servers the host thread starts on it, each as in-thread
// (quickjs-server.ts), on the WebAssembly module the host compiled and posted, and relays their
// MCP messages, console lines and `trailblaze.execute` calls to the host (thread-pool.ts).
import { parentPort } from "node:worker_threads";
import { adoptCompiledWasm } from "../quickjs-module.ts";
import { startQuickJsServer, type QuickJsServer, type QuickJsServerOptions } from "../quickjs-server.ts";
import { toWire, type FromThread, type ToThread } from "./thread-protocol.ts";

const port = parentPort;
if (!port) throw new Error("runtime-quickjs/thread/thread-entry.ts runs as a worker thread only");
const servers = new Map<number, QuickJsServer>();
/** `trailblaze.execute` calls waiting for the host, by server id, then call number. */
const executing = new Map<number, Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>>();
let nextCall = 1;

const post = (message: FromThread) => port.postMessage(message);

/** The bundles the host sent, by id (see ThreadBundle). */
const bundles = new Map<number, Pick<QuickJsServerOptions, "code" | "sourceMap">>();

async function start(
  id: number,
  message: Extract<ToThread, { t: "start" }>,
  bundle: Pick<QuickJsServerOptions, "code" | "sourceMap">,
): Promise<void> {
  if (message.wasm) adoptCompiledWasm(message.wasm.key, message.wasm.module);
  const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  executing.set(id, calls);
  let server: QuickJsServer;
  try {
    server = await startQuickJsServer({
      ...message.opts,
      ...bundle,
      onLog: (level, text) => post({ t: "log", id, level, text }),
      onExecute: (name, args) =>
        new Promise((resolve, reject) => {
          const call = nextCall++;
          calls.set(call, { resolve, reject });
          post({ t: "execute", id, call, name, args });
        }),
    });
  } catch (error) {
    executing.delete(id);
    post({ t: "start-failed", id, error: toWire(error) });
    return;
  }
  servers.set(id, server);
  const transport = server.transport;
  transport.onmessage = (m) => post({ t: "message", id, message: m });
  transport.onerror = (error) => post({ t: "error", id, error: toWire(error) });
  transport.onclose = () => void closed(id, server);
  await transport.start();
  post({ t: "started", id });
}

async function closed(id: number, server: QuickJsServer): Promise<void> {
  servers.delete(id);
  executing.delete(id);
  let closeError;
  try {
    await server.close();
  } catch (error) {
    closeError = toWire(error);
  }
  const [startup, session] = await Promise.all([server.transport.failure("startup"), server.transport.failure("session")]);
  const fatal = server.stopped;
  post({ t: "closed", id, fatal: fatal && toWire(fatal), failure: { startup: toWire(startup), session: toWire(session) }, closeError });
}

port.on("message", (message: ToThread) => {
  switch (message.t) {
    case "start": {
      const { id: bundleId, ...sent } = message.bundle;
      if (sent.code !== undefined) bundles.set(bundleId, { code: sent.code, ...(sent.sourceMap ? { sourceMap: sent.sourceMap } : {}) });
      const bundle = bundles.get(bundleId);
      if (!bundle) {
        post({
          t: "start-failed",
          id: message.id,
          error: { name: "Error", message: `the QuickJS worker thread has no bundle ${bundleId} (a host bug)` },
        });
        return;
      }
      void start(message.id, message, bundle);
      return;
    }
    case "forget":
      bundles.delete(message.bundle);
      return;
    case "send": {
      const server = servers.get(message.id);
      if (!server) return;
      server.transport.send(message.message).catch((error: unknown) => {
        const requestId = "id" in message.message && "method" in message.message ? message.message.id : undefined;
        post({ t: "send-failed", id: message.id, requestId, error: toWire(error) });
      });
      return;
    }
    case "close":
      void servers
        .get(message.id)
        ?.close()
        .catch(() => {});
      return;
    case "executed": {
      const waiting = executing.get(message.id)?.get(message.call);
      if (!waiting) return;
      executing.get(message.id)!.delete(message.call);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
      return;
    }
  }
});
post({ t: "ready" });
