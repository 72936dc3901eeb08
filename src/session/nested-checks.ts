// What a tool's calls through ctx.tools (trailblaze.execute, a composed tool's steps) checked,
// collected while it runs, and what that makes of its own success: a check it could not make
// leaves it unverified; calls that all only acted, with nothing to check them against (a launch
// tool's launchApp or adb shell on a device with no screen), leave it unchecked. A tool that made
// no such call answers for itself: its own result is what it checked.

import { callCheck, isSuccess, type ToolResult } from "../core/tool-result.ts";

export class NestedChecks {
  /** Each unverified check, as `<tool> (through ctx.tools): <why>`. */
  readonly #unverified: string[] = [];
  /** The calls that only acted, by tool name, with why nothing checked them (the first reason each). */
  readonly #unchecked = new Map<string, string>();
  #checked = false;
  #calls = 0;

  /** Whether any call was noted (a tool that made one is judged by its calls, not its own word). */
  get noted(): boolean {
    return this.#calls > 0;
  }

  /** A call the tool made, as it answered (a failed one is the tool's to handle: it does not count). */
  note(name: string, result: ToolResult): void {
    if (!isSuccess(result)) return;
    this.#calls++;
    const check = callCheck(result);
    if (check.kind === "checked") this.#checked = true;
    else if (check.kind === "unverified") this.#unverified.push(`${name} (through ctx.tools): ${check.reason}`);
    else if (!this.#unchecked.has(name)) this.#unchecked.set(name, check.reason);
  }

  /** The tool's own result with what its calls checked: unverified, unchecked, or as it is. */
  apply(result: ToolResult): ToolResult {
    if (!isSuccess(result) || result.unverified !== undefined || result.unchecked !== undefined) return result;
    if (this.#unverified.length > 0) return { ...result, unverified: this.#unverified.join("; ") };
    if (this.#checked || this.#unchecked.size === 0) return result;
    const reason = [...this.#unchecked.values()][0];
    return { ...result, unchecked: `only called ${[...this.#unchecked.keys()].join(", ")}, which ${reason}` };
  }
}
