// The session's call log: `<logs>/<sessionId>/calls.jsonl`, one JSON line per
// tool call (nested `trailblaze.execute` calls included), secrets masked.

import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { CallRecord } from "../dispatcher/dispatcher.ts";
import { resultStatus } from "../core/tool-result.ts";
import { callLogFile } from "../core/log-layout.ts";
import type { Secrets } from "../core/secrets.ts";
import { maskReport } from "./mask-report.ts";

/** Where in the trail the next calls happen. */
export interface CallPosition {
  trail: string;
  step?: number;
}

export class CallLog {
  /** Undefined when the session writes no logs (`--no-logging`). */
  readonly path: string | undefined;
  readonly #secrets: Secrets;
  #position: CallPosition;
  #ready = false;

  constructor(logsDir: string | undefined, secrets: Secrets, position: CallPosition) {
    this.path = logsDir === undefined ? undefined : callLogFile(logsDir);
    this.#secrets = secrets;
    this.#position = position;
  }

  at(position: CallPosition): void {
    this.#position = position;
  }

  /** Appends one line; synchronous so the line is on disk even if the process is interrupted right after. */
  write(record: CallRecord): void {
    if (this.path === undefined) return;
    const { result } = record;
    const line: Record<string, unknown> = {
      at: record.startedAt.toISOString(),
      ...this.#position,
      tool: record.tool,
      args: record.args,
      status: resultStatus(result),
      variant: result.variant,
      message: result.message,
      durationMs: Math.round(record.durationMs * 10) / 10,
    };
    if (result.structuredContent !== undefined) line.structuredContent = result.structuredContent;
    if (!this.#ready) {
      mkdirSync(join(this.path, ".."), { recursive: true });
      this.#ready = true;
    }
    appendFileSync(this.path, `${JSON.stringify(maskReport(line, this.#secrets))}\n`);
  }
}
