// The messages between the host thread and a QuickJS worker thread (thread-pool.ts ↔
// thread-entry.ts). Each names the server it concerns by `id`: one worker runs many servers.
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxFailureKind } from "../../src/errors.ts";
import type { QuickJsServerOptions } from "../quickjs-server.ts";
import type { BuildKey } from "../quickjs-module.ts";
import type { LogLevel } from "../sandbox.ts";

/** QuickJsServerOptions without the host callbacks, which stay on the host thread, and without the bundle (see ThreadBundle). */
type ThreadServerOptions = Omit<QuickJsServerOptions, "onLog" | "onExecute" | "mask" | "code" | "sourceMap">;

/**
 * A bundle, by an id the host gives it: its code and source map cross to a thread the first time
 * that thread starts a server of it (structured-cloning them for every session was the largest
 * cost of a start on a thread), until the host tells the thread to `forget` it.
 */
export interface ThreadBundle {
  id: number;
  code?: string;
  sourceMap?: QuickJsServerOptions["sourceMap"];
}

/** An error copied across threads; `kind` set for a SandboxError. */
export interface WireError {
  name: string;
  message: string;
  kind?: SandboxFailureKind;
}

export type ToThread =
  /** `wasm`: the compiled module, with the first start on a thread that needs it. */
  | {
      t: "start";
      id: number;
      opts: ThreadServerOptions;
      bundle: ThreadBundle;
      wasm: { key: BuildKey; module: WebAssembly.Module } | undefined;
    }
  | { t: "forget"; bundle: number }
  | { t: "send"; id: number; message: JSONRPCMessage }
  | { t: "close"; id: number }
  | { t: "executed"; id: number; call: number; ok: true; value: unknown }
  | { t: "executed"; id: number; call: number; ok: false; error: WireError };

export type FromThread =
  | { t: "ready" }
  | { t: "started"; id: number }
  | { t: "start-failed"; id: number; error: WireError }
  | { t: "message"; id: number; message: JSONRPCMessage }
  | { t: "error"; id: number; error: WireError }
  | { t: "send-failed"; id: number; requestId: RequestId | undefined; error: WireError }
  | { t: "log"; id: number; level: LogLevel; text: string }
  | { t: "execute"; id: number; call: number; name: string; args: Record<string, unknown> }
  /** The server closed; `fatal` is why, when it stopped on its own; `failure` is what ManagedTransport.failure() answers per phase. */
  | {
      t: "closed";
      id: number;
      fatal: WireError | undefined;
      failure: { startup: WireError; session: WireError };
      closeError: WireError | undefined;
    };

export function toWire(error: unknown): WireError {
  if (error instanceof Error) {
    const kind = (error as { kind?: unknown }).kind;
    return { name: error.name, message: error.message, ...(typeof kind === "string" ? { kind: kind as SandboxFailureKind } : {}) };
  }
  return { name: "Error", message: String(error) };
}
