// An on-device server's console log: `<logs>/<session>/quickjs_console_<server>.log`, created with
// its first line. Each line is masked whole, then cut to MAX_LOG_LINE_CHARS, and written in batches
// without blocking the event loop; the file is capped like every log (CappedLogFile), so a guest
// that logs in a loop can neither slow the session to a crawl, nor fill the disk, nor the memory.

import { CappedLogFile } from "../core/capped-log-file.ts";
import { MAX_LOG_LINE_CHARS, maskLine } from "../core/log-line.ts";

export class ConsoleLogFile {
  readonly #file: CappedLogFile;
  readonly #mask: (text: string) => string;
  readonly #maxLineChars: number;

  /**
   * @param options.maxBytes most bytes the file holds (default TRAILBLAZE_LOG_MAX_BYTES, else 32 MiB);
   * @param options.maxLineChars longest line kept, in characters (default 1 MiB).
   */
  constructor(file: string, options: { mask?: (text: string) => string; maxBytes?: number; maxLineChars?: number } = {}) {
    this.#file = new CappedLogFile(file, {
      what: "console log",
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    });
    this.#mask = options.mask ?? ((text) => text);
    this.#maxLineChars = options.maxLineChars ?? MAX_LOG_LINE_CHARS;
  }

  /** Queues one console line; it is on disk within a few turns of the event loop. */
  line(level: string, text: string): void {
    // Once the file is cut, a line is only counted: no masking of what is never written.
    if (this.#file.full) return this.#file.dropped(Buffer.byteLength(text));
    const { text: kept, cutBytes } = maskLine(text, this.#mask, this.#maxLineChars);
    this.#file.append(`${new Date().toISOString()} ${level} ${kept}${cutBytes > 0 ? ` … [${cutBytes} more bytes]` : ""}\n`);
  }

  /** Writes what is queued, and the note of a cut. Idempotent; later lines are ignored. */
  close(): Promise<void> {
    return this.#file.close();
  }
}
