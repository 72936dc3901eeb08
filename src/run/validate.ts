// Before any step runs: every tool a trail's plan will call must be registered
// in its session. Each missing tool is reported once, at its first use, with
// why it is missing (a `_meta` filter, or no source has it) and close names.

import { closest } from "../core/did-you-mean.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import type { ToolRegistry } from "../registry/registry.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import type { TrailPlan } from "./plan.ts";
import type { TrailProblem } from "./run-types.ts";

/** Why `name` is not in the registry, as one sentence. */
export function missingToolMessage(name: string, registry: ToolRegistry, agent: AgentMode): string {
  const skipped = registry.findSkipped(name);
  if (skipped?.reason === META_KEYS.requiresHost && agent === "on-device") {
    return `this trail references ${name}, which is host-only and not registered in this on-device session`;
  }
  if (skipped) {
    return `${name} is not registered in this session: _meta["${skipped.reason}"] of ${skipped.source} excluded it (${skipped.detail})`;
  }
  const names = registry.names();
  const near = closest(name, names);
  const hint = near.length > 0
    ? `closest registered: ${near.join(", ")}`
    : `no registered tool has a similar name (\`bun trailblaze tools\` lists the ${names.length} registered tools)`;
  return `${name} is not registered in this session; ${hint}`;
}

export function validatePlan(plan: TrailPlan, registry: ToolRegistry, agent: AgentMode): TrailProblem[] {
  const problems: TrailProblem[] = [];
  const reported = new Set<string>();
  for (const planned of plan.steps) {
    for (const call of planned.calls ?? []) {
      if (registry.has(call.tool) || reported.has(call.tool)) continue;
      reported.add(call.tool);
      problems.push({
        message: missingToolMessage(call.tool, registry, agent),
        file: plan.trail.file,
        line: call.where.line,
        col: call.where.col,
        step: planned.index,
        stepTitle: planned.step.title,
        tool: call.tool,
      });
    }
  }
  return problems;
}

/** `file:line:col step N "title": message` — how a problem is shown on one line. */
export function formatTrailProblem(problem: TrailProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}:${problem.col}` : problem.file;
  const step = problem.step !== undefined ? ` step ${problem.step}${problem.stepTitle ? ` "${oneLine(problem.stepTitle)}"` : ""}` : "";
  return `${where}${step}: ${problem.message}`;
}

/** First line of a (possibly multi-line) step title, shortened for one-line output. */
export function oneLine(text: string, max = 80): string {
  const first = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  const more = first !== text.trim();
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return more && !cut.endsWith("…") ? `${cut} …` : cut;
}
