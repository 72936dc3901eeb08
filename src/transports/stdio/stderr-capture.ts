// A child's stderr as lines: a rolling in-memory tail for error messages, and an optional log file.
// Every line is masked whole before it is cut (for the tail or the file), and everything is bounded:
// a line's length in memory, the tail's lines and characters, and the file's bytes (CappedLogFile).

import type { Readable } from "node:stream";
import { CappedLogFile } from "../../core/capped-log-file.ts";
import { MASK_WINDOW_CHARS, MAX_LOG_LINE_CHARS, maskHead } from "../../core/log-line.ts";
import { cutLine, RollingTail } from "../../core/rolling-tail.ts";
import { LineSplitter, type Line } from "./line-splitter.ts";

interface StderrCaptureOptions {
  /** Most recent lines kept in memory for {@link StderrCapture.tail}. Default 64 lines. */
  tailLines?: number;
  /** Longest line kept in the tail, in characters; longer lines are cut and marked. Default 2000 characters. */
  maxTailLineLength?: number;
  /** Most characters of the whole tail; the oldest lines go first (the newest is always kept). Default 16384 characters. */
  maxTailChars?: number;
  /** Longest line written to the log file, in characters; the rest is counted in a marker. Default 1 MiB (MAX_LOG_LINE_CHARS). */
  maxLineLength?: number;
  /**
   * Characters dropped at the end of a line that was too long to hold whole (longer than
   * `maxLineLength + maskWindow` bytes): a secret up to this long straddling where the line was cut
   * is dropped rather than half shown. Default 64 KiB (MASK_WINDOW_CHARS).
   */
  maskWindow?: number;
  /**
   * Most bytes written to the log file; then later lines are only counted, and a note at close says
   * how much was not written (a flooding server cannot fill the disk). Default: TRAILBLAZE_LOG_MAX_BYTES, else 32 MiB.
   */
  maxFileBytes?: number;
  /**
   * File every line is appended to, e.g. `logs/<session>/subprocess_stderr_<name>.log`; it and
   * missing directories are created with the first line. Default: no file.
   */
  logFile?: string;
  /** Called once if the log file cannot be written; capture into the tail continues. */
  onFileError?: (error: Error) => void;
  /** Applied to every whole line before it is cut, kept or written (secrets masked as they arrive, so no file ever holds one). */
  mask?: (line: string) => string;
  /**
   * Lines that are only noted, never kept or written: `ready`, a server saying it marks its failed
   * answers (`marking`), and `answer`, the mark it writes before each (`marks`, `untilMarks`); see
   * core/answer-mark.ts. Default: none.
   */
  answerMarks?: { ready: string; answer: string };
}

export class StderrCapture {
  readonly #maxTailLineLength: number;
  readonly #maxLineLength: number;
  readonly #maskWindow: number;
  readonly #splitter: LineSplitter;
  readonly #tail: RollingTail;
  readonly #mask: (line: string) => string;
  /** Opens with the first line written: a server that writes nothing leaves no file. */
  readonly #file: CappedLogFile | undefined;
  #closed: Promise<void> | undefined;
  readonly #answerMarks: { ready: string; answer: string } | undefined;
  #marking = false;
  #marks = 0;
  #ended = false;
  readonly #markWaiters: { count: number; resolve: () => void }[] = [];

  constructor(options: StderrCaptureOptions = {}) {
    this.#answerMarks = options.answerMarks;
    this.#maxTailLineLength = options.maxTailLineLength ?? 2000;
    this.#tail = new RollingTail({ lines: options.tailLines ?? 64, chars: options.maxTailChars ?? 16 * 1024 });
    this.#maxLineLength = options.maxLineLength ?? MAX_LOG_LINE_CHARS;
    this.#maskWindow = options.maskWindow ?? MASK_WINDOW_CHARS;
    // Bytes are at least as many as characters: a line of up to maxLineLength + maskWindow bytes is masked whole.
    this.#splitter = new LineSplitter(this.#maxLineLength + this.#maskWindow);
    this.#mask = options.mask ?? ((line) => line);
    const onError = options.onFileError;
    this.#file =
      options.logFile === undefined
        ? undefined
        : new CappedLogFile(options.logFile, {
            what: "stderr log",
            ...(options.maxFileBytes !== undefined ? { maxBytes: options.maxFileBytes } : {}),
            ...(onError ? { onError } : {}),
          });
  }

  /**
   * Reads `stream` to its end (it is always drained, so the child never blocks on a full pipe).
   * Resolves when the stream has ended or failed.
   */
  attach(stream: Readable): Promise<void> {
    return new Promise((resolve) => {
      stream.on("data", (chunk: Buffer | string) => this.write(chunk));
      stream.once("end", () => {
        this.end();
        resolve();
      });
      stream.once("close", () => {
        this.end();
        resolve();
      });
      stream.once("error", () => {
        this.end();
        resolve();
      });
    });
  }

  /** Feeds raw stderr bytes. */
  write(chunk: Buffer | string): void {
    for (const line of this.#splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) this.#line(line);
  }

  /** Ends the stream: a final unterminated line counts as a line. */
  end(): void {
    const last = this.#splitter.flush();
    if (last) this.#line(last);
    this.#ended = true;
    for (const waiter of this.#markWaiters.splice(0)) waiter.resolve();
  }

  /** The server said it marks its failed answers. */
  get marking(): boolean {
    return this.#marking;
  }

  /** How many answer marks have arrived. */
  get marks(): number {
    return this.#marks;
  }

  /** Settles once `count` answer marks have arrived, or the stream has ended. */
  untilMarks(count: number): Promise<void> {
    if (this.#marks >= count || this.#ended) return Promise.resolve();
    return new Promise((resolve) => this.#markWaiters.push({ count, resolve }));
  }

  /** Records a line that did not come from stderr (e.g. `[trailblaze] …` notes about the child). */
  note(text: string): void {
    this.#line({ text, droppedBytes: 0 });
  }

  /** The most recent lines, oldest first (a copy). */
  tail(): string[] {
    return this.#tail.lines();
  }

  /** Lines (and notes) so far: a mark for `since`. */
  mark(): number {
    return this.#tail.pushed;
  }

  /** The lines after `mark`, as the tail keeps them (so at most the tail's lines). */
  since(mark: number): string[] {
    return this.#tail.since(mark);
  }

  /** Ends the stream and writes out the log file (and its cut note, if it was cut). Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.end();
      await this.#file?.close();
    })();
    return this.#closed;
  }

  #line(line: Line): void {
    if (line.droppedBytes === 0 && line.text === this.#answerMarks?.ready) {
      this.#marking = true;
      return;
    }
    if (line.droppedBytes === 0 && line.text === this.#answerMarks?.answer) {
      this.#marks++;
      for (const waiter of this.#markWaiters.filter((w) => w.count <= this.#marks)) {
        this.#markWaiters.splice(this.#markWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return;
    }
    // Masked whole, then cut: a secret is never split by a cut (maskHead).
    const { text, cutBytes } = maskHead(line.text, line.droppedBytes === 0, this.#mask, this.#maxLineLength, this.#maskWindow);
    const more = cutBytes + line.droppedBytes;
    const marker = more > 0 ? ` … [${more} more bytes]` : "";
    // Once the file is cut, a line is only counted, as it came (a cut line with what it lost).
    if (this.#file?.full) this.#file.dropped(Buffer.byteLength(line.text) + line.droppedBytes + 1);
    else this.#file?.append(`${text + marker}\n`);
    const shown = text + marker;
    this.#tail.push(
      shown.length > this.#maxTailLineLength ? cutLine(text, this.#maxTailLineLength, more > 0 ? ` + ${more} bytes` : "") : shown,
    );
  }
}
