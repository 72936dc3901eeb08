// The guest console tail: the last console lines of a QuickJS server, kept for the message of a
// failure (ManagedTransport.diagnostics). Bounded in lines, in characters per line and in
// characters in all, and marked where it was cut, so a guest that floods its console (lines of
// megabytes) cannot grow a failure message, a report or the host's memory with it.

/** Lines kept. */
export const CONSOLE_TAIL_LINES = 64;
/** Characters kept of one line (as the host keeps of a stderr line). */
export const CONSOLE_TAIL_LINE_CHARS = 2000;
/** Characters kept of all the lines together. */
export const CONSOLE_TAIL_CHARS = 16_000;

export class ConsoleTail {
  private readonly lines: string[] = [];
  private chars = 0;
  /** Lines left out to keep the total under CONSOLE_TAIL_CHARS (not those beyond the line count). */
  private dropped = 0;

  /** Keeps one line, `level text`, cut at CONSOLE_TAIL_LINE_CHARS. */
  push(level: string, text: string): void {
    const cut =
      text.length > CONSOLE_TAIL_LINE_CHARS
        ? `${text.slice(0, CONSOLE_TAIL_LINE_CHARS)} … [line cut at ${CONSOLE_TAIL_LINE_CHARS} of ${text.length} chars]`
        : text;
    const line = `${level} ${cut}`;
    this.lines.push(line);
    this.chars += line.length;
    if (this.lines.length > CONSOLE_TAIL_LINES) this.chars -= this.lines.shift()!.length;
    while (this.chars > CONSOLE_TAIL_CHARS && this.lines.length > 1) {
      this.chars -= this.lines.shift()!.length;
      this.dropped++;
    }
  }

  /** The kept lines, oldest first; led by a marker when earlier lines were left out for their size. */
  snapshot(): string[] {
    if (this.dropped === 0) return [...this.lines];
    return [`[${this.dropped} earlier line(s) left out: the guest console tail keeps ${CONSOLE_TAIL_CHARS} characters]`, ...this.lines];
  }
}
