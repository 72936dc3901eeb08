// `trailblaze.execute(name, args)` from inside a tool: dispatches through the
// session like any call, but refuses re-entry into the calling server (it is busy
// with the calling tool) and caps how many such calls may be in flight.

import type { ToolRegistry } from "../registry/registry.ts";
import type { ToolResult } from "../core/tool-result.ts";

/** How a nested call is made: the session's own `call`, so memory changes apply once. */
export type NestedCall = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** Most `trailblaze.execute` calls in flight at once in one session (nesting included). */
export const MAX_EXECUTE_DEPTH = 16;

export class ExecuteBridge {
  readonly #registry: ToolRegistry;
  readonly #call: NestedCall;
  #inFlight = 0;

  constructor(registry: ToolRegistry, call: NestedCall) {
    this.#registry = registry;
    this.#call = call;
  }

  /** Throws (the guest sees a rejected promise) when the call is refused; tool failures are results. */
  async execute(callerSource: string, name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.#registry.get(name)?.source === callerSource) {
      throw new Error(
        `trailblaze.execute("${name}") refused: ${name} is served by the same server (${callerSource}), ` +
          `which is busy with the calling tool; call that function directly instead`,
      );
    }
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
