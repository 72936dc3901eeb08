// Splits a byte stream into UTF-8 lines (LF or CRLF), keeping at most a bounded head of an overlong line.

export interface Line {
  /** The line without its terminator, cut to the splitter's byte limit. */
  text: string;
  /** Bytes of the line that were dropped because it was longer than the limit. */
  droppedBytes: number;
}

export class LineSplitter {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  /** @param maxLineBytes bytes kept per line; the rest of a longer line is counted, not stored. */
  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds a chunk; returns the lines it completed. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#keep(chunk.subarray(start, end));
      if (newline === -1) break;
      lines.push(this.#take());
      start = newline + 1;
    }
    return lines;
  }

  /** Bytes of the current unterminated line so far, kept and dropped. */
  get pendingBytes(): number {
    return this.#kept + this.#dropped;
  }

  /** The unterminated last line, if any (call when the stream ends). */
  flush(): Line | undefined {
    return this.#kept > 0 || this.#dropped > 0 ? this.#take() : undefined;
  }

  #keep(bytes: Buffer): void {
    const room = this.#maxLineBytes - this.#kept;
    if (bytes.length > room) {
      this.#dropped += bytes.length - Math.max(room, 0);
      bytes = bytes.subarray(0, Math.max(room, 0));
    }
    if (bytes.length === 0) return;
    // Copy: the caller's chunk may be reused by the stream.
    this.#parts.push(Buffer.from(bytes));
    this.#kept += bytes.length;
  }

  #take(): Line {
    let text = Buffer.concat(this.#parts, this.#kept).toString("utf8");
    if (this.#dropped === 0 && text.endsWith("\r")) text = text.slice(0, -1);
    const line = { text, droppedBytes: this.#dropped };
    this.#parts = [];
    this.#kept = 0;
    this.#dropped = 0;
    return line;
  }
}
