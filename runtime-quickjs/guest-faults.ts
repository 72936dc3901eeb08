// What a QuickJS server says when its guest fails: a SandboxError for each way a delivery can end
// (interrupted by which limit, halted, stuck, out of memory, an exception with its stack frames
// mapped through the bundle's source map to the author's file:line:col), and the text the SDK
// replied with when a handler threw.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SourceMap, type SourceMapPayload } from "node:module";
import { SandboxError } from "../src/errors.ts";
import type { DeliverySlot } from "./guest-budget.ts";
import type { GuestError } from "./sandbox-contract.ts";

/** Guest stack frames kept in a SandboxError message. */
const STACK_FRAMES = 10;

/** What each limit that can interrupt a delivery is, for messages. */
const DEADLINE_WORDS = {
  callDeadlineMs: "callDeadlineMs",
  idleDeliveryMs: "idleDeliveryMs: a delivery outside any call",
  idleCpuMs: "idleCpuMs: guest time outside calls",
  sessionCpuMs: "sessionCpuMs: guest time per session",
} as const;

export /** The text the SDK replied with when a handler threw (as a tool error result or a JSON-RPC error). */
function failureText(m: JSONRPCMessage): string | undefined {
  if ("error" in m) return m.error.message;
  if (!("result" in m)) return undefined;
  const result = m.result as { isError?: unknown; content?: { text?: unknown }[] };
  const text = result.content?.[0]?.text;
  return result.isError === true && result.content?.length === 1 && typeof text === "string" ? text : undefined;
}

interface GuestFaultsOptions {
  /** `QuickJS server "name"`, how every message starts. */
  label: string;
  /** The name the bundle is evaluated as (`<name>.bundle.js`), whose frames the source map maps. */
  name: string;
  sourceMap: { map: string; shift: number } | undefined;
  callDeadlineMs: number;
  memoryLimitBytes: number;
  /** The delivery running, or the last one: what set its deadline. */
  slot(): DeliverySlot | undefined;
}

export class GuestFaults {
  /** The bundle's source map, parsed on first use; null when it could not be read. */
  private mapper: SourceMap | null | undefined;

  constructor(private readonly opts: GuestFaultsOptions) {}

  /** `deadlineMs`: evaluating the bundle's (startDeadlineMs); otherwise the delivery's slot says which limit interrupted it. */
  describe(error: GuestError, during: string, deadlineMs?: number): SandboxError {
    switch (error.kind) {
      case "interrupted": {
        if (deadlineMs !== undefined)
          return new SandboxError(`${this.opts.label}: ${during} was interrupted after ${deadlineMs} ms (startDeadlineMs)`, "interrupted");
        const slot = this.opts.slot() ?? { ms: this.opts.callDeadlineMs, limit: "callDeadlineMs" as const };
        return new SandboxError(
          `${this.opts.label}: ${during} was interrupted after ${slot.ms} ms (${DEADLINE_WORDS[slot.limit]})`,
          "interrupted",
        );
      }
      case "halted":
        return new SandboxError(`${this.opts.label} was stopped while ${during}`, "closed");
      case "stuck":
        return new SandboxError(
          `${this.opts.label} kept running after being interrupted (callDeadlineMs ${this.opts.callDeadlineMs} ms) while ${during}; the server was stopped`,
          "stuck",
        );
      case "out-of-memory":
        return new SandboxError(
          `${this.opts.label} ran out of memory while ${during}: it reached memoryLimitBytes (${this.opts.memoryLimitBytes} bytes); the server was stopped`,
          "out-of-memory",
        );
      default: {
        const frames = error.stack
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => this.mapFrame(line));
        const shown = frames.slice(0, STACK_FRAMES);
        if (frames.length > STACK_FRAMES) shown.push(`    ... ${frames.length - STACK_FRAMES} more frame(s)`);
        return new SandboxError(
          `${this.opts.label} threw while ${during}: ${error.name}: ${error.message}${shown.length ? `\n${shown.join("\n")}` : ""}`,
          "threw",
        );
      }
    }
  }

  /** `at f (x.bundle.js:1:4077)` → `at f (tools/x.ts:12:5)` through the source map, when there is one and it reads. */
  private mapFrame(line: string): string {
    const sourceMap = this.opts.sourceMap;
    if (!sourceMap || this.mapper === null) return line;
    try {
      this.mapper ??= new SourceMap(JSON.parse(sourceMap.map) as SourceMapPayload);
    } catch {
      this.mapper = null; // a map file gone or damaged since the bundle was checked: frames stay as they are
      return line;
    }
    const bundleFile = `${this.opts.name}.bundle.js:`;
    return line.replace(
      /(\(|at )([^()\s]+):(\d+):(\d+)(\)?)$/,
      (frame, open: string, file: string, row: string, column: string, close: string) => {
        if (`${file}:` !== bundleFile) return frame;
        const lineIndex = Number(row) - 1;
        const columnIndex = Number(column) - 1 - (lineIndex === 0 ? sourceMap.shift : 0);
        const entry = this.mapper!.findEntry(lineIndex, Math.max(0, columnIndex));
        if (!("originalSource" in entry) || entry.generatedLine !== lineIndex) return frame;
        return `${open}${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}${close}`;
      },
    );
  }
}
