// Runs an author's bundled MCP server inside QuickJS: one instance + runtime per server with
// memory, stack and time limits (per delivery, and budgets across them: guest-budget.ts) and a
// cap on the size of its messages, exposed to the host as an SDK `Transport`. Owns the call path
// (each message to the guest, its requests in flight: in-flight.ts, and each reply from it) and
// fault handling: a handler past its deadline fails its request and the VM stays usable; running
// out of memory or of a time budget, not stopping when interrupted, or a message over the size
// limit stops the server (what each fault is called: guest-faults.ts). Its options and limits are
// server-options.ts; the images it starts from and takes, server-imaging.ts.
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError, SandboxError, withTail, type TrailblazeError } from "../src/errors.ts";
import type { ServerPhase } from "../src/transports/transport.ts";
import { QuickJsHostTransport } from "./host-transport.ts";
import { preludeSource } from "./prelude-source.ts";
import { DEFAULT_QUICKJS_ENGINE, type newQuickJsInstance } from "./quickjs-module.ts";
import type { LogLevel } from "./sandbox-bridge.ts";
import { isOutOfMemoryText, type Delivery, type GuestError } from "./sandbox-contract.ts";
import { Sandbox } from "./sandbox.ts";
import {
  findHandshakeImage,
  findImage,
  imageSlot,
  keepImage,
  claimHandshakeRecording,
  releaseHandshakeRecording,
  type ImageSlot,
  type ServerImage,
} from "./image-store.ts";
import { acquireQuickJsInstance, poolTakesBack, recycleQuickJsInstance } from "./instance-pool.ts";
import { ConsoleTail } from "./console-tail.ts";
import { guestJson, takesContextOnce } from "./context-once.ts";
import { failureText, GuestFaults } from "./guest-faults.ts";
import { InFlight } from "./in-flight.ts";
import { answeredId, parseGuestMessage } from "./message-kinds.ts";
import {
  checkLimits,
  DEFAULT_CALL_DEADLINE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MEMORY_LIMIT_BYTES,
  MAX_STACK_LIMIT_BYTES,
  type QuickJsServer,
  type QuickJsServerOptions,
} from "./server-options.ts";
import { ServerImaging, type ImageReuse } from "./server-imaging.ts";
import {
  DEFAULT_IDLE_CPU_MS,
  DEFAULT_IDLE_DELIVERY_MS,
  DEFAULT_IDLE_WINDOW_MS,
  DEFAULT_SESSION_CPU_MS,
  GuestBudget,
  type DeliverySlot,
} from "./guest-budget.ts";

class QuickJsServerImpl implements QuickJsServer {
  readonly transport: QuickJsHostTransport;
  private readonly sandbox: Sandbox;
  /** Requests delivered to the guest and not answered yet. */
  private readonly inFlight = new InFlight();
  private closing: Promise<void> | undefined;
  private fatal: SandboxError | undefined;
  private readonly deadlineMs: number;
  /** The bundle's guest transport restores a context sent once (context-once.ts). */
  private readonly contextOnce: boolean;
  private readonly startDeadlineMs: number;
  private readonly memoryLimit: number;
  private readonly maxMessageBytes: number;
  /** Guest time across the session's deliveries. */
  private readonly budget: GuestBudget;
  /** The delivery running, or the last one: what set its deadline. */
  private slot: DeliverySlot | undefined;
  /** Whether the failure message goes without the console tail (a limit the console says nothing about). */
  private fatalWithoutTail = false;
  /** The last guest console lines, oldest first. */
  private readonly consoleTail: ConsoleTail;
  private readonly faults: GuestFaults;
  /** The images this session starts from and takes. */
  private readonly imaging: ServerImaging;

  /** `reuse`: the images the session may start from, and whether it may be imaged (server-imaging.ts). */
  constructor(
    private readonly module: Awaited<ReturnType<typeof newQuickJsInstance>>,
    prelude: string,
    private readonly opts: QuickJsServerOptions,
    reuse: ImageReuse,
  ) {
    this.consoleTail = new ConsoleTail(opts.mask);
    this.contextOnce = takesContextOnce(opts.code);
    this.deadlineMs = opts.callDeadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
    this.startDeadlineMs = opts.startDeadlineMs ?? Math.max(this.deadlineMs, DEFAULT_CALL_DEADLINE_MS);
    this.memoryLimit = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
    this.maxMessageBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.budget = new GuestBudget({
      callDeadlineMs: this.deadlineMs,
      idleDeliveryMs: opts.idleDeliveryMs ?? DEFAULT_IDLE_DELIVERY_MS,
      idleCpuMs: opts.idleCpuMs ?? DEFAULT_IDLE_CPU_MS,
      idleWindowMs: opts.idleWindowMs ?? DEFAULT_IDLE_WINDOW_MS,
      sessionCpuMs: opts.sessionCpuMs ?? DEFAULT_SESSION_CPU_MS,
    });
    this.transport = new QuickJsHostTransport(opts.name, {
      toGuest: (m) => this.toGuest(m),
      close: () => this.close(),
      failure: (phase) => this.failure(phase),
      console: this.consoleTail,
    });
    this.sandbox = new Sandbox(module, {
      memoryLimitBytes: this.memoryLimit,
      stackLimitBytes: opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES,
      // The prelude and reseeding run under the start deadline; each message under its slot's.
      setupDeadlineMs: this.startDeadlineMs,
      // Asked as each delivery starts: a call in flight or not decides its deadline and budget.
      deliveryDeadlineMs: () => (this.slot = this.budget.slot(this.inFlight.size > 0)).ms,
      ...((opts.haltSignal ?? threadHalt) ? { haltSignal: opts.haltSignal ?? threadHalt } : {}),
      callInFlight: () => this.inFlight.latestCall()?.label,
      onLog: (level, text) => this.log(level, text),
      onExecute: opts.onExecute,
      maxMessageBytes: this.maxMessageBytes,
      onGuestMessage: (json) => this.fromGuest(json),
      onUnsentMessage: (reason, leastBytes, id) => this.unsent(reason, leastBytes, id),
      onDetach: () => void this.close(),
      onAsyncDelivery: (delivery, what, source) => this.afterDelivery(delivery, what, undefined, source),
    });
    this.faults = new GuestFaults({
      label: this.label,
      name: opts.name,
      sourceMap: opts.sourceMap,
      callDeadlineMs: this.deadlineMs,
      memoryLimitBytes: this.memoryLimit,
      slot: () => this.slot,
    });
    this.imaging = new ServerImaging(this.sandbox, reuse, (level, text) => this.log(level, text));
    if (!this.imaging.restored) this.sandbox.installPrelude(prelude);
  }

  /** Whether it started from an image of an earlier session of the same server (its bundle is not evaluated again). */
  get restored(): boolean {
    return this.imaging.restored;
  }

  /** Whether its client's handshake was answered from the image it was restored from. */
  get handshakeReplayed(): boolean {
    return this.imaging.handshakeReplayed;
  }

  /** Once booted: `slot` is where this session's handshake image goes (`record`), or where to refuse them if it rewinds. */
  handshakeImages(slot: ImageSlot, record: boolean): void {
    this.imaging.handshakeImages(slot, record);
  }

  private log(level: LogLevel, text: string): void {
    // Undefined while the server is made: the lines an image replays come first.
    this.imaging?.logged(level, text);
    this.consoleTail.push(level, text);
    this.opts.onLog?.(level, text);
  }

  private get label(): string {
    return `QuickJS server "${this.opts.name}"`;
  }

  /**
   * Evaluates the bundle and waits until it connects its transport (a restored server already
   * has). Returns this server's image when it was set up for imaging and can be imaged.
   */
  async boot(): Promise<ServerImage | undefined> {
    if (this.restored) return undefined;
    this.imaging.bootStarts();
    const { delivery, settled, settledNow } = this.sandbox.evaluate(this.opts.code, `${this.opts.name}.bundle.js`, this.startDeadlineMs);
    const logs = this.imaging.bootEnded();
    this.budget.spend(delivery.elapsedMs, true, "evaluating its bundle");
    if (delivery.error) throw this.describe(delivery.error, "evaluating its bundle", this.startDeadlineMs);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      this.sandbox.attached.then(() => ({ error: undefined, timedOut: false })),
      settled.then((error) => ({ error, timedOut: false })),
      new Promise<{ error: undefined; timedOut: boolean }>((resolve) => {
        timer = setTimeout(() => resolve({ error: undefined, timedOut: true }), this.startDeadlineMs);
      }),
    ]);
    clearTimeout(timer);
    if (outcome.error) throw this.describe(outcome.error, "evaluating its bundle", this.startDeadlineMs);
    if (!this.sandbox.isAttached) {
      const why = outcome.timedOut
        ? `did not connect within ${this.startDeadlineMs} ms (startDeadlineMs)`
        : "finished evaluating without connecting";
      throw new SandboxError(
        `${this.label} ${why}: the bundle must call server.connect(new StdioServerTransport()) (on-device bundles swap in the in-process transport)`,
        "not-connected",
      );
    }
    // Top-level code that fails after connecting is reported out of band.
    void settled.then((error) => error && this.transport.error(this.describe(error, "running its bundle's top-level code")));
    const image = settledNow ? this.sandbox.takeImage() : undefined;
    return image && { ...image, logs };
  }

  /** `deadlineMs`: evaluating the bundle's (startDeadlineMs); otherwise the delivery's slot says which limit interrupted it. */
  private describe(error: GuestError, during: string, deadlineMs?: number): SandboxError {
    return this.faults.describe(error, during, deadlineMs);
  }

  private toGuest(message: JSONRPCMessage): void {
    if (this.fatal) throw this.fatal;
    if (this.closing || !this.sandbox.alive) throw new SandboxError(`${this.label} is closed`, "closed");
    const answer = this.imaging.answer(message);
    if (answer === "drop") return;
    if (answer) return this.transport.fromGuest(answer.reply);
    this.imaging.toGuest(message);
    const id = this.inFlight.delivering(message);
    const delivery = this.sandbox.deliverMessage(this.contextOnce ? guestJson(message) : JSON.stringify(message));
    const what = this.inFlight.doing(message, id);
    if (delivery.error) this.imaging.deliveryFailed();
    this.afterDelivery(delivery, what, id, what);
    this.imaging.delivered();
  }

  /** The head of what the guest sent, for a message: masked before it is cut. */
  private quoted(json: string): string {
    return (this.opts.mask?.(json) ?? json).slice(0, 200);
  }

  private fromGuest(json: string): void {
    if (this.fatal) return;
    // Counted as the host counts a stdio server's line (UTF-8 bytes); a UTF-16 unit is at most 3 of them.
    if (json.length > this.maxMessageBytes / 3) {
      const bytes = Buffer.byteLength(json, "utf8");
      if (bytes > this.maxMessageBytes) return this.tooLarge(bytes);
    }
    // Validated as the SDK's stdio framing validates every line.
    let message: JSONRPCMessage;
    try {
      message = parseGuestMessage(json);
    } catch (error) {
      this.transport.error(
        new ProtocolError(`${this.label} sent a message that is not JSON-RPC (skipped): ${this.quoted(json)}`, { cause: error }),
      );
      return;
    }
    this.imaging.fromGuest(message);
    const responseId = answeredId(message);
    const pending = responseId === undefined ? undefined : this.inFlight.get(responseId);
    if (responseId !== undefined && pending) {
      // The SDK turns a handler's exception into a reply; recognise QuickJS's own two.
      const text = failureText(message);
      if (text !== undefined && isOutOfMemoryText(text)) {
        this.stop(
          this.describe({ kind: "out-of-memory", name: "InternalError", message: text, stack: "" }, `handling ${pending.label}`),
          "abandon",
        );
        return;
      }
      if (text === "interrupted" && this.sandbox.interruptedNow) {
        const error = this.describe({ kind: "interrupted", name: "InternalError", message: text, stack: "" }, `handling ${pending.label}`);
        this.failRequest(responseId, ErrorCode.RequestTimeout, error.message);
        this.transport.error(error);
        return;
      }
      this.inFlight.delete(responseId);
    }
    this.transport.fromGuest(message);
  }

  /**
   * A message over maxMessageBytes: refused as the host agent refuses a stdio server's (the same
   * words, the same limit and setting), and the server stopped; its guest code is cut short.
   * `least`: the guest could not make the message, and `bytes` is a lower bound of its size.
   */
  private tooLarge(bytes: number, least = false): void {
    const message =
      `MCP server ${this.opts.name} wrote a message of more than ${this.maxMessageBytes} bytes to the host (${least ? "at least " : ""}${bytes} bytes; ` +
      `limit: max_message_bytes, default ${DEFAULT_MAX_MESSAGE_BYTES}); the server was stopped. ` +
      `Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target`;
    this.fatalWithoutTail = true;
    this.stop(new SandboxError(message, "message-too-large"), "free");
  }

  /**
   * A message the guest's transport could not serialize (JSON.stringify threw), answered at once
   * rather than at the call's timeout: over maxMessageBytes by its lower bound it is too large; out
   * of memory stops the server as any guest allocation does; anything else (a cycle, a BigInt)
   * fails the request it answers, and the server keeps serving.
   */
  private unsent(reason: string, leastBytes: number, id: RequestId | undefined): void {
    if (this.fatal) return;
    if (leastBytes > this.maxMessageBytes) return this.tooLarge(leastBytes, true);
    const pending = id === undefined ? undefined : this.inFlight.get(id);
    const during = `serializing its answer to ${pending?.label ?? "a request"} (at least ${leastBytes} bytes)`;
    if (isOutOfMemoryText(reason)) {
      this.stop(this.describe({ kind: "out-of-memory", name: "InternalError", message: reason, stack: "" }, during), "abandon");
      return;
    }
    // JSON.stringify's own words; a guest that calls the bridge itself may say more: masked before it is cut.
    const why = reason.length <= 500 ? reason : (this.opts.mask?.(reason) ?? reason).slice(0, 500);
    const error = new ProtocolError(`${this.label} failed ${during}: ${why}`);
    if (pending && id !== undefined) this.failRequest(id, ErrorCode.InternalError, error.message);
    this.transport.error(error);
  }

  /**
   * Reacts to how a delivery ended (`id`: the request that was delivered, if any): spends its
   * time from the budgets (`source` names what used it), then handles its error.
   */
  private afterDelivery(delivery: Delivery, during: string, id: RequestId | undefined, source: string): void {
    if (this.fatal) return;
    const inCall = this.slot?.inCall ?? true;
    const error = delivery.error;
    const exhausted = this.budget.spend(delivery.elapsedMs, inCall, source);
    // Out of memory first: that instance must be abandoned, not freed.
    if (exhausted && error?.kind !== "out-of-memory") {
      const pending = this.inFlight.latestCall();
      const call = pending
        ? { label: pending.label, inFlight: true }
        : this.inFlight.lastCall
          ? { label: this.inFlight.lastCall, inFlight: false }
          : undefined;
      this.stop(new SandboxError(this.budget.exhaustedMessage(exhausted, this.label, call), "cpu-budget"), "free");
      return;
    }
    if (!error || error.kind === "halted") return;
    const described = this.describe(error, during);
    if (error.kind === "out-of-memory" || error.kind === "stuck") {
      this.stop(described, error.kind === "out-of-memory" ? "abandon" : "free");
      return;
    }
    // The job that failed is gone, and with it any reply: answer the implicated requests here.
    // An interrupt outside a request's delivery (a looping timer callback) cannot be traced to
    // one request, so it fails them all; an ordinary exception there is only reported.
    const implicated = id !== undefined ? (this.inFlight.has(id) ? [id] : []) : error.kind === "interrupted" ? this.inFlight.ids() : [];
    const code = error.kind === "interrupted" ? ErrorCode.RequestTimeout : ErrorCode.InternalError;
    for (const requestId of implicated) this.failRequest(requestId, code, described.message);
    this.transport.error(described);
  }

  private failRequest(id: RequestId, code: number, message: string): void {
    this.inFlight.delete(id);
    this.transport.fromGuest({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /** Fatal: fails every open request with `error`, reports it, cuts guest code short and disposes the VM. */
  private stop(error: SandboxError, mode: "free" | "abandon"): void {
    if (this.fatal) return;
    this.fatal = error;
    this.sandbox.halt();
    for (const id of this.inFlight.ids()) this.failRequest(id, ErrorCode.ConnectionClosed, error.message);
    this.transport.error(error);
    this.sandbox.dispose(mode);
    void this.close();
  }

  /** Why the server stopped unasked: its fatal error, else a plain "stopped"; with the console tail. */
  private async failure(phase: ServerPhase): Promise<TrailblazeError> {
    const during = phase === "startup" ? "during startup (initialize/tools/list)" : "during the session";
    const fatal = this.fatal ?? new SandboxError(`${this.label} stopped unexpectedly ${during}`, "closed");
    if (this.fatalWithoutTail) return fatal;
    return new SandboxError(withTail(fatal.message, this.consoleTail.snapshot(), "guest console"), fatal.kind, { cause: fatal.cause });
  }

  get stopped(): SandboxError | undefined {
    return this.fatal;
  }

  memoryUsage(): { bytes: number; linearBytes: number } {
    const usage = this.sandbox.memoryUsage();
    return { bytes: usage.heap, linearBytes: usage.linear };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.imaging.close();
      // An instance the pool takes back is wiped to a new one's memory: nothing in it needs freeing.
      const failure = this.sandbox.dispose(!this.fatal && poolTakesBack(this.module) ? "reset" : "free") ?? this.sandbox.disposeFailure;
      const instance = this.sandbox.takeInstance();
      if (instance && !this.fatal) recycleQuickJsInstance(instance);
      this.inFlight.clear();
      await this.transport.closed();
      if (failure)
        throw new SandboxError(`${this.label} could not free its QuickJS runtime (a handle leaked): ${failure.message}`, "leak", {
          cause: failure,
        });
    })();
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** The halt word of every server this thread starts without one of its own (haltServersWith). */
let threadHalt: Int32Array | undefined;

/**
 * Gives every QuickJS server this thread starts from now on `signal` as its `haltSignal` (unless
 * its options name one): a thread that runs whole sessions (`run`'s run threads) is closed by the
 * main thread, which sets it so that a guest busy on the thread cannot hold the close.
 */
export function haltServersWith(signal: Int32Array): void {
  threadHalt = signal;
}

/**
 * Starts an MCP server bundle in a QuickJS instance as new (one from the pool, or a new one) and
 * returns once the bundle has connected its transport: restored from the server's image when
 * there is one (see `images`), else by evaluating the bundle. Throws SandboxError (after freeing
 * the VM) if evaluation throws, runs out of memory or time, or never connects.
 */
export async function startQuickJsServer(opts: QuickJsServerOptions): Promise<QuickJsServer> {
  checkLimits(opts);
  const memoryLimitBytes = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  const variant = opts.variant ?? "release";
  const engine = opts.engine ?? DEFAULT_QUICKJS_ENGINE;
  const prelude = await preludeSource();
  const imaging = variant === "release" && (opts.images ?? process.env.TRAILBLAZE_QUICKJS_IMAGES !== "0");
  const slot = imaging
    ? imageSlot(
        {
          engine,
          memoryLimitBytes,
          stackLimitBytes: opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES,
          name: opts.name,
          code: opts.code,
          prelude,
        },
        opts.imageDir,
      )
    : undefined;
  const image = slot && findImage(slot);
  const handshake = image && findHandshakeImage(slot, image);
  const recordHandshake = slot !== undefined && !handshake && claimHandshakeRecording(slot);
  const initialBytes = Math.max(image?.linearBytes ?? 0, handshake?.linearBytes ?? 0);
  const module = await acquireQuickJsInstance({ variant, memoryLimitBytes, engine, initialBytes });
  // An image this instance could not take (its setup landed elsewhere) is replaced by this session's.
  const server = new QuickJsServerImpl(module, prelude, opts, { image, handshake, imaging: slot !== undefined, recordHandshake });
  try {
    const taken = await server.boot();
    if (taken && slot) keepImage(slot, taken);
    if (slot) server.handshakeImages(slot, recordHandshake);
  } catch (error) {
    if (recordHandshake) releaseHandshakeRecording(slot);
    await server.close();
    throw error;
  }
  return server;
}
