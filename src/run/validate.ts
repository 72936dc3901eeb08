// Before any step runs: every tool a trail's plan will call must be registered
// in its session, with recorded arguments its input schema accepts. Each missing
// tool is reported once, at its first use, with why it is missing (a `_meta`
// filter, the target's excluded_tools, or no source has it) and close names; each
// bad argument at its key.

import { closest } from "../core/did-you-mean.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import { EXCLUDED_TOOLS_REASON } from "../registry/filters.ts";
import { formatArgIssues, recordedArgIssues } from "../registry/recorded-args.ts";
import type { ToolRegistry } from "../registry/registry.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import type { TrailPlan } from "./plan.ts";
import type { TrailProblem } from "./run-types.ts";

/** Why `name` is not in the registry, as one sentence (`byTrail`: worded for a trail's reference). */
export function missingToolMessage(name: string, registry: ToolRegistry, agent: AgentMode, byTrail = true): string {
  const skipped = registry.findSkipped(name);
  if (skipped?.reason === META_KEYS.requiresHost && agent === "on-device") {
    return byTrail
      ? `this trail references ${name}, which is host-only and not registered in this on-device session`
      : `${name} is host-only (_meta["${skipped.reason}"] of ${skipped.source}) and not registered in this on-device session; call it with --agent host`;
  }
  if (skipped?.reason === EXCLUDED_TOOLS_REASON) return `${name} is not registered in this session: ${skipped.detail}`;
  if (skipped) {
    return `${name} is not registered in this session: _meta["${skipped.reason}"] of ${skipped.source} excluded it (${skipped.detail})`;
  }
  const names = registry.names();
  const near = closest(name, names);
  const hint =
    near.length > 0
      ? `closest registered: ${near.join(", ")}`
      : `no registered tool has a similar name (\`trailblaze tools\` lists the ${names.length} registered tools)`;
  // Servers that never started (a host-only script on-device): their tools are unknown, not absent.
  const unstarted = registry
    .skipped()
    .filter((s) => s.name === "*")
    .map((s) => `${s.source} (${s.detail})`);
  const note = unstarted.length > 0 ? `; not started in this session, so their tools are unknown: ${unstarted.join(", ")}` : "";
  return `${name} is not registered in this session; ${hint}${note}`;
}

/**
 * Every problem a trail's plan has in this session before a step runs: each tool that is not
 * registered (once, at its first use) and each recorded argument its tool's input schema
 * rejects (at the argument's key). `check` reports the same list as findings.
 */
export function validatePlan(plan: TrailPlan, registry: ToolRegistry, agent: AgentMode): TrailProblem[] {
  const problems: TrailProblem[] = [];
  const reported = new Set<string>();
  for (const planned of plan.steps) {
    const at = { file: plan.trail.file, step: planned.index, stepTitle: planned.step.title };
    for (const call of planned.calls ?? []) {
      const tool = registry.get(call.tool);
      if (tool) {
        for (const issue of recordedArgIssues(tool, call.args)) {
          const key = issue.path[0];
          const where = (typeof key === "string" ? call.argWheres?.[key] : undefined) ?? call.where;
          problems.push({
            kind: "args",
            message: formatArgIssues(call.tool, [issue]),
            ...at,
            line: where.line,
            col: where.col,
            tool: call.tool,
          });
        }
        continue;
      }
      if (reported.has(call.tool)) continue;
      reported.add(call.tool);
      problems.push({
        kind: "tool",
        message: missingToolMessage(call.tool, registry, agent),
        ...at,
        line: call.where.line,
        col: call.where.col,
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
  const first =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  const more = first !== text.trim();
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return more && !cut.endsWith("…") ? `${cut} …` : cut;
}
