// Masking a report (and a line of calls.jsonl): the one place that knows which of its fields are structure (statuses, kinds,
// times) and which hold data a trail, a tool or a server gave (arguments, results, memory), so
// that every secret is masked in whatever a reporter shows and the report stays readable.

import type { Secrets } from "../core/secrets.ts";

const SHAPE = {
  /** Values of ours that a secret cannot be in, and that readers branch on; and pictures (base64 that masking would only corrupt). */
  kept: new Set(["status", "kind", "variant", "startedAt", "at", "durationMs", "exitCode", "screenshot"]),
  /** Data from trails, tools and servers: masked whole, their keys included. */
  data: new Set(["args", "result", "structuredContent", "set", "memory"]),
};

/** A copy of `report` (a run, a trail, a step or a call line) with every secret masked. */
export function maskReport<T>(report: T, secrets: Secrets): T {
  return secrets.maskDocument(report, SHAPE);
}
