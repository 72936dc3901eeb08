// The session's call log: `<logs>/<sessionId>/calls.jsonl`, one JSON line per
// tool call (nested `trailblaze.execute` calls included), secrets masked. Each line is masked,
// then cut to MAX_LOG_LINE_CHARS (a long result keeps its head), and written in batches without
// blocking the event loop; the file is capped like every log (CappedLogFile).

import type { CallRecord } from "../dispatcher/dispatcher.ts";
import { resultStatus } from "../core/tool-result.ts";
import { callLogFile } from "../core/log-layout.ts";
import { CappedLogFile } from "../core/capped-log-file.ts";
import { maskedJsonLine } from "../core/log-line.ts";
import type { Secrets } from "../core/secrets.ts";
import { maskReport } from "./mask-report.ts";

/** Where in the trail the next calls happen; nothing for a session of no trail (`call`, `mcp`). */
interface CallPosition {
  trail?: string;
  step?: number;
}

/** The line is masked field by field (maskReport) before it is serialized, so its text needs no second pass. */
const MASKED = (text: string) => text;

export class CallLog {
  /** Undefined when the session writes no logs (`--no-logging`). */
  readonly path: string | undefined;
  readonly #secrets: Secrets;
  readonly #file: CappedLogFile | undefined;
  #position: CallPosition;

  /** @param options.maxBytes most bytes the file holds (default TRAILBLAZE_LOG_MAX_BYTES, else 32 MiB). */
  constructor(logsDir: string | undefined, secrets: Secrets, position: CallPosition, options: { maxBytes?: number } = {}) {
    this.path = logsDir === undefined ? undefined : callLogFile(logsDir);
    this.#secrets = secrets;
    this.#position = position;
    this.#file =
      this.path === undefined
        ? undefined
        : new CappedLogFile(this.path, {
            what: "call log",
            ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
            noteLine: (note) => `${JSON.stringify({ at: new Date().toISOString(), trailblaze: note })}\n`,
          });
  }

  at(position: CallPosition): void {
    this.#position = position;
  }

  /**
   * Queues one line: on disk within a few turns of the event loop, at once when the process exits
   * (CappedLogFile), and by the time {@link close} resolves.
   */
  write(record: CallRecord): void {
    if (this.#file === undefined) return;
    const { result } = record;
    const line: Record<string, unknown> = {
      at: record.startedAt.toISOString(),
      ...this.#position,
      tool: record.tool,
      invocationId: record.invocationId,
      args: record.args,
      status: resultStatus(result),
      variant: result.variant,
      message: result.message,
      durationMs: Math.round(record.durationMs * 10) / 10,
    };
    if (result.structuredContent !== undefined) line.structuredContent = result.structuredContent;
    this.#file.append(`${maskedJsonLine(maskReport(line, this.#secrets), MASKED)}\n`);
  }

  /** Writes what is queued, and the note of a cut. Idempotent; later calls are not logged. */
  close(): Promise<void> {
    return this.#file?.close() ?? Promise.resolve();
  }
}
