// A session's MCP log messages (`notifications/message` from its servers): each masked with the
// session's secrets before it is kept anywhere (a server may log what it was given), appended to
// the server's `server_log_<server>.jsonl` (capped, written in batches: servers/server-log-file.ts;
// none with `--no-logging`), and handed to the session's listener as it arrives.

import type { Secrets } from "../core/secrets.ts";
import type { ServerLogMessage } from "../servers/mcp-connection.ts";
import { ServerLogFiles } from "../servers/server-log-file.ts";

/** One MCP log message from a server (also one line of `server_log_<server>.jsonl`). */
export interface ServerLogEntry {
  time: Date;
  /** The server's display name, as tools' `source`. */
  server: string;
  /** debug, info, notice, warning, error, critical, alert or emergency. */
  level: string;
  logger?: string;
  data: unknown;
}

export class ServerLog implements AsyncDisposable {
  readonly #secrets: Secrets;
  readonly #files: ServerLogFiles | undefined;
  readonly #listener: ((entry: ServerLogEntry) => void) | undefined;

  /** `logsDir` undefined: no file is written; `listener` gets every entry, masked. */
  constructor(logsDir: string | undefined, secrets: Secrets, listener?: (entry: ServerLogEntry) => void) {
    this.#secrets = secrets;
    this.#files = logsDir === undefined ? undefined : new ServerLogFiles(logsDir, { mask: (text) => secrets.mask(text) });
    this.#listener = listener;
  }

  /** One message of `server` (its display name, which also names its file). */
  write(server: string, message: ServerLogMessage): void {
    const entry: ServerLogEntry = { time: new Date(), server, ...this.#secrets.maskValue(message) };
    this.#files?.write(server, { ...entry, time: entry.time.toISOString() });
    this.#listener?.(entry);
  }

  /** Writes out every file; idempotent, later messages are ignored. Called after the servers stopped, so what they logged while stopping is kept. */
  close(): Promise<void> {
    return this.#files?.close() ?? Promise.resolve();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
