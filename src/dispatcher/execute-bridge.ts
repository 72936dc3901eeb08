// `trailblaze.execute(name, args)` from inside a tool: dispatches through the session like any
// call, and caps how many such calls may be in flight. A call may go back into the calling
// tool's own server: servers answer requests concurrently (the SDK's Protocol in a subprocess,
// separate deliveries in QuickJS), so per-file tools served together can call each other.

import type { ToolResult } from "../core/tool-result.ts";

/** How a nested call is made: the session's own `call`, so memory changes apply once. */
export type NestedCall = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** Most `trailblaze.execute` calls in flight at once in one session (nesting included). */
export const MAX_EXECUTE_DEPTH = 16;

export class ExecuteBridge {
  readonly #call: NestedCall;
  #inFlight = 0;

  constructor(call: NestedCall) {
    this.#call = call;
  }

  /** Throws (the guest sees a rejected promise) when the call is refused; tool failures are results. */
  async execute(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.#inFlight >= MAX_EXECUTE_DEPTH) {
      throw new Error(`trailblaze.execute("${name}") refused: more than ${MAX_EXECUTE_DEPTH} nested trailblaze.execute calls`);
    }
    this.#inFlight++;
    try {
      return await this.#call(name, args);
    } finally {
      this.#inFlight--;
    }
  }
}
