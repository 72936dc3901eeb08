// An MCP Transport that spawns, owns and stops one server process (and its process group), framing JSON-RPC over stdio.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ManagedTransport, ServerPhase } from "../transport.ts";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError, ServerExitedError, ServerFailedError, SpawnError, type ProcessExit, type TrailblazeError } from "../../errors.ts";
import { MessageReader } from "./message-reader.ts";
import { spawnError } from "./spawn-error.ts";
import { descendants, groupAlive, identityAlive, signalGroup, signalIdentity, type ProcessIdentity } from "./process-group.ts";
import { armSentinel, disarmSentinel } from "./group-sentinel.ts";
import { StderrCapture } from "./stderr-capture.ts";
import { FAILED_ANSWER_MARK, isFailedAnswer, MARKS_FAILED_ANSWERS } from "../../core/answer-mark.ts";
import { pollUntil, waitFor } from "./wait.ts";

export interface ProcessTransportOptions {
  /** Server name for messages, e.g. `tools/login.ts`. */
  name: string;
  /** Executable, absolute or looked up on `env.PATH` (e.g. `Runtime.command`). */
  command: string;
  args: readonly string[];
  /** Working directory of the child (for author servers: the script's folder). */
  cwd: string;
  /** The child's complete environment (not merged with `process.env`); undefined values are left out. */
  env: Record<string, string | undefined>;
  /** Append every stderr line here, e.g. `logs/<session>/subprocess_stderr_<name>.log`. Default: no file. */
  stderrLogFile?: string;
  /** Applied to every stderr line before it is kept or logged: the session's secrets masked as they arrive. */
  mask?: (line: string) => string;
  /** Stderr lines kept for {@link ProcessTransport.stderrTail}. Default 64 lines. */
  stderrTailLines?: number;
  /** After stdin is closed, how long to wait for the process to exit before SIGTERM, in ms. Default 5000 ms. */
  gracefulExitMs?: number;
  /** After SIGTERM, how long to wait before SIGKILL, in ms (also the bound for each later step). Default 2000 ms. */
  termExitMs?: number;
  /**
   * Largest JSON-RPC message (one stdout line) accepted from the server, in bytes. A longer one
   * fails the server: it is stopped and {@link ProcessTransport.failure} says why. Default 10 MiB.
   */
  maxMessageBytes?: number;
  /** A hint for a server that died during startup, from its stderr tail (e.g. which package to install). */
  explainStartup?: (stderrTail: readonly string[]) => string | undefined;
  /**
   * Arm the process-wide sentinel (group-sentinel.ts) that stops the server's group if this
   * process dies without closing the transport (SIGKILL, a runtime crash). Default true.
   */
  sentinel?: boolean;
}

/** Default for {@link ProcessTransportOptions.maxMessageBytes}: 10 MiB, the SDK's own stdio buffer limit. */
export const DEFAULT_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * Spawns `command` as the leader of its own process group and speaks newline-delimited JSON-RPC
 * over its stdin/stdout (the SDK's framing), so the SDK `Client` can drive it. Stderr is always
 * drained into a rolling tail and an optional log file. Lines on stdout that are not JSON-RPC are
 * skipped and reported (`onerror` + a `[trailblaze]` line in the stderr capture), not fatal.
 *
 * `close()` ends stdin, waits `gracefulExitMs`, sends SIGTERM to the group, waits `termExitMs`,
 * then SIGKILL; once the leader is gone (for any reason) the rest of its group is stopped too, and
 * so are descendants that had left the group (seen in the process tree when the close began).
 * A message over `maxMessageBytes` stops the server without the grace period. Should this process
 * die without closing (SIGKILL), the process-wide sentinel stops the group instead.
 */
export class ProcessTransport implements ManagedTransport, AsyncDisposable {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];
  /** Called once when the process exits before `close()` was called (a crash or an early exit). */
  onexit?: ((exit: ProcessExit) => void) | undefined;

  readonly name: string;
  /**
   * Settles when the leader process has exited (resolves with code/signal), or rejects with the
   * {@link SpawnError} if it never started.
   */
  readonly exited: Promise<ProcessExit>;

  readonly #options: ProcessTransportOptions;
  readonly #gracefulExitMs: number;
  readonly #termExitMs: number;
  readonly #stderr: StderrCapture;
  readonly #maxMessageBytes: number;
  readonly #stdout: MessageReader;
  #failure: ServerFailedError | undefined;
  #tree: ProcessIdentity[] = [];
  #armed = false;
  #settleExited!: { resolve: (exit: ProcessExit) => void; reject: (error: Error) => void };
  #child: ChildProcessWithoutNullStreams | undefined;
  #exit: ProcessExit | undefined;
  #started = false;
  #closeRequested = false;
  #closing: Promise<void> | undefined;
  #afterExit: Promise<void> | undefined;
  #streamsClosed!: () => void;
  readonly #streamsClosedPromise = new Promise<void>((resolve) => (this.#streamsClosed = resolve));
  #finished = false;
  /** It wrote at least one MCP message on stdout: it connected its transport. */
  #spoke = false;
  #flushed: Promise<void> | undefined;
  /** Failed answers (core/answer-mark.ts) read from stdout so far. */
  #failedAnswers = 0;

  constructor(options: ProcessTransportOptions) {
    this.name = options.name;
    this.#options = options;
    this.#gracefulExitMs = options.gracefulExitMs ?? 5000;
    this.#termExitMs = options.termExitMs ?? 2000;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#stdout = new MessageReader(this.#maxMessageBytes, {
      onMessage: (message) => {
        this.#spoke = true;
        if (isFailedAnswer(message)) this.#failedAnswers++;
        this.onmessage?.(message);
      },
      onNotJson: (preview) =>
        this.#report(`MCP server ${this.name} wrote a non-JSON-RPC line to stdout (skipped; servers must log to stderr): ${preview}`),
      onTooLarge: () => this.#tooLarge(),
      ...(options.mask ? { mask: options.mask } : {}),
    });
    this.#stderr = new StderrCapture({
      tailLines: options.stderrTailLines ?? 64,
      ...(options.stderrLogFile ? { logFile: options.stderrLogFile } : {}),
      ...(options.mask ? { mask: options.mask } : {}),
      answerMarks: { ready: MARKS_FAILED_ANSWERS, answer: FAILED_ANSWER_MARK },
      onFileError: (error) =>
        this.onerror?.(new Error(`Cannot write the stderr log of MCP server ${this.name}: ${error.message}`, { cause: error })),
    });
    this.exited = new Promise<ProcessExit>((resolve, reject) => (this.#settleExited = { resolve, reject }));
    this.exited.catch(() => {});
  }

  /** PID of the server process (also its process group id); undefined before start or if spawning failed. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Why the server stopped unasked: the limit the transport enforced (an oversized message), the
   * spawn failure, or its exit code/signal with the stderr tail and, at startup, the author's fix.
   */
  async failure(phase: ServerPhase): Promise<TrailblazeError> {
    let exit: ProcessExit;
    try {
      exit = await this.exited;
    } catch (error) {
      return error instanceof SpawnError ? error : new SpawnError(`MCP server ${this.name} could not be started`, { cause: error });
    }
    if (this.#failure) return this.#failure;
    const tail = this.stderrTail();
    const hint = phase === "startup" ? this.#options.explainStartup?.(tail) : undefined;
    const during = phase === "startup" ? "during startup (initialize/tools/list)" : "during the session";
    const neverConnected = phase === "startup" && exit.exitCode === 0 && !this.#spoke;
    return new ServerExitedError(this.name, exit, tail, during, hint, { neverConnected });
  }

  /** The last stderr lines (and `[trailblaze]` notes), oldest first. */
  stderrTail(): string[] {
    return this.#stderr.tail();
  }

  diagnostics(): readonly string[] {
    return this.stderrTail();
  }

  readonly diagnosticsSource = "stderr";

  outputMark(): number {
    return this.#stderr.mark();
  }

  /**
   * Stderr and the answers on stdout are two pipes, and nothing orders a line on one against a
   * message on the other. What a process wrote before it exited is all in once its stderr has
   * ended: that is waited for. A precompiled server (bundle/host-bundle.ts) says at start that it
   * marks its failed answers, then writes a mark to stderr before each (core/answer-mark.ts);
   * stderr is one pipe in order, so once as many marks as failed answers have arrived, every line
   * written before the last is in. A server that writes no marks (`command:`, a script run from
   * source or under node) relies on Bun taking ready pipes in the order epoll reports them, the
   * order they became ready, so lines written (synchronously, as bun and node write to a pipe)
   * before the answer are read no later than it, after one turn of the loop: what Bun does, not a
   * promise of the platform. Each wait is bounded as the clean-up after an exit is.
   * test/call-evidence.test.ts holds it to that, call after call.
   */
  async outputSince(mark: number): Promise<readonly string[]> {
    if (this.#exit) await waitFor(this.#streamsClosedPromise, this.#termExitMs);
    else if (this.#stderr.marking) await waitFor(this.#stderr.untilMarks(this.#failedAnswers), this.#termExitMs);
    else await new Promise((resolve) => setImmediate(resolve));
    return this.#stderr.since(mark);
  }

  /** Spawns the process; resolves once it runs, rejects with a {@link SpawnError} if it cannot start. */
  start(): Promise<void> {
    if (this.#started || this.#closeRequested) {
      return Promise.reject(new Error(`ProcessTransport for ${this.name} was already started or closed`));
    }
    this.#started = true;
    const { command, args, cwd, env } = this.#options;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(command, [...args], { cwd, env: definedOnly(env), stdio: ["pipe", "pipe", "pipe"], detached: true });
    } catch (error) {
      const failure = spawnError(this.name, this.#options, error);
      this.#settleExited.reject(failure);
      this.#finish();
      return Promise.reject(failure);
    }
    this.#child = child;
    child.stdout.on("data", (chunk: Buffer) => this.#stdout.push(chunk));
    child.stdout.on("error", (error) => this.onerror?.(error));
    void this.#stderr.attach(child.stderr);
    // Write failures surface through send(); EPIPE after a crash is expected.
    child.stdin.on("error", () => {});
    child.once("exit", (code, signal) => this.#onExit({ exitCode: code, signal }));
    child.once("close", () => {
      this.#streamsClosed();
      // `onclose` means the whole group is gone: wait for the clean-up the exit started.
      if (this.#afterExit) void this.#afterExit.then(() => this.#finish());
      else this.#finish();
    });
    return new Promise<void>((resolve, reject) => {
      let spawned = false;
      child.once("spawn", () => {
        spawned = true;
        if (this.#options.sentinel !== false && child.pid !== undefined) {
          armSentinel(child.pid, this.#termExitMs);
          this.#armed = true;
        }
        resolve();
      });
      child.on("error", (error) => {
        if (spawned) {
          this.onerror?.(error);
          return;
        }
        const failure = spawnError(this.name, this.#options, error);
        this.#settleExited.reject(failure);
        reject(failure);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit || this.#closeRequested || this.#failure || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(this.#notRunning());
    }
    return new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => {
        if (!error) return resolve();
        // A failed write means the child closed its stdin, usually because it is exiting: say how it ended.
        void waitFor(this.exited, this.#termExitMs).then(() => reject(this.#notRunning(error)));
      });
    });
  }

  /** Stops the process group (see the class comment). Idempotent; resolves when the stderr log is flushed. */
  close(): Promise<void> {
    this.#closeRequested = true;
    this.#closing ??= this.#shutdown(this.#gracefulExitMs);
    return this.#closing;
  }

  /**
   * Like `close()` but skips the stdin grace period (SIGTERM → `termExitMs` → SIGKILL): for a
   * server that never finished its handshake and so cannot be expected to exit politely.
   */
  terminate(): Promise<void> {
    this.#closeRequested = true;
    this.#closing ??= this.#shutdown(0);
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(gracefulExitMs: number): Promise<void> {
    const child = this.#child;
    if (!child || child.pid === undefined) {
      this.#settleExited.reject(new SpawnError(`MCP server ${this.name} was closed before it was started`));
      this.#finish();
      await this.#flushed;
      return;
    }
    const pid = child.pid;
    if (!this.#exit) {
      // Taken while the tree is intact: once a parent exits, its children are re-parented and lost from view.
      this.#tree = descendants(pid);
      child.stdin.end();
      if (!(await waitFor(this.exited, gracefulExitMs))) {
        signalGroup(pid, "SIGTERM");
        if (!(await waitFor(this.exited, this.#termExitMs))) {
          signalGroup(pid, "SIGKILL");
          await waitFor(this.exited, this.#termExitMs);
        }
      }
    }
    await this.#cleanUpAfterExit(pid);
    await this.#flushed;
  }

  #onExit(exit: ProcessExit): void {
    this.#exit = exit;
    this.#settleExited.resolve(exit);
    if (!this.#closeRequested) this.onexit?.(exit);
    const pid = this.#child?.pid;
    if (pid !== undefined) void this.#cleanUpAfterExit(pid);
  }

  /**
   * Once the leader is gone (or close() gave up on it): stops whatever is left in its group
   * (SIGTERM, then SIGKILL), gives the pipes a moment to drain, then stops reading them (a process
   * outside the group may hold them open) and fires `onclose`.
   */
  #cleanUpAfterExit(pgid: number): Promise<void> {
    this.#afterExit ??= (async () => {
      if (groupAlive(pgid)) {
        signalGroup(pgid, "SIGTERM");
        if (!(await pollUntil(() => !groupAlive(pgid), this.#termExitMs))) {
          signalGroup(pgid, "SIGKILL");
          await pollUntil(() => !groupAlive(pgid), this.#termExitMs);
        }
      }
      await this.#stopStragglers();
      if (this.#armed) disarmSentinel(pgid);
      await waitFor(this.#streamsClosedPromise, 1000);
      this.#child?.stdout.destroy();
      this.#child?.stderr.destroy();
      this.#finish();
    })();
    return this.#afterExit;
  }

  /** Stops descendants that had left the process group (setsid, `detached` helpers): SIGTERM, then SIGKILL. */
  async #stopStragglers(): Promise<void> {
    const left = this.#tree.filter(identityAlive);
    this.#tree = [];
    if (left.length === 0) return;
    this.#stderr.note(
      `[trailblaze] stopping ${left.length} process(es) the server started outside its process group: ${left.map((p) => p.pid).join(", ")}`,
    );
    for (const who of left) signalIdentity(who, "SIGTERM");
    if (await pollUntil(() => !left.some(identityAlive), this.#termExitMs)) return;
    for (const who of left) signalIdentity(who, "SIGKILL");
    await pollUntil(() => !left.some(identityAlive), this.#termExitMs);
  }

  /** A message over the limit: the stream can no longer be trusted, so the server is stopped without a grace period. */
  #tooLarge(): void {
    if (this.#failure || this.#closeRequested || this.#exit) return;
    const message =
      `MCP server ${this.name} wrote a message of more than ${this.#maxMessageBytes} bytes to stdout ` +
      `(limit: max_message_bytes, default ${DEFAULT_MAX_MESSAGE_BYTES}); the server was stopped. ` +
      "Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target";
    this.#failure = new ServerFailedError(this.name, message);
    this.#stderr.note(`[trailblaze] ${message}`);
    this.onerror?.(this.#failure);
    this.#closing ??= this.#shutdown(0);
  }

  /** Fires `onclose` once, after the streams are done, and flushes the stderr log. */
  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#stdout.end();
    // Notes written while the group is being cleaned up still reach the log file.
    this.#flushed = (this.#afterExit ?? Promise.resolve()).then(() => this.#stderr.close());
    this.onclose?.();
  }

  #report(message: string): void {
    this.#stderr.note(`[trailblaze] ${message}`);
    this.onerror?.(new ProtocolError(message));
  }

  #notRunning(cause?: Error): Error {
    if (this.#closeRequested) return new Error(`MCP server ${this.name} is closed`, { cause });
    if (this.#exit) return new ServerExitedError(this.name, this.#exit, this.stderrTail(), "before a message could be sent");
    return new Error(`MCP server ${this.name} is not running (${this.#child ? "closed" : "not started"})`, { cause });
  }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
