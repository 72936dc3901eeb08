// The last lines of a stream, kept for a failure's message (a server's stderr, a guest's console):
// bounded in lines and in characters in all, the oldest going first and the newest always kept, so
// a flood of long lines cannot grow a message, a report or the host's memory.

interface RollingTailLimits {
  /** Most lines kept. */
  lines: number;
  /** Most characters of all the lines together. */
  chars: number;
}

export class RollingTail {
  readonly #limits: RollingTailLimits;
  readonly #lines: string[] = [];
  #chars = 0;
  #droppedForSize = 0;
  #pushed = 0;

  constructor(limits: RollingTailLimits) {
    this.#limits = limits;
  }

  push(line: string): void {
    this.#pushed++;
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#lines.length > this.#limits.lines) this.#chars -= this.#lines.shift()!.length;
    while (this.#chars > this.#limits.chars && this.#lines.length > 1) {
      this.#chars -= this.#lines.shift()!.length;
      this.#droppedForSize++;
    }
  }

  /** Lines left out to keep the total under `chars` (not those past the line count). */
  get droppedForSize(): number {
    return this.#droppedForSize;
  }

  /** The kept lines, oldest first. */
  lines(): string[] {
    return [...this.#lines];
  }

  /** Every line pushed so far, kept or not: a mark for `since`. */
  get pushed(): number {
    return this.#pushed;
  }

  /** The lines pushed after `mark` (a `pushed` value), oldest first: as many of them as are still kept. */
  since(mark: number): string[] {
    const count = Math.min(this.#pushed - mark, this.#lines.length);
    return count <= 0 ? [] : this.#lines.slice(-count);
  }
}

/** `text` cut at `max` characters and marked: `… [line cut at 2000 of 5000 chars]` (`more` adds to the mark). */
export function cutLine(text: string, max: number, more = ""): string {
  return `${text.slice(0, max)} … [line cut at ${max} of ${text.length} chars${more}]`;
}
