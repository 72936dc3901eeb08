// The lines a precompiled host server writes to its stderr so that the host knows when it has read
// what the server wrote there before a failed answer (bundle/stubs/bun-stdio.ts writes them,
// transports/stdio/process-transport.ts reads them). Stderr and stdout are two pipes that nothing
// orders against each other on the host, but stderr is one pipe in order: once the host has read
// the mark written just before a failed answer, it has every line written before that answer.
// The host takes both lines out: they are in no log, tail or report.

/** Written once, as the server's stdio transport starts: this server marks its failed answers. */
export const MARKS_FAILED_ANSWERS = "\u001ftrailblaze: marks failed answers";

/** Written just before each failed answer goes to stdout. */
export const FAILED_ANSWER_MARK = "\u001ftrailblaze: failed answer";

/**
 * An answer that says its call failed: a JSON-RPC error response, or a tool result with
 * `isError: true`. Only these are marked: a success costs nothing.
 */
export function isFailedAnswer(message: unknown): boolean {
  if (typeof message !== "object" || message === null || !("id" in message) || "method" in message) return false;
  if ("error" in message) return true;
  const result = (message as { result?: unknown }).result;
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}
