// The sessions `trailblaze check` starts: one per target, driver and agent mode its trails run in,
// as `run` would resolve them, and each target in every agent mode it can run in; with a trailmap
// scope, only its targets and the trails that run on them.

import { ConfigError, UsageError } from "../errors.ts";
import type { Workspace } from "../config/workspace.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { trailHints } from "../run/plan.ts";
import { findTarget, resolveSessionSpec, type SessionSpec } from "../session/session-spec.ts";
import type { Trail } from "../trail/trail-types.ts";
import type { Findings } from "./check-findings.ts";

/** What one session of the check is for: a target, a driver and an agent mode, and its trails. */
export interface SessionPlan {
  spec: SessionSpec;
  trails: Trail[];
}

/** A trailmap scope: its targets, the trails left out because they run on others, and whether it is a library. */
export interface TrailmapScope {
  targets: ReadonlySet<string>;
  leftOut: Set<string>;
  /** No loaded target comes from the trailmap itself: its targets are those that depend on it. */
  library: boolean;
}

/** What the plan reads of the check's options. */
interface PlanOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Only this target, with every trail run against it. */
  target?: string | undefined;
  /** Only this agent mode. */
  agent?: AgentMode | undefined;
}

/** A session's label in findings: `<target> · <driver> · <agent>`. */
export function sessionLabel(spec: SessionSpec): string {
  return `${spec.target.id} · ${spec.driver.key} · ${spec.agent}`;
}

/**
 * Groups trails by the session they would run in; targets no trail uses get a host session.
 * With `scope`, only its targets and the trails that run on them (a trail that does not resolve
 * is reported when the target it names is in scope).
 */
export function planSessions(
  workspace: Workspace,
  trails: Trail[],
  options: PlanOptions,
  logsDir: string,
  findings: Findings,
  scope?: TrailmapScope,
): SessionPlan[] {
  const plans = new Map<string, SessionPlan>();
  // The session a trail (or, without one, the target alone) gets, as `run` would resolve it.
  const specFor = (trail: Trail | undefined, target = options.target, agent = options.agent): SessionSpec => {
    const flags = { "session-id": `check-${plans.size + 1}`, logs: logsDir, ...(target ? { target } : {}), ...(agent ? { agent } : {}) };
    // Sessions are checked without their simulated screen: the screen is checked on its own (check-simulations.ts).
    const { simulation: _, ...spec } = resolveSessionSpec(workspace, flags, {
      cwd: options.cwd,
      env: options.env,
      ...(trail ? { trail: trailHints(trail) } : {}),
    });
    return spec;
  };
  for (const trail of trails) {
    let spec: SessionSpec;
    try {
      spec = specFor(trail);
    } catch (error) {
      if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
      if (scope && !namesTargetIn(workspace, trail, scope.targets)) {
        scope.leftOut.add(trail.file);
        continue;
      }
      findings.add({ severity: "error", kind: "trail", message: `${trail.file}: ${error.message}`, file: trail.file });
      continue;
    }
    if (scope && !scope.targets.has(spec.target.id)) {
      scope.leftOut.add(trail.file);
      continue;
    }
    const key = sessionLabel(spec);
    const plan = plans.get(key) ?? { spec, trails: [] };
    plan.trails.push(trail);
    plans.set(key, plan);
  }
  // Every target is checked in each agent mode it can run in, with or without trails.
  const covered = new Set([...plans.values()].map((p) => `${p.spec.target.id}/${p.spec.agent}`));
  for (const [id, target] of workspace.targets) {
    if (options.target !== undefined && id !== options.target) continue;
    if (scope && !scope.targets.has(id)) continue;
    const portable = target.mcpServers.some((entry) => entry.kind === "script" && !entry.requiresHost);
    const agents: AgentMode[] = options.agent ? [options.agent] : portable ? ["host", "on-device"] : ["host"];
    for (const agent of agents) {
      if (covered.has(`${id}/${agent}`)) continue;
      const spec = specFor(undefined, id, agent);
      plans.set(sessionLabel(spec), { spec, trails: [] });
    }
  }
  return [...plans.values()];
}

/** Whether the target a trail names (by id or app id) is one of `scope`. */
function namesTargetIn(workspace: Workspace, trail: Trail, scope: ReadonlySet<string>): boolean {
  if (trail.target === undefined) return false;
  try {
    return scope.has(findTarget(workspace, trail.target).id);
  } catch {
    return false;
  }
}

/** The targets a trailmap scope checks: the trailmap's own, or (a library) those that depend on it. */
export function trailmapTargets(workspace: Workspace, id: string): string[] {
  return [...workspace.targets.values()].filter((t) => t.trailmap === id || (t.dependencies ?? []).includes(id)).map((t) => t.id);
}
