// QuickJS servers on worker threads, so sessions that run at once (`run --workers N`) use up to N
// cores instead of the CLI's one thread. A process-wide pool of at most `size` threads, each
// running many servers; a new server goes to the thread with the fewest. The WebAssembly module
// is compiled once, here, and posted to each thread. A thread keeps the process alive only while
// it runs a server; when one dies, its servers close with a SandboxError of kind `thread`.
import { Worker } from "node:worker_threads";
import { compiledQuickJsWasm, type BuildKey, type QuickJsEngine, type QuickJsVariant } from "../quickjs-module.ts";
import type { QuickJsServerOptions } from "../quickjs-server.ts";
import { ConsoleTail } from "../console-tail.ts";
import { fromWire, QuickJsThreadTransport } from "./thread-transport.ts";
import { toWire, type FromThread, type ThreadBundle, type ToThread, type WireError } from "./thread-protocol.ts";

/** Bundles a thread keeps (the host tells it to forget the oldest beyond this). */
const BUNDLES_PER_THREAD = 32;
let nextBundle = 1;

/** A QuickJS server on a worker thread: what a launcher needs of it. */
export interface QuickJsThreadServer {
  readonly transport: QuickJsThreadTransport;
  /** Closes the server on its thread; settles once it has. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface Hosted {
  transport: QuickJsThreadTransport;
  opts: QuickJsServerOptions;
  started: { resolve: () => void; reject: (error: Error) => void } | undefined;
  closing: Promise<void> | undefined;
  markClosed: () => void;
  closeError: WireError | undefined;
}

class Thread {
  readonly worker: Worker;
  readonly servers = new Map<number, Hosted>();
  dead = false;
  /** The bundles this thread has, by code, then source map text (the same strings each session of a process: cheap keys). */
  private readonly bundles = new Map<string, Map<string, { id: number; shift: number }>>();
  private bundleCount = 0;
  /** The builds whose compiled module this thread has. */
  private readonly modules = new Set<BuildKey>();

  constructor(private readonly onDeath: (thread: Thread) => void) {
    this.worker = new Worker(new URL("./thread-entry.ts", import.meta.url));
    this.worker.unref();
    this.worker.on("message", (message: FromThread) => this.received(message));
    this.worker.on("error", (error: unknown) => this.died(`failed: ${error instanceof Error ? error.message : String(error)}`));
    this.worker.on("exit", (code) => this.died(`exited with code ${code}`));
  }

  post(message: ToThread): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  /** The bundle as this thread is to be sent it: by id once it has it. */
  bundle(code: string, sourceMap: QuickJsServerOptions["sourceMap"]): ThreadBundle {
    const byMap = this.bundles.get(code) ?? new Map<string, { id: number; shift: number }>();
    const mapText = sourceMap?.map ?? "";
    const known = byMap.get(mapText);
    if (known && known.shift === (sourceMap?.shift ?? 0)) return { id: known.id };
    if (known) this.forget(code, mapText, known.id);
    if (this.bundleCount >= BUNDLES_PER_THREAD) {
      const [oldestCode, oldest] = this.bundles.entries().next().value!;
      const [oldestMap, { id }] = oldest.entries().next().value!;
      this.forget(oldestCode, oldestMap, id);
    }
    const id = nextBundle++;
    byMap.set(mapText, { id, shift: sourceMap?.shift ?? 0 });
    this.bundles.set(code, byMap);
    this.bundleCount++;
    return { id, code, ...(sourceMap ? { sourceMap } : {}) };
  }

  private forget(code: string, mapText: string, id: number): void {
    const byMap = this.bundles.get(code)!;
    byMap.delete(mapText);
    if (byMap.size === 0) this.bundles.delete(code);
    this.bundleCount--;
    this.post({ t: "forget", bundle: id });
  }

  /** The compiled module, the first time this thread needs it. */
  module(wasm: { key: BuildKey; module: WebAssembly.Module }): typeof wasm | undefined {
    if (this.modules.has(wasm.key)) return undefined;
    this.modules.add(wasm.key);
    return wasm;
  }

  add(id: number, hosted: Hosted): void {
    if (this.servers.size === 0) this.worker.ref();
    this.servers.set(id, hosted);
  }

  private remove(id: number): void {
    this.servers.delete(id);
    if (this.servers.size === 0 && !this.dead) this.worker.unref();
  }

  private received(message: FromThread): void {
    if (message.t === "ready") {
      // Bun forgets an unref() made before the thread came up (it then kept a run from exiting): again, now.
      if (this.servers.size === 0 && !this.dead) this.worker.unref();
      return;
    }
    const hosted = this.servers.get(message.id);
    if (!hosted) return;
    switch (message.t) {
      case "started":
        hosted.started?.resolve();
        hosted.started = undefined;
        return;
      case "start-failed":
        this.remove(message.id);
        hosted.started?.reject(fromWire(message.error));
        hosted.markClosed();
        return;
      case "message":
        hosted.transport.fromThread(message.message);
        return;
      case "error":
        hosted.transport.error(fromWire(message.error));
        return;
      case "send-failed":
        if (message.requestId !== undefined) {
          hosted.transport.fromThread({ jsonrpc: "2.0", id: message.requestId, error: { code: -32000, message: message.error.message } });
        }
        return;
      case "log":
        hosted.transport.logged(message.level, message.text);
        hosted.opts.onLog?.(message.level, message.text);
        return;
      case "execute":
        void this.execute(message.id, hosted, message.call, message.name, message.args);
        return;
      case "closed":
        this.remove(message.id);
        hosted.closeError = message.closeError;
        hosted.transport.closed(message.fatal, message.failure);
        hosted.markClosed();
        return;
    }
  }

  private async execute(id: number, hosted: Hosted, call: number, name: string, args: Record<string, unknown>): Promise<void> {
    try {
      if (!hosted.opts.onExecute)
        throw new Error(`trailblaze.execute("${name}") is not available: this QuickJS server was started without onExecute`);
      const value = await hosted.opts.onExecute(name, args);
      this.post({ t: "executed", id, call, ok: true, value });
    } catch (error) {
      this.post({ t: "executed", id, call, ok: false, error: toWire(error) });
    }
  }

  /** The thread is gone: every server on it closes with the reason. */
  private died(why: string): void {
    if (this.dead) return;
    this.dead = true;
    this.onDeath(this);
    for (const [id, hosted] of this.servers) {
      const error: WireError = {
        name: "SandboxError",
        kind: "thread",
        message: `QuickJS server "${hosted.opts.name}" stopped: its worker thread ${why}`,
      };
      this.servers.delete(id);
      hosted.started?.reject(fromWire(error));
      hosted.transport.closed(error, { startup: error, session: error });
      hosted.markClosed();
    }
    void this.worker.terminate();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

let threads: Thread[] = [];
let poolSize = 0;
let nextId = 1;

/**
 * Sets how many worker threads QuickJS servers may use (`run --workers N` sets N, capped by the
 * caller at the cores there are); 0 or 1 keeps every server on the calling thread.
 */
export function setQuickJsThreads(size: number): void {
  poolSize = Math.max(0, Math.floor(size));
}

/** Whether new servers go to worker threads. */
export function quickJsThreadsEnabled(): boolean {
  return poolSize > 1;
}

/** Starts the threads the pool is short of (they load their modules side by side); returns the live ones. */
function fillPool(): Thread[] {
  const live = threads.filter((thread) => !thread.dead);
  const fresh = Array.from(
    { length: Math.max(0, Math.max(1, poolSize) - live.length) },
    () => new Thread((gone) => (threads = threads.filter((t) => t !== gone))),
  );
  threads.push(...fresh);
  return [...live, ...fresh];
}

function pickThread(): Thread {
  const live = fillPool();
  return live.find((thread) => thread.servers.size === 0) ?? live.reduce((a, b) => (b.servers.size < a.servers.size ? b : a));
}

/**
 * Starts the worker threads and compiles the QuickJS module now, while the caller still has other
 * work (reading a suite's trails), instead of at the first server: the threads load their modules
 * meanwhile. Does nothing unless threads are enabled. Unused threads keep no process alive.
 */
export function warmQuickJsThreads(variant: QuickJsVariant = "release", engine?: QuickJsEngine): void {
  if (!quickJsThreadsEnabled()) return;
  fillPool();
  // A failure is the first server's to report (it awaits the same compilation).
  void compiledQuickJsWasm(variant, engine).catch(() => {});
}

/** As startQuickJsServer, on a worker thread of the pool. */
export async function startQuickJsServerOnThread(opts: QuickJsServerOptions): Promise<QuickJsThreadServer> {
  const wasm = await compiledQuickJsWasm(opts.variant ?? "release", opts.engine);
  const thread = pickThread();
  const id = nextId++;
  // Set before the thread is asked to close the server: a guest busy on the thread is cut at once
  // instead of holding the close (and a Ctrl-C) until its deadline.
  const haltSignal = new Int32Array(new SharedArrayBuffer(4));
  let markClosed!: () => void;
  const closedPromise = new Promise<void>((resolve) => (markClosed = resolve));
  const hosted: Hosted = {
    opts,
    started: undefined,
    closing: undefined,
    markClosed,
    closeError: undefined,
    transport: new QuickJsThreadTransport(
      opts.name,
      {
        send: (message) => thread.post({ t: "send", id, message }),
        close: () => close(),
      },
      new ConsoleTail(opts.mask),
    ),
  };
  const close = (): Promise<void> => {
    hosted.closing ??= (async () => {
      Atomics.store(haltSignal, 0, 1);
      thread.post({ t: "close", id });
      await closedPromise;
      if (hosted.closeError) throw fromWire(hosted.closeError);
    })();
    return hosted.closing;
  };
  const started = new Promise<void>((resolve, reject) => (hosted.started = { resolve, reject }));
  thread.add(id, hosted);
  const { onLog: _log, onExecute: _execute, mask, code, sourceMap, ...serializable } = opts;
  const maskedOnHost = mask !== undefined;
  thread.post({
    t: "start",
    id,
    opts: { ...serializable, haltSignal, maskedOnHost },
    bundle: thread.bundle(code, sourceMap),
    wasm: thread.module(wasm),
  });
  await started;
  return { transport: hosted.transport, close, [Symbol.asyncDispose]: close };
}

/** How many servers each live thread runs, in the order the threads started. */
export function quickJsThreadLoad(): number[] {
  return threads.filter((thread) => !thread.dead).map((thread) => thread.servers.size);
}

/** Stops every worker thread at once (tests; a process that exits needs nothing). */
export async function stopQuickJsThreads(): Promise<void> {
  const all = threads;
  threads = [];
  await Promise.all(all.map((thread) => thread.terminate()));
}
