// A server's stdout as JSON-RPC messages: newline framing, a size limit per message, and lines
// that are not JSON-RPC skipped and reported rather than fatal.

import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineSplitter, type Line } from "./line-splitter.ts";

/** Characters of a skipped line quoted in its report. */
const PREVIEW = 200;

interface MessageReaderEvents {
  onMessage(message: JSONRPCMessage): void;
  /** A line that is not JSON-RPC was skipped; `preview` is its head (masked, then cut). */
  onNotJson(preview: string): void;
  /** Applied to a skipped line before it is cut to its preview (the session's secrets: a cut never shows a secret's head). */
  mask?(line: string): string;
  /** A message grew past the limit (reported once; the reader ignores everything after it). */
  onTooLarge(): void;
}

export class MessageReader {
  readonly #maxMessageBytes: number;
  readonly #lines: LineSplitter;
  readonly #events: MessageReaderEvents;
  #stopped = false;

  constructor(maxMessageBytes: number, events: MessageReaderEvents) {
    this.#maxMessageBytes = maxMessageBytes;
    this.#lines = new LineSplitter(maxMessageBytes);
    this.#events = events;
  }

  push(chunk: Buffer): void {
    if (this.#stopped) return;
    for (const line of this.#lines.push(chunk)) this.#line(line);
    // An unterminated message already over the limit fails now, not when (if ever) its newline comes.
    if (!this.#stopped && this.#lines.pendingBytes > this.#maxMessageBytes) this.#tooLarge();
  }

  /** The stream ended: an unterminated last line still counts. */
  end(): void {
    const last = this.#lines.flush();
    if (last && !this.#stopped) this.#line(last);
  }

  #line({ text, droppedBytes }: Line): void {
    if (this.#stopped) return;
    if (droppedBytes > 0) return this.#tooLarge();
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch {
      const shown = this.#events.mask?.(text) ?? text;
      this.#events.onNotJson(shown.length > PREVIEW ? `${shown.slice(0, PREVIEW)}…` : shown);
      return;
    }
    this.#events.onMessage(message);
  }

  #tooLarge(): void {
    this.#stopped = true;
    this.#events.onTooLarge();
  }
}
