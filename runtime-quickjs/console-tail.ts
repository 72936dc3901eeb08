// The guest console tail: the last console lines of a QuickJS server, kept for the message of a
// failure (ManagedTransport.diagnostics). Bounded in lines, in characters per line and in
// characters in all, and marked where it was cut, so a guest that floods its console (lines of
// megabytes) cannot grow a failure message, a report or the host's memory with it. Each line is
// masked (the session's secrets) before it is cut, so a cut never keeps a secret's first characters.

import { cutLine, RollingTail } from "../src/core/rolling-tail.ts";

/** Lines kept. */
export const CONSOLE_TAIL_LINES = 64;
/** Characters kept of one line (as the host keeps of a stderr line). */
export const CONSOLE_TAIL_LINE_CHARS = 2000;
/** Characters kept of all the lines together. */
export const CONSOLE_TAIL_CHARS = 16_000;

export class ConsoleTail {
  private readonly tail = new RollingTail({ lines: CONSOLE_TAIL_LINES, chars: CONSOLE_TAIL_CHARS });

  /** @param mask applied to each line before it is cut (the session's secrets); default none. */
  constructor(private readonly mask: (text: string) => string = (text) => text) {}

  /** Keeps one line, `level text`, masked, then cut at CONSOLE_TAIL_LINE_CHARS. */
  push(level: string, text: string): void {
    const masked = this.mask(text);
    this.tail.push(`${level} ${masked.length <= CONSOLE_TAIL_LINE_CHARS ? masked : cutLine(masked, CONSOLE_TAIL_LINE_CHARS)}`);
  }

  /** Lines so far: a mark for `since`. */
  mark(): number {
    return this.tail.pushed;
  }

  /** The lines after `mark`, as kept (so at most the tail's lines). */
  since(mark: number): string[] {
    return this.tail.since(mark);
  }

  /** The kept lines, oldest first; led by a marker when earlier lines were left out for their size. */
  snapshot(): string[] {
    const dropped = this.tail.droppedForSize;
    if (dropped === 0) return this.tail.lines();
    return [`[${dropped} earlier line(s) left out: the guest console tail keeps ${CONSOLE_TAIL_CHARS} characters]`, ...this.tail.lines()];
  }
}
