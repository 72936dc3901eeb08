// An on-device server's console log: `<logs>/<session>/quickjs_console_<server>.log`, created with
// its first line, each line masked as it arrives, written in batches (one append per turn of the
// event loop, not one per line) and capped like a subprocess's stderr log, so a guest that logs in
// a loop can neither slow the session to a crawl nor fill the disk.

import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** Most bytes a console log holds; then one marker line says where it stopped. As for stderr logs. */
export const MAX_CONSOLE_LOG_BYTES = 256 * 1024 * 1024;

/** Logs with lines queued: a process that exits before the next turn still writes them. */
const queued = new Set<ConsoleLogFile>();
process.once("exit", () => queued.forEach((log) => log.flush()));

export class ConsoleLogFile {
  readonly #file: string;
  readonly #mask: (text: string) => string;
  readonly #maxBytes: number;
  #pending: string[] = [];
  #bytes = 0;
  #full = false;
  #scheduled = false;
  #ready = false;

  constructor(file: string, options: { mask?: (text: string) => string; maxBytes?: number } = {}) {
    this.#file = file;
    this.#mask = options.mask ?? ((text) => text);
    this.#maxBytes = options.maxBytes ?? MAX_CONSOLE_LOG_BYTES;
  }

  /** Queues one console line; it is on disk by the next turn of the event loop. */
  line(level: string, text: string): void {
    if (this.#full) return;
    const line = `${new Date().toISOString()} ${level} ${this.#mask(text)}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.#bytes + bytes > this.#maxBytes) {
      this.#full = true;
      this.#pending.push(`[trailblaze] console log stopped at ${this.#bytes} bytes (limit ${this.#maxBytes}); later lines are not written\n`);
    } else {
      this.#bytes += bytes;
      this.#pending.push(line);
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    queued.add(this);
    setImmediate(() => this.flush());
  }

  /** Writes what is queued now. */
  flush(): void {
    this.#scheduled = false;
    queued.delete(this);
    if (this.#pending.length === 0) return;
    const text = this.#pending.join("");
    this.#pending = [];
    try {
      if (!this.#ready) mkdirSync(dirname(this.#file), { recursive: true });
      this.#ready = true;
      appendFileSync(this.#file, text);
    } catch {
      // An unwritable logs folder: the guest console tail still shows in errors.
    }
  }
}
