// A session's MCP log messages: `<logs>/<session>/server_log_<server>.jsonl`, one JSON line per
// `notifications/message`, created with its first line. Each line is masked whole, then cut to
// MAX_LOG_LINE_CHARS (a long `data` keeps its head), and written in batches without blocking the
// event loop; each file is capped like every log (CappedLogFile), so a server that logs in a loop
// cannot fill the disk or the memory. The session closes it after its servers, flushing every file.

import { CappedLogFile } from "../core/capped-log-file.ts";
import { serverLogFile } from "../core/log-layout.ts";
import { MAX_LOG_LINE_CHARS, maskedJsonLine } from "../core/log-line.ts";

interface ServerLogFilesOptions {
  /** Applied to each whole line before it is cut or written: the session's secrets. */
  mask: (text: string) => string;
  /** Most bytes each file holds. Default: TRAILBLAZE_LOG_MAX_BYTES, else 32 MiB. */
  maxBytes?: number;
  /** Longest line, in characters. Default 1 MiB. */
  maxLineChars?: number;
}

export class ServerLogFiles {
  readonly #logsDir: string;
  readonly #options: ServerLogFilesOptions;
  readonly #files = new Map<string, CappedLogFile>();
  #closed = false;

  constructor(logsDir: string, options: ServerLogFilesOptions) {
    this.#logsDir = logsDir;
    this.#options = options;
  }

  /** Queues one message of `server` (its display name, which also names its file) as a JSON line. */
  write(server: string, entry: Record<string, unknown>): void {
    if (this.#closed) return;
    let file = this.#files.get(server);
    if (!file) {
      const { maxBytes } = this.#options;
      file = new CappedLogFile(serverLogFile(this.#logsDir, server), {
        what: "server log",
        ...(maxBytes !== undefined ? { maxBytes } : {}),
        noteLine: (note) => `${JSON.stringify({ time: new Date().toISOString(), server, trailblaze: note })}\n`,
      });
      this.#files.set(server, file);
    }
    // Once the file is cut, a message is only counted: no masking or cutting of what is never written.
    if (file.full) return file.dropped(Buffer.byteLength(JSON.stringify(entry)) + 1);
    file.append(`${maskedJsonLine(entry, this.#options.mask, this.#options.maxLineChars ?? MAX_LOG_LINE_CHARS)}\n`);
  }

  /** Writes what is queued in every file, and the note of each cut. Idempotent; later messages are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#files.values()].map((file) => file.close()));
  }
}
