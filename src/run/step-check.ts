// What a step that did not fail checked, from its calls' results (recorded and the agent's
// alike): it passes when a call checked something for real and none made a check it could not;
// otherwise it is `unverified`, and this says why: the first check that could not be made, or,
// when nothing was checked, what its calls did instead (acted on a device with no screen, or no
// call at all). A failed call the agent recovered from does not count either way.

import type { ToolCallReport } from "./run-types.ts";

const reasonOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Why the step is unverified, or undefined when it checked something for real. */
export function uncheckedStep(tools: readonly Pick<ToolCallReport, "name" | "result">[]): string | undefined {
  const done = tools.filter((tool) => tool.result.status === "success");
  for (const tool of done) {
    const reason = reasonOf(tool.result.unverified);
    if (reason !== undefined) return reason;
  }
  if (done.some((tool) => reasonOf(tool.result.unchecked) === undefined)) return undefined;
  if (done.length === 0) return tools.length === 0 ? "nothing checked: the step made no calls" : "nothing checked: no call succeeded";
  // Every call only acted: say which, grouped by why (in the order they ran).
  const byReason = new Map<string, string[]>();
  for (const tool of done) {
    const names = byReason.get(reasonOf(tool.result.unchecked)!) ?? [];
    if (!names.includes(tool.name)) names.push(tool.name);
    byReason.set(reasonOf(tool.result.unchecked)!, names);
  }
  return `nothing checked: ${[...byReason].map(([reason, names]) => `${names.join(", ")} ${reason}`).join("; ")}`;
}
