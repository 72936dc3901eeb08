// `trailblaze.execute(name, args)` from inside a tool: dispatches through the session like any
// call, and caps how many such calls may be in flight at once. A call may go back into the calling
// tool's own server: servers answer requests concurrently (the SDK's Protocol in a subprocess,
// separate deliveries in QuickJS), so per-file tools served together can call each other.
//
// The cap counts calls in flight, not depth: a server's execute request carries nothing that ties
// it to the call it is made from (over stdio or in QuickJS), so depth cannot be known here. It
// still ends a tool that calls itself without end, whose every level stays in flight.

import type { ToolResult } from "../core/tool-result.ts";

/** How a nested call is made: the session's own `call`, so memory changes apply once. */
type NestedCall = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** Most `trailblaze.execute` calls in flight at once in one session, nested or side by side. */
export const MAX_EXECUTE_IN_FLIGHT = 16;

export class ExecuteBridge {
  readonly #call: NestedCall;
  #inFlight = 0;

  constructor(call: NestedCall) {
    this.#call = call;
  }

  /** Throws (the guest sees a rejected promise) when the call is refused; tool failures are results. */
  async execute(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.#inFlight >= MAX_EXECUTE_IN_FLIGHT) {
      throw new Error(
        `trailblaze.execute("${name}") refused: ${MAX_EXECUTE_IN_FLIGHT} trailblaze.execute calls are already in flight in this session, ` +
          "the most at once (nested calls and calls side by side both count: a tool that calls itself without end, or more calls awaited together)",
      );
    }
    this.#inFlight++;
    try {
      return await this.#call(name, args);
    } finally {
      this.#inFlight--;
    }
  }
}
