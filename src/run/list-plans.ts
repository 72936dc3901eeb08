// `run --list`: each trail's session choice, steps and the tool calls chosen
// for that session, as text — computed without starting anything.

import type { Workspace } from "../config/workspace.ts";
import { UsageError } from "../errors.ts";
import { DEFAULT_DRIVER, findDriver, knownDriverKeys, type DriverInfo } from "../core/drivers.ts";
import { agentFor, resolveSessionSpec, type SessionFlags } from "../session/session-spec.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { classifierChain, skipReason } from "../trail/select-recording.ts";
import type { Trail } from "../trail/trail-types.ts";
import { classifiersFor, planTrail, trailHints, type TrailPlan } from "./plan.ts";
import { oneLine } from "./validate.ts";

export interface PlannedSession {
  /** Undefined when there is no workspace to pick one from. */
  target?: string;
  driver: DriverInfo;
  agent: AgentMode;
  /** Set when the driver is a fallback because there is no workspace. */
  note?: string;
}

/** The session a trail would get, without starting it (with or without a workspace). */
export function planSession(trail: Trail, flags: SessionFlags, workspace: Workspace | undefined, context: { cwd: string; env: Record<string, string | undefined> }): PlannedSession {
  if (workspace) {
    const spec = resolveSessionSpec(workspace, flags, { ...context, trail: trailHints(trail) });
    return { target: spec.target.id, driver: spec.driver, agent: spec.agent };
  }
  const named = flags.driver ?? trail.driver ?? (Object.keys(trail.devices).length === 1 ? Object.values(trail.devices)[0] : undefined);
  const agent = agentFor(flags.agent, trail.agent);
  const target = flags.target ?? trail.target;
  if (named !== undefined) {
    const driver = findDriver(named);
    if (!driver) throw new UsageError(`unknown driver "${named}"; known drivers: ${knownDriverKeys().join(", ")}`);
    return { ...(target ? { target } : {}), driver, agent };
  }
  const driver = findDriver(DEFAULT_DRIVER.ANDROID)!;
  return { ...(target ? { target } : {}), driver, agent, note: "no config folder found: planned for the default Android driver" };
}

function argsLine(trail: Trail): string | undefined {
  const entries = Object.entries(trail.args);
  if (entries.length === 0) return undefined;
  return entries.map(([name, arg]) => ("default" in arg ? `${name} = ${JSON.stringify(arg.default)}` : `${name} (required)`)).join(", ");
}

export function formatPlan(file: string, plan: TrailPlan, session: PlannedSession): string {
  const { trail } = plan;
  const title = trail.title ? ` — ${trail.title}` : "";
  const lines = [`${file} (${trail.id}${title})`];
  const device = plan.classifiers.deviceKey ? ` · device ${plan.classifiers.deviceKey}` : "";
  lines.push(
    `  session: target ${session.target ?? "(none)"} · driver ${session.driver.key} (${session.driver.platform})${device} · agent ${session.agent}` +
      ` · replays recordings for ${classifierChain(plan.classifiers).join(", ")}`,
  );
  if (session.note) lines.push(`  note: ${session.note}`);
  const args = argsLine(trail);
  if (args) lines.push(`  args: ${args}`);
  const skip = skipReason(trail, plan.classifiers);
  if (skip !== undefined) lines.push(`  skipped in this session: ${skip}`);
  for (const planned of plan.steps) {
    const tag = planned.step.kind === "step" ? "" : `[${planned.step.kind}] `;
    const key = planned.recordingKey ? ` (recording: ${planned.recordingKey})` : "";
    lines.push(`  ${planned.index}. ${tag}${oneLine(planned.step.title, 100)}${key}`);
    if (planned.calls === undefined) lines.push("       (no recording for this session: needs an agent, none is built in)");
    else if (planned.calls.length === 0) lines.push("       (recorded: nothing to do)");
    else for (const call of planned.calls) lines.push(`       ${call.tool} ${JSON.stringify(call.args)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Plans `trail` for the session `flags` describe and formats it. */
export function listTrail(file: string, trail: Trail, flags: SessionFlags, workspace: Workspace | undefined, context: { cwd: string; env: Record<string, string | undefined> }): string {
  const session = planSession(trail, flags, workspace, context);
  return formatPlan(file, planTrail(trail, classifiersFor(trail, session.driver)), session);
}
