// Runs an author's bundled MCP server inside QuickJS: one instance + runtime per server with
// memory, stack and time limits (per delivery, and budgets across them: guest-budget.ts) and a
// cap on the size of its messages, exposed to the host as an SDK `Transport`. Owns fault
// handling: a handler past its deadline fails its request and the VM stays usable; running out
// of memory or of a time budget, not stopping when interrupted, or a message over the size
// limit stops the server.
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { SourceMap, type SourceMapPayload } from "node:module";
import { ProtocolError, SandboxError, withTail, type TrailblazeError } from "../src/errors.ts";
import type { ManagedTransport, ServerPhase } from "../src/transports/transport.ts";
import { QuickJsHostTransport } from "./host-transport.ts";
import { preludeSource } from "./prelude-source.ts";
import {
  DEFAULT_QUICKJS_ENGINE,
  MIN_MEMORY_BYTES,
  type newQuickJsInstance,
  type QuickJsEngine,
  type QuickJsVariant,
} from "./quickjs-module.ts";
import { Sandbox, isOutOfMemoryText, type Delivery, type GuestError, type LogLevel } from "./sandbox.ts";
import {
  findHandshakeImage,
  findImage,
  imageSlot,
  keepHandshakeImage,
  keepImage,
  refuseHandshakeImage,
  claimHandshakeRecording,
  releaseHandshakeRecording,
  type HandshakeImage,
  type ImageSlot,
  type ServerImage,
} from "./image-store.ts";
import { HandshakeRecorder, HandshakeReplay } from "./handshake.ts";
import { acquireQuickJsInstance, poolTakesBack, recycleQuickJsInstance } from "./instance-pool.ts";
import { ConsoleTail } from "./console-tail.ts";
import { guestJson, takesContextOnce } from "./context-once.ts";
import { answeredId, isClientRequest, parseGuestMessage } from "./message-kinds.ts";
import {
  DEFAULT_IDLE_CPU_MS,
  DEFAULT_IDLE_DELIVERY_MS,
  DEFAULT_IDLE_WINDOW_MS,
  DEFAULT_SESSION_CPU_MS,
  GuestBudget,
  type DeliverySlot,
} from "./guest-budget.ts";

export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
export const MAX_STACK_LIMIT_BYTES = 256 * 1024;
export const DEFAULT_CALL_DEADLINE_MS = 10_000;
/** Default for `maxMessageBytes`: the host's for a stdio server (the SDK's stdio buffer limit, 10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;
/** Guest stack frames kept in a SandboxError message. */
const STACK_FRAMES = 10;

/** What each limit that can interrupt a delivery is, for messages. */
const DEADLINE_WORDS = {
  callDeadlineMs: "callDeadlineMs",
  idleDeliveryMs: "idleDeliveryMs: a delivery outside any call",
  idleCpuMs: "idleCpuMs: guest time outside calls",
  sessionCpuMs: "sessionCpuMs: guest time per session",
} as const;

export interface QuickJsServerOptions {
  /** Names the server in messages and stack traces (e.g. the toolset id or file name). */
  name: string;
  /** The bundle: a classic script (what `bundleEntry` produces, or any esbuild IIFE). */
  code: string;
  /**
   * Memory cap in bytes for the server's QuickJS instance (guest heap + QuickJS's stack and
   * static data), rounded up to 64 KiB. At least 16 MiB (the module's initial memory). Default 64 MiB.
   */
  memoryLimitBytes?: number;
  /** Guest stack limit in bytes. Default and maximum 256 KiB (more breaks the host under Bun/Node). */
  stackLimitBytes?: number;
  /**
   * Longest a single entry into the guest may run while a call (any request of the client) is in
   * flight, in ms: handling one message, one timer callback, resuming after one
   * `trailblaze.execute`. Renewed for every entry. Default 10 000.
   */
  callDeadlineMs?: number;
  /**
   * Longest a single entry into the guest may run while no call is in flight (a timer callback,
   * resuming after `trailblaze.execute`, a notification), in ms. Default 1000.
   */
  idleDeliveryMs?: number;
  /**
   * Guest time the server may use outside calls, in ms, at once; it is regained at this much per
   * `idleWindowMs` (a duty cycle: 2000 per 10 000 is 20 % of a core). Using it up stops the server
   * (the session fails), naming what used the time. Default 2000.
   */
  idleCpuMs?: number;
  /** See `idleCpuMs`, in ms. Default 10 000. */
  idleWindowMs?: number;
  /**
   * Guest time the server may use in all during its session (calls, timers, evaluating the
   * bundle), in ms. Using it up stops the server. Default 300 000 (5 min).
   */
  sessionCpuMs?: number;
  /**
   * Largest JSON-RPC message the guest may send, in bytes (UTF-8, as a stdio server's line is
   * counted). A larger one stops the server, as the host agent stops a stdio server. Default 10 MiB.
   */
  maxMessageBytes?: number;
  /**
   * A word shared with another thread (the one that runs the session's run and closes it): once it
   * is non-zero, guest code running is interrupted at once (a busy guest cannot hold a close or a
   * Ctrl-C). Default: the word haltServersWith gave this thread, if any.
   */
  haltSignal?: Int32Array;
  /**
   * Longest evaluating the bundle and connecting its transport may take, in ms (a cold start
   * parses the whole bundle). Default: the larger of callDeadlineMs and 10 000.
   */
  startDeadlineMs?: number;
  /** Receives guest `console` output, one formatted line per call. Default: discarded. */
  onLog?: (level: LogLevel, text: string) => void;
  /**
   * The session's secrets masked out of a text: applied to console lines and to what a message
   * quotes of the guest before either is cut. Default: nothing masked.
   */
  mask?: (text: string) => string;
  /**
   * Implements guest `trailblaze.execute(name, args)`: the guest gets a promise of the JSON
   * round-trip of the result; a rejection becomes a guest Error with the same name and message.
   * Depth capping and re-entry detection are the caller's job. Default: every call rejects.
   */
  onExecute?: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  /** `debug` runs the assertion/leak-checking QuickJS build without the memory cap (tests). Default `release`. */
  variant?: QuickJsVariant;
  /**
   * The bundle's v3 source map, so guest stack frames name the author's file:line:col. `shift`:
   * columns the bundle's first line has in front of what the map describes (a wrapper).
   */
  sourceMap?: { map: string; shift: number };
  /** Which QuickJS runs the bundle. Default: DEFAULT_QUICKJS_ENGINE (`$TRAILBLAZE_QUICKJS`, else `quickjs`). */
  engine?: QuickJsEngine;
  /**
   * Start from an image of an earlier session of the same server in this process (its memory
   * once its bundle was evaluated and connected) instead of evaluating the bundle again, and
   * image this session for later ones if there is none. Each session still starts from the
   * pristine server: what a session did never reaches the image. Only servers whose top-level
   * code settles without a timer, a host call or a message are imaged. A server is also imaged
   * once it answered its first session's handshake (initialize, notifications/initialized,
   * tools/list, with nothing else either way): later sessions whose client opens with the same
   * messages start from that image and get the recorded answers. Default: true, unless
   * `TRAILBLAZE_QUICKJS_IMAGES=0` is in the process's environment. Not for the `debug` variant.
   */
  images?: boolean;
  /** Also keep images in this folder (e.g. `.cache/trailblaze-images`), for the sessions of later processes. */
  imageDir?: string;
}

export interface QuickJsServer {
  /** Connect an SDK `Client` to this, as to a stdio transport. */
  readonly transport: ManagedTransport;
  /** `bytes`: live guest heap (QuickJS's accounting); `linearBytes`: the instance's memory size. 0 once closed. */
  memoryUsage(): { bytes: number; linearBytes: number };
  /** Why the server stopped on its own (out of memory, stuck), once it has; what a send then throws. */
  readonly stopped: SandboxError | undefined;
  /** Whether it started from an image of an earlier session of the same server (see `images`). */
  readonly restored: boolean;
  /**
   * Whether its client's handshake (initialize, notifications/initialized, tools/list) was answered
   * from the image it was restored from, the guest being past it already (see `images`).
   */
  readonly handshakeReplayed: boolean;
  /**
   * Stops timers, frees the VM and reports the close to the client (pending calls fail).
   * Idempotent. Rejects only if QuickJS found a leaked handle while freeing (a host bug).
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface Pending {
  method: string;
  /** `tools/call "name"`, for messages. */
  label: string;
}

/** The text the SDK replied with when a handler threw (as a tool error result or a JSON-RPC error). */
function failureText(m: JSONRPCMessage): string | undefined {
  if ("error" in m) return m.error.message;
  if (!("result" in m)) return undefined;
  const result = m.result as { isError?: unknown; content?: { text?: unknown }[] };
  const text = result.content?.[0]?.text;
  return result.isError === true && result.content?.length === 1 && typeof text === "string" ? text : undefined;
}

class QuickJsServerImpl implements QuickJsServer {
  readonly transport: QuickJsHostTransport;
  private readonly sandbox: Sandbox;
  /** Requests delivered to the guest and not answered yet. */
  private readonly inFlight = new Map<RequestId, Pending>();
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
  /** The last tools/call delivered (`tools/call "name"`), for messages. */
  private lastCall: string | undefined;
  /** Whether the failure message goes without the console tail (a limit the console says nothing about). */
  private fatalWithoutTail = false;
  /** The bundle's source map, parsed on first use; null when it could not be read. */
  private mapper: SourceMap | null | undefined;
  /** The last guest console lines, oldest first. */
  private readonly consoleTail: ConsoleTail;
  /** Whether this server was restored from an image (its bundle is not evaluated again). */
  readonly restored: boolean;
  /** Console lines written while the bundle evaluates, kept for the image (when imaging). */
  private bootLogs: [LogLevel, string][] | undefined;
  /** Watching this session's handshake, for an image taken right after it. */
  private recorder: HandshakeRecorder | undefined;
  /** Answering this session's handshake from the image it was restored from. */
  private replay: HandshakeReplay | undefined;
  handshakeReplayed = false;
  /** The image of the server before any handshake: what a session whose client opens differently is rewound to. */
  private bootImage: ServerImage | undefined;
  /** The server's handshake images: where they are kept, or refused when a client opens differently. */
  private handshakeSlot: ImageSlot | undefined;
  /** The console lines of the server's image (restored or taken): a handshake image keeps them. */
  private imageLogs: [LogLevel, string][] = [];

  /**
   * `image`: the server's image, restored if it fits; `handshake`: its image after a handshake,
   * restored instead when it fits; `imaging`: a server whose image may be taken once it boots
   * (unless restored) and, with `recordHandshake`, once it answered its handshake.
   */
  constructor(
    private readonly module: Awaited<ReturnType<typeof newQuickJsInstance>>,
    prelude: string,
    private readonly opts: QuickJsServerOptions,
    reuse: { image: ServerImage | undefined; handshake: HandshakeImage | undefined; imaging: boolean; recordHandshake: boolean },
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
      callInFlight: () => this.callInFlight()?.label,
      onLog: (level, text) => this.log(level, text),
      onExecute: opts.onExecute,
      maxMessageBytes: this.maxMessageBytes,
      onGuestMessage: (json) => this.fromGuest(json),
      onUnsentMessage: (reason, leastBytes, id) => this.unsent(reason, leastBytes, id),
      onDetach: () => void this.close(),
      onAsyncDelivery: (delivery, what, source) => this.afterDelivery(delivery, what, undefined, source),
    });
    // Measured before a restore too when this session may be imaged after its handshake.
    if (reuse.recordHandshake) this.sandbox.prepareImage();
    const image =
      reuse.handshake && reuse.image && this.sandbox.restore(reuse.handshake)
        ? reuse.handshake
        : reuse.image && this.sandbox.restore(reuse.image)
          ? reuse.image
          : undefined;
    this.restored = image !== undefined;
    if (image) {
      this.imageLogs = image.logs;
      for (const [level, text] of image.logs) this.log(level, text);
      if (image === reuse.handshake) {
        this.replay = new HandshakeReplay(reuse.handshake.handshake);
        this.bootImage = reuse.image;
      }
    } else {
      if (reuse.imaging) this.sandbox.prepareImage();
      this.sandbox.installPrelude(prelude);
    }
  }

  /** Once booted: `slot` is where this session's handshake image goes (`record`), or where to refuse them if it rewinds. */
  handshakeImages(slot: ImageSlot, record: boolean): void {
    this.handshakeSlot = slot;
    if (record && !this.replay) this.recorder = new HandshakeRecorder();
  }

  private log(level: LogLevel, text: string): void {
    // A guest that writes during its handshake is not imaged after it (a restore would not repeat the lines).
    this.recorder?.fail();
    this.bootLogs?.push([level, text]);
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
    this.bootLogs = [];
    const { delivery, settled, settledNow } = this.sandbox.evaluate(this.opts.code, `${this.opts.name}.bundle.js`, this.startDeadlineMs);
    const logs = this.bootLogs;
    this.bootLogs = undefined;
    this.imageLogs = logs;
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
    switch (error.kind) {
      case "interrupted": {
        if (deadlineMs !== undefined)
          return new SandboxError(`${this.label}: ${during} was interrupted after ${deadlineMs} ms (startDeadlineMs)`, "interrupted");
        const slot = this.slot ?? { ms: this.deadlineMs, limit: "callDeadlineMs" as const };
        return new SandboxError(
          `${this.label}: ${during} was interrupted after ${slot.ms} ms (${DEADLINE_WORDS[slot.limit]})`,
          "interrupted",
        );
      }
      case "halted":
        return new SandboxError(`${this.label} was stopped while ${during}`, "closed");
      case "stuck":
        return new SandboxError(
          `${this.label} kept running after being interrupted (callDeadlineMs ${this.deadlineMs} ms) while ${during}; the server was stopped`,
          "stuck",
        );
      case "out-of-memory":
        return new SandboxError(
          `${this.label} ran out of memory while ${during}: it reached memoryLimitBytes (${this.memoryLimit} bytes); the server was stopped`,
          "out-of-memory",
        );
      default: {
        const frames = error.stack
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => this.mapFrame(line));
        const shown = frames.slice(0, STACK_FRAMES);
        if (frames.length > STACK_FRAMES) shown.push(`    ... ${frames.length - STACK_FRAMES} more frame(s)`);
        return new SandboxError(
          `${this.label} threw while ${during}: ${error.name}: ${error.message}${shown.length ? `\n${shown.join("\n")}` : ""}`,
          "threw",
        );
      }
    }
  }

  /** `at f (x.bundle.js:1:4077)` → `at f (tools/x.ts:12:5)` through the source map, when there is one and it reads. */
  private mapFrame(line: string): string {
    const sourceMap = this.opts.sourceMap;
    if (!sourceMap || this.mapper === null) return line;
    try {
      this.mapper ??= new SourceMap(JSON.parse(sourceMap.map) as SourceMapPayload);
    } catch {
      this.mapper = null; // a map file gone or damaged since the bundle was checked: frames stay as they are
      return line;
    }
    const bundleFile = `${this.opts.name}.bundle.js:`;
    return line.replace(
      /(\(|at )([^()\s]+):(\d+):(\d+)(\)?)$/,
      (frame, open: string, file: string, row: string, column: string, close: string) => {
        if (`${file}:` !== bundleFile) return frame;
        const lineIndex = Number(row) - 1;
        const columnIndex = Number(column) - 1 - (lineIndex === 0 ? sourceMap.shift : 0);
        const entry = this.mapper!.findEntry(lineIndex, Math.max(0, columnIndex));
        if (!("originalSource" in entry) || entry.generatedLine !== lineIndex) return frame;
        return `${open}${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}${close}`;
      },
    );
  }

  private toGuest(message: JSONRPCMessage): void {
    if (this.fatal) throw this.fatal;
    if (this.closing || !this.sandbox.alive) throw new SandboxError(`${this.label} is closed`, "closed");
    if (this.replay) {
      const step = this.replay.next(message);
      if (step === "drop") return;
      if (typeof step === "object") {
        this.handshakeReplayed = this.replay.done;
        return this.transport.fromGuest(step.reply);
      }
      this.replay = undefined;
      if (step === "rewind") {
        // Another client than the recorded one's: before the handshake, and no handshake images of this server from now on.
        this.sandbox.rewind(this.bootImage!);
        if (this.handshakeSlot) refuseHandshakeImage(this.handshakeSlot);
      }
    }
    this.recorder?.toGuest(message);
    let id: RequestId | undefined;
    if (isClientRequest(message)) {
      id = message.id;
      const tool = message.method === "tools/call" ? (message.params as { name?: unknown } | undefined)?.name : undefined;
      const label = typeof tool === "string" ? `${message.method} "${tool}"` : message.method;
      if (typeof tool === "string") this.lastCall = label;
      this.inFlight.set(id, { method: message.method, label });
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // The client gave up on the request (the SDK sends no reply to it): no call is in flight for it any more.
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (cancelled !== undefined) this.inFlight.delete(cancelled);
    }
    const delivery = this.sandbox.deliverMessage(this.contextOnce ? guestJson(message) : JSON.stringify(message));
    const what =
      id === undefined
        ? `handling ${"method" in message ? message.method : "a response"}`
        : `handling ${this.inFlight.get(id)?.label ?? "a request"}`;
    if (delivery.error) this.recorder?.fail();
    this.afterDelivery(delivery, what, id, what);
    if (this.recorder) this.afterHandshakeStep(this.recorder);
  }

  /** Takes the handshake image once the recorder has the whole handshake (two replies sent); gives up when it failed. */
  private afterHandshakeStep(recorder: HandshakeRecorder): void {
    if (!recorder.record && !recorder.failed) return;
    this.recorder = undefined;
    // A recorder exists only once `handshakeImages` gave the slot.
    const slot = this.handshakeSlot!;
    const image = recorder.record && this.sandbox.takeImage(2);
    if (image) keepHandshakeImage(slot, { ...image, logs: this.imageLogs, handshake: recorder.record! });
    else refuseHandshakeImage(slot);
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
    this.recorder?.fromGuest(message);
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

  /** The latest tools/call in flight, if any. */
  private callInFlight(): Pending | undefined {
    if (this.inFlight.size === 0) return undefined;
    return [...this.inFlight.values()].findLast((p) => p.method === "tools/call");
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
      const pending = this.callInFlight();
      const call = pending
        ? { label: pending.label, inFlight: true }
        : this.lastCall
          ? { label: this.lastCall, inFlight: false }
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
    const implicated =
      id !== undefined ? (this.inFlight.has(id) ? [id] : []) : error.kind === "interrupted" ? [...this.inFlight.keys()] : [];
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
    for (const id of [...this.inFlight.keys()]) this.failRequest(id, ErrorCode.ConnectionClosed, error.message);
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
      if (this.recorder) releaseHandshakeRecording(this.handshakeSlot!);
      this.recorder = undefined;
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

function checkLimits(opts: QuickJsServerOptions): void {
  const stack = opts.stackLimitBytes ?? MAX_STACK_LIMIT_BYTES;
  if (!(stack > 0 && stack <= MAX_STACK_LIMIT_BYTES)) {
    throw new SandboxError(
      `stackLimitBytes must be between 1 and ${MAX_STACK_LIMIT_BYTES} (got ${stack}): larger QuickJS stacks break the host under Bun/Node`,
      "limits",
    );
  }
  const memory = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  if (!(memory >= MIN_MEMORY_BYTES && memory <= 2 ** 31)) {
    throw new SandboxError(
      `memoryLimitBytes must be between ${MIN_MEMORY_BYTES} (the QuickJS module's initial memory) and ${2 ** 31} (got ${memory})`,
      "limits",
    );
  }
  for (const key of ["callDeadlineMs", "startDeadlineMs", "idleDeliveryMs", "idleCpuMs", "idleWindowMs", "sessionCpuMs"] as const) {
    const value = opts[key];
    if (value !== undefined && !(value > 0))
      throw new SandboxError(`${key} must be a positive number of milliseconds (got ${value})`, "limits");
  }
  const bytes = opts.maxMessageBytes;
  if (bytes !== undefined && !(Number.isInteger(bytes) && bytes > 0))
    throw new SandboxError(`maxMessageBytes must be a positive whole number of bytes (got ${bytes})`, "limits");
}

/**
 * Starts an MCP server bundle in a QuickJS instance as new (one from the pool, or a new one) and
 * returns once the bundle has connected its transport: restored from the server's image when
 * there is one (see `images`), else by evaluating the bundle. Throws SandboxError (after freeing
 * the VM) if evaluation throws, runs out of memory or time, or never connects.
 */
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
