// A child's stderr as lines: a rolling in-memory tail for error messages, and an optional append-only log file.

import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import type { Readable } from "node:stream";
import { LineSplitter, type Line } from "./line-splitter.ts";

export interface StderrCaptureOptions {
  /** Most recent lines kept in memory for {@link StderrCapture.tail}. Default 64 lines. */
  tailLines?: number;
  /** Longest line kept in the tail, in characters; longer lines are cut and marked. Default 2000 characters. */
  maxTailLineLength?: number;
  /** Longest line written to the log file, in bytes; the rest is replaced by a marker. Default 1 MiB. */
  maxFileLineBytes?: number;
  /**
   * Most bytes written to the log file; once reached, one marker line is written and later lines
   * are only kept in the tail (a flooding server cannot fill the disk). Default 256 MiB.
   */
  maxFileBytes?: number;
  /**
   * File every line is appended to, e.g. `logs/<session>/subprocess_stderr_<name>.log`; it and
   * missing directories are created with the first line. Default: no file.
   */
  logFile?: string;
  /** Called once if the log file cannot be written; capture into the tail continues. */
  onFileError?: (error: Error) => void;
  /** Applied to every line before it is kept or written (secrets masked as they arrive, so no file ever holds one). */
  mask?: (line: string) => string;
}

export class StderrCapture {
  readonly #tailLines: number;
  readonly #maxTailLineLength: number;
  readonly #splitter: LineSplitter;
  readonly #tail: string[] = [];
  readonly #onFileError: ((error: Error) => void) | undefined;
  readonly #mask: (line: string) => string;
  #file: WriteStream | undefined;
  /** The log file, opened with the first line: a server that writes nothing leaves no file. */
  #filePath: string | undefined;
  #fileFailed = false;
  readonly #maxFileBytes: number;
  #fileBytes = 0;
  #fileFull = false;
  #closed: Promise<void> | undefined;

  constructor(options: StderrCaptureOptions = {}) {
    this.#tailLines = options.tailLines ?? 64;
    this.#maxTailLineLength = options.maxTailLineLength ?? 2000;
    this.#splitter = new LineSplitter(options.maxFileLineBytes ?? 1024 * 1024);
    this.#onFileError = options.onFileError;
    this.#mask = options.mask ?? ((line) => line);
    this.#maxFileBytes = options.maxFileBytes ?? 256 * 1024 * 1024;
    this.#filePath = options.logFile;
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
  }

  /** Records a line that did not come from stderr (e.g. `[trailblaze] …` notes about the child). */
  note(text: string): void {
    this.#line({ text, droppedBytes: 0 });
  }

  /** The most recent lines, oldest first (a copy). */
  tail(): string[] {
    return [...this.#tail];
  }

  /** Ends the stream and flushes the log file. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.end();
      const file = this.#file;
      this.#file = undefined;
      if (!file || this.#fileFailed) return;
      await new Promise<void>((resolve) => {
        file.once("close", resolve);
        file.end();
      });
    })();
    return this.#closed;
  }

  #line(line: Line): void {
    const { droppedBytes } = line;
    const text = this.#mask(line.text);
    const marker = droppedBytes > 0 ? ` … [${droppedBytes} more bytes]` : "";
    this.#toFile(text + marker + "\n");
    let shown = text + marker;
    if (shown.length > this.#maxTailLineLength) {
      shown = `${text.slice(0, this.#maxTailLineLength)} … [line cut at ${this.#maxTailLineLength} of ${text.length} chars${droppedBytes > 0 ? ` + ${droppedBytes} bytes` : ""}]`;
    }
    this.#tail.push(shown);
    if (this.#tail.length > this.#tailLines) this.#tail.splice(0, this.#tail.length - this.#tailLines);
  }

  #toFile(line: string): void {
    if (this.#filePath !== undefined && !this.#file && !this.#fileFailed && this.#closed === undefined) this.#openFile(this.#filePath);
    if (!this.#file || this.#fileFull) return;
    const bytes = Buffer.byteLength(line);
    if (this.#fileBytes + bytes <= this.#maxFileBytes) {
      this.#fileBytes += bytes;
      this.#file.write(line);
      return;
    }
    this.#fileFull = true;
    this.#file.write(`[trailblaze] stderr log stopped at ${this.#fileBytes} bytes (limit ${this.#maxFileBytes}); later lines are not written\n`);
  }

  #openFile(path: string): void {
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.#file = createWriteStream(path, { flags: "a" });
      this.#file.on("error", (error) => this.#fail(error));
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    if (this.#fileFailed) return;
    this.#fileFailed = true;
    this.#file?.destroy();
    this.#file = undefined;
    this.#onFileError?.(error);
  }
}
