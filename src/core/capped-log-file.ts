// A log file a flood cannot fill: lines are appended in batches without blocking the event loop
// (one write in flight, everything queued meanwhile joined into the next), at most `maxBytes` are
// ever accepted (so at most that much waits in memory), and once a line does not fit it and every
// later one are counted, not kept; at close one note line says where the file was cut and how much
// was not written. `TRAILBLAZE_LOG_MAX_BYTES` sets the cap of every log file of a session.

import { appendFileSync, mkdirSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { UsageError } from "../errors.ts";

/** Most bytes of lines one log file takes by default: a flooding server writes no more than this per file. */
export const DEFAULT_LOG_MAX_BYTES = 32 * 1024 * 1024;

/** The environment variable that sets the cap of each log file (bytes, or with K, M or G: KiB, MiB, GiB). */
const LOG_MAX_BYTES_VAR = "TRAILBLAZE_LOG_MAX_BYTES";

const UNITS: Record<string, number> = { "": 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };

/** The cap of each log file: `TRAILBLAZE_LOG_MAX_BYTES` in `env`, else {@link DEFAULT_LOG_MAX_BYTES}. Throws UsageError on a bad value. */
export function logMaxBytes(env: Record<string, string | undefined> = process.env): number {
  const text = env[LOG_MAX_BYTES_VAR]?.trim();
  if (text === undefined || text === "") return DEFAULT_LOG_MAX_BYTES;
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text);
  const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw new UsageError(
      `${LOG_MAX_BYTES_VAR} expects the most bytes one log file may hold, e.g. 33554432 or 32MiB (K, M, G: KiB, MiB, GiB), got "${text}"`,
    );
  }
  return Number(match[1]) * unit;
}

/** `33554432` → `32 MiB`; sizes that are not whole KiB stay in bytes. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

interface CappedLogFileOptions {
  /** What the file is, for its cut note: `stderr log`, `console log`, … */
  what: string;
  /** Most bytes of lines the file takes (the cut note comes on top). Default: {@link logMaxBytes} of `process.env`. */
  maxBytes?: number;
  /** The cut note as a line of the file: a `.jsonl` file needs a JSON line. Default `[trailblaze] <note>\n`. */
  noteLine?: (note: string) => string;
  /** Called once when the file cannot be written; later lines are dropped. */
  onError?: (error: Error) => void;
}

/** Files with lines not yet written, or a cut not yet noted: a process that exits first still writes them. */
const unfinished = new Set<CappedLogFile>();
process.once("exit", () => unfinished.forEach((file) => file.finishSync()));

export class CappedLogFile {
  readonly path: string;
  readonly #what: string;
  readonly #maxBytes: number;
  readonly #noteLine: (note: string) => string;
  readonly #onError: ((error: Error) => void) | undefined;
  #pending: string[] = [];
  /** What the write in flight has not written yet (rewritten by {@link finishSync} if the process exits first). */
  #inFlight: Buffer | undefined;
  #writing: Promise<void> | undefined;
  #accepted = 0;
  #droppedBytes = 0;
  #droppedLines = 0;
  #noted = false;
  #dirReady = false;
  #failed = false;
  #closed: Promise<void> | undefined;

  constructor(path: string, options: CappedLogFileOptions) {
    this.path = path;
    this.#what = options.what;
    this.#maxBytes = options.maxBytes ?? logMaxBytes();
    this.#noteLine = options.noteLine ?? ((note) => `[trailblaze] ${note}\n`);
    this.#onError = options.onError;
  }

  /** Whether the file has been cut: later lines are only counted (callers may skip formatting them). */
  get full(): boolean {
    return this.#droppedLines > 0;
  }

  /** Queues one line (with its `\n`); it is on disk within a few turns of the event loop. */
  append(line: string): void {
    if (this.#closed !== undefined || this.#failed) return;
    const bytes = Buffer.byteLength(line);
    if (this.full || this.#accepted + bytes > this.#maxBytes) {
      this.dropped(bytes);
      return;
    }
    this.#accepted += bytes;
    this.#pending.push(line);
    this.#schedule();
  }

  /** Counts a line of `bytes` that was not written (the file is {@link full}). */
  dropped(bytes: number): void {
    this.#droppedBytes += bytes;
    this.#droppedLines += 1;
    unfinished.add(this);
  }

  /** Writes what is queued and the cut note, if any; later lines are ignored. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#queueNote();
      while (this.#writing) await this.#writing;
      unfinished.delete(this);
    })();
    return this.#closed;
  }

  /**
   * At process exit, when nothing can wait: writes synchronously what is still queued (and what a
   * write in flight had not finished, which may then appear twice) and the cut note.
   */
  finishSync(): void {
    unfinished.delete(this);
    if (this.#failed) return;
    this.#queueNote();
    const data = Buffer.concat([this.#inFlight ?? Buffer.alloc(0), Buffer.from(this.#pending.join(""))]);
    this.#inFlight = undefined;
    this.#pending = [];
    if (data.length === 0) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, data);
    } catch {
      // Exiting: nowhere left to say it.
    }
  }

  #queueNote(): void {
    if (this.#droppedLines === 0 || this.#noted || this.#failed) return;
    this.#noted = true;
    const lines = this.#droppedLines === 1 ? "1 line" : `${this.#droppedLines} lines`;
    this.#pending.push(
      this.#noteLine(
        `… ${this.#what} cut at ${formatSize(this.#maxBytes)}: ${this.#droppedBytes} more bytes (${lines}) not written (${LOG_MAX_BYTES_VAR})`,
      ),
    );
    this.#schedule();
  }

  #schedule(): void {
    unfinished.add(this);
    if (this.#writing) return;
    // One turn later: the lines a burst queues in this turn go out in one write.
    this.#writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#drain())
      .catch((error: unknown) => this.#fail(error as Error))
      .finally(() => {
        this.#writing = undefined;
        if (this.#failed) return;
        if (this.#pending.length > 0) this.#schedule();
        // A cut not yet noted stays: the note is written at close, or at exit.
        else if (this.#droppedLines === 0 || this.#noted) unfinished.delete(this);
      });
  }

  /** Writes the queue until it is empty; the file is opened per batch, so an idle log holds no descriptor. */
  async #drain(): Promise<void> {
    if (!this.#dirReady) {
      await mkdir(dirname(this.path), { recursive: true });
      this.#dirReady = true;
    }
    while (this.#pending.length > 0 && !this.#failed) {
      const data = Buffer.from(this.#pending.join(""));
      this.#pending = [];
      this.#inFlight = data;
      const handle = await open(this.path, "a");
      try {
        let offset = 0;
        while (offset < data.length) {
          const { bytesWritten } = await handle.write(data, offset);
          offset += bytesWritten;
          this.#inFlight = data.subarray(offset);
        }
      } finally {
        this.#inFlight = undefined;
        await handle.close();
      }
    }
  }

  #fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#pending = [];
    this.#inFlight = undefined;
    unfinished.delete(this);
    this.#onError?.(error);
  }
}
