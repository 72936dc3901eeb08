// Bun-native stand-ins for process.stdin and process.stdout, given to the SDK's
// StdioServerTransport in precompiled host servers (host-bundle.ts). They implement only what that
// transport calls: on/off/listenerCount/pause of a readable and write/once("drain") of a writable.
// The first touch of process.stdin or process.stdout makes Bun load its Node stream machinery,
// ~17 ms of CPU per server start (BENCHMARKS.md, P2); Bun.stdin's stream and Bun.stdout's file sink
// load none of it. Also what that transport writes to stderr for the host: the marks of its failed
// answers (core/answer-mark.ts).

import { FAILED_ANSWER_MARK, isFailedAnswer, MARKS_FAILED_ANSWERS } from "../../core/answer-mark.ts";

type Listener = (value?: unknown) => void;
type Stream = ReturnType<typeof Bun.stdin.stream>;
/** What is used of the stream's default reader. */
interface Reader {
  read(): Promise<{ done: true; value?: Uint8Array } | { done: false; value: Uint8Array }>;
  releaseLock(): void;
}

/** stdin as the SDK transport reads it: `data` events of Buffers from Bun.stdin's stream. */
export class BunStdin {
  #listeners = new Map<string, Set<Listener>>();
  #stream: Stream | undefined;
  #reader: Reader | undefined;

  on(event: string, listener: Listener): this {
    this.#set(event).add(listener);
    if (event === "data") this.#resume();
    return this;
  }

  off(event: string, listener: Listener): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  listenerCount(event: string): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  /** Stops reading; the pending read is dropped, so stdin no longer keeps the process alive. */
  pause(): this {
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.releaseLock();
    return this;
  }

  #set(event: string): Set<Listener> {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    return set;
  }

  #resume(): void {
    if (this.#reader) return;
    this.#stream ??= Bun.stdin.stream();
    const reader = this.#stream.getReader();
    this.#reader = reader;
    void this.#pump(reader);
  }

  async #pump(reader: Reader): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.#reader !== reader) return;
        // The SDK's ReadBuffer searches its buffer for "\n" as a Buffer does.
        const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        for (const listener of [...this.#set("data")]) listener(chunk);
      }
    } catch (error) {
      // pause() rejects the pending read on purpose; any other failure is the stream's error.
      if (this.#reader === reader) for (const listener of [...this.#set("error")]) listener(error);
    }
  }
}

/** stdout as the SDK transport writes it: `write` says whether to wait for `drain`. */
export class BunStdout {
  #sink = Bun.stdout.writer();
  #drain = new Set<Listener>();

  write(text: string): boolean {
    const pending = [this.#sink.write(text), this.#sink.flush()].filter((step) => step instanceof Promise);
    if (pending.length === 0) return true;
    Promise.all(pending).then(
      () => {
        const waiting = [...this.#drain];
        this.#drain.clear();
        for (const listener of waiting) listener();
      },
      (error: unknown) => {
        // As an unhandled error of process.stdout would: the client is gone (EPIPE) or stdout broke.
        queueMicrotask(() => {
          throw error;
        });
      },
    );
    return false;
  }

  once(event: string, listener: Listener): this {
    if (event === "drain") this.#drain.add(listener);
    return this;
  }
}

/**
 * The marks of core/answer-mark.ts on stderr: once as the transport starts, then just before each
 * failed answer goes to stdout, after whatever the server wrote there before. Through
 * console.error, as the server's own lines mostly go (Bun writes it at once, in order with
 * process.stderr, and loads nothing for it); a console the server replaced may change or drop a
 * mark, and the host then finds none and waits for none.
 */
export const answerMarks = {
  started(): void {
    console.error(MARKS_FAILED_ANSWERS);
  },
  sending(message: unknown): void {
    if (isFailedAnswer(message)) console.error(FAILED_ANSWER_MARK);
  },
};
