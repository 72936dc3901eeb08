// `trailblaze check`: one pass over a workspace that finds what would break a run, without
// running a step. It loads every target, toolset and trail, starts each target's servers once
// per (driver, agent mode) its trails use (host when no trail uses it), and reports config
// errors (the llm: block's too, with the model it chooses), tool-name errors and warnings,
// collisions, toolset entries no server advertises, trails calling unknown or host-only-on-device
// tools, steps with no recording (given to the model, or failing for want of one), and bundles
// that fail check-bundle.
// Every session is closed before the report is returned.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { didYouMean } from "../core/did-you-mean.ts";
import { displayPath, loadWorkspace, type Workspace } from "../config/workspace.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { formatNameFinding, SCOPING_TAG, type NameFinding } from "../core/tool-names.ts";
import { agentStepMessage, classifiersFor, needsAgentMessage, planTrail } from "../run/plan.ts";
import { formatTrailProblem, validatePlan } from "../run/validate.ts";
import type { Session } from "../session/session.ts";
import type { SessionWarningKind } from "../session/tool-assembly.ts";
import { findTarget, type SessionSpec } from "../session/session-spec.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { discoverTrails } from "../trail/discover.ts";
import { readTrailFiles } from "../trail/trail-file.ts";
import { skipReason } from "../trail/select-recording.ts";
import { checkBundles } from "./check-bundles.ts";
import { Findings, type CheckFinding } from "./check-findings.ts";
import { planSessions, sessionLabel, trailmapTargets, type SessionPlan, type TrailmapScope } from "./check-plan.ts";
import { checkLlm, type AgentForCheck } from "./check-llm.ts";
import { checkSimulations } from "./check-simulations.ts";
import { checkToolsets } from "./check-toolsets.ts";

interface CheckedSession {
  target: string;
  driver: string;
  agent: AgentMode;
  /** Trail files checked against it. */
  trails: string[];
  started: boolean;
  tools: number;
  skipped: number;
}

/** A check limited to one trailmap (`check <trailmap-id>`, or run inside its folder). */
export interface CheckedTrailmap {
  id: string;
  /** `argument`: named on the command line; `cwd`: the working directory is inside it. */
  from: "argument" | "cwd";
  /** The targets checked: the trailmap's own, or (a library) those that depend on it. */
  targets: string[];
  /** No loaded target comes from the trailmap itself: `targets` are those that depend on it. */
  library: boolean;
}

export interface CheckReport {
  ok: boolean;
  configDir: string;
  /** Set when the check is limited to one trailmap. */
  trailmap?: CheckedTrailmap;
  targets: string[];
  toolsets: string[];
  trails: string[];
  sessions: CheckedSession[];
  findings: CheckFinding[];
  summary: { errors: number; warnings: number };
}

export interface CheckOptions {
  /** Absolute config folder. */
  configDir: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Trail files and folders; default: every trail under the config folder's parent. */
  paths?: string[];
  /** Check only this target, with every trail run against it (as `run --target` would). */
  target?: string;
  /**
   * Check only this trailmap (upstream's `check <trailmap-id>`): the targets it makes, or for a
   * library the targets that depend on it, with the trails that run on them; other trails are left out.
   */
  trailmap?: { id: string; from: "argument" | "cwd" };
  /**
   * Check only this agent mode: every trail's session runs in it. Default: each trail in its own
   * mode, and every target in both modes (on-device only where it has a script not marked requiresHost).
   */
  agent?: AgentMode;
  /** Warnings count as errors. */
  strict?: boolean;
  /** Where sessions write their logs; default a temporary folder, removed afterwards. */
  logsDir?: string;
}

/** How the check hears a session's warnings. */
interface CheckSessionHooks {
  onWarning(message: string, kind: SessionWarningKind): void;
  onNameWarning(finding: NameFinding, source: string): void;
  /** The check calls no tool: a server's cached listing will do (the bundle check still runs each on-device bundle). */
  listOnly: true;
}

async function trailFiles(options: CheckOptions): Promise<string[]> {
  if (options.paths && options.paths.length > 0) return discoverTrails(options.paths, options.cwd);
  const parent = dirname(options.configDir);
  const root = parent === options.cwd ? "." : displayPath(parent, options.cwd);
  try {
    return await discoverTrails([root], options.cwd);
  } catch (error) {
    // A workspace without trails is fine: its targets are still checked.
    if (error instanceof ConfigError) return [];
    throw error;
  }
}

function checkTrails(plan: SessionPlan, session: Session, label: string, agent: AgentForCheck, findings: Findings): void {
  for (const trail of plan.trails) {
    const classifiers = classifiersFor(trail, plan.spec.driver);
    if (skipReason(trail, classifiers) !== undefined) continue;
    const trailPlan = planTrail(trail, classifiers);
    const exempt = plan.spec.target.validationExempt;
    for (const problem of validatePlan(trailPlan, session.registry, plan.spec.agent)) {
      findings.add({
        // Upstream's trail_validation.exempt: reported, not fatal.
        severity: exempt === undefined ? "error" : "warning",
        kind: problem.kind === "args" ? "trail-args" : "trail-tool",
        message: exempt === undefined ? formatTrailProblem(problem) : `${formatTrailProblem(problem)} (exempt: ${exempt})`,
        file: problem.file,
        line: problem.line,
        col: problem.col,
        ...(problem.tool ? { tool: problem.tool } : {}),
        session: label,
      });
    }
    for (const step of trailPlan.steps) {
      if (step.calls !== undefined) continue;
      const where = step.step.where;
      const problem = {
        message: "model" in agent ? agentStepMessage(step, classifiers, agent.model) : needsAgentMessage(step, classifiers, agent.none),
        file: trail.file,
        line: where.line,
        col: where.col,
        step: step.index,
        stepTitle: step.step.title,
      };
      findings.add({
        severity: "warning",
        kind: "trail-step",
        message: formatTrailProblem(problem),
        file: trail.file,
        line: where.line,
        col: where.col,
        session: label,
      });
    }
  }
}

/** What the sessions of a check saw: each session, the tools and toolsets registered or skipped, the targets that started. */
interface SessionsSeen {
  sessions: CheckedSession[];
  tools: Set<string>;
  toolsets: Set<string>;
  started: Set<string>;
}

/** The workspace, or undefined when its configuration does not load (its problems are findings). */
async function loadForCheck(options: CheckOptions, findings: Findings): Promise<Workspace | undefined> {
  try {
    return await loadWorkspace(options.configDir, { cwd: options.cwd });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) findings.problem("error", "config", problem);
    return undefined;
  }
}

/** `options` with `target` as the id of the target it names (by id or app id); an unknown one is a usage error. */
function withTargetId(options: CheckOptions, workspace: Workspace): CheckOptions {
  const wanted = options.target;
  if (wanted === undefined || workspace.targets.has(wanted)) return options;
  try {
    return { ...options, target: findTarget(workspace, wanted).id };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`check: unknown target "${wanted}"${didYouMean(wanted, workspace.targets.keys())}`);
  }
}

/** The targets of the trailmap `check <trailmap-id>` names; a trailmap nothing loads is a warning. */
function trailmapScope(workspace: Workspace, options: CheckOptions, id: string, findings: Findings): TrailmapScope {
  const scope = {
    targets: new Set(trailmapTargets(workspace, id)),
    leftOut: new Set<string>(),
    library: ![...workspace.targets.values()].some((t) => t.trailmap === id),
  };
  if (scope.targets.size === 0) {
    findings.add({
      severity: "warning",
      kind: "config",
      message:
        `trailmap ${id} is not a target this workspace loads, and no target depends on it, so nothing of it runs and nothing was checked; ` +
        `list it under targets: in ${displayPath(join(options.configDir, "trailblaze.yaml"), options.cwd)} (a trailmap with a target: block), or add it to a target's dependencies:`,
    });
  }
  return scope;
}

/** Starts each planned session in turn (list only), records what it registers, checks its trails, and closes it. */
async function checkSessions(
  plans: readonly SessionPlan[],
  startSession: (spec: SessionSpec, hooks: CheckSessionHooks) => Promise<Session>,
  seen: SessionsSeen,
  agent: AgentForCheck,
  findings: Findings,
): Promise<void> {
  for (const plan of plans) {
    const label = sessionLabel(plan.spec);
    const checked: CheckedSession = {
      target: plan.spec.target.id,
      driver: plan.spec.driver.key,
      agent: plan.spec.agent,
      trails: plan.trails.map((t) => t.file),
      started: false,
      tools: 0,
      skipped: 0,
    };
    seen.sessions.push(checked);
    let session: Session;
    try {
      session = await startSession(plan.spec, sessionHooks(label, findings));
    } catch (error) {
      findings.error(error, label);
      continue;
    }
    try {
      checked.started = true;
      seen.started.add(plan.spec.target.id);
      checked.tools = session.registry.list().length;
      checked.skipped = session.registry.skipped().length;
      for (const name of session.registry.names()) seen.tools.add(name);
      for (const skipped of session.registry.skipped()) seen.tools.add(skipped.name);
      for (const toolset of session.registry.toolsets()) seen.toolsets.add(toolset.id);
      checkTrails(plan, session, label, agent, findings);
    } finally {
      await session.close();
    }
  }
}

/** How a session of the check reports its warnings: as findings of that session. */
function sessionHooks(label: string, findings: Findings): CheckSessionHooks {
  return {
    onWarning: (message, kind) => {
      // Toolset findings are judged across every session below, not one at a time; map
      // warnings come from the map's own check (kind waypoint), once, not per session.
      if (kind !== "toolset" && kind !== "map")
        findings.add({ severity: "warning", kind: kind === "meta" ? "meta" : "session", message, session: label });
    },
    onNameWarning: (finding, source) =>
      findings.add({
        severity: "warning",
        kind: finding.rule.startsWith("trailmap") ? "trailmap-scope" : "name",
        message: formatNameFinding(finding, source),
        session: label,
      }),
    listOnly: true,
  };
}

/** What is judged across every session: the targets' simulated screens, the toolsets, and the on-device bundles. */
async function checkAcrossSessions(
  workspace: Workspace,
  options: CheckOptions,
  scope: TrailmapScope | undefined,
  seen: SessionsSeen,
  findings: Findings,
): Promise<void> {
  const checkedTargets = [...workspace.targets.values()].filter(
    (target) => (options.target === undefined || target.id === options.target) && (scope === undefined || scope.targets.has(target.id)),
  );
  for (const finding of await checkSimulations(checkedTargets, workspace.root, options.cwd)) findings.add(finding);
  const unstarted = new Set([...workspace.targets.keys()].filter((id) => !seen.started.has(id)));
  // A trailmap scope judges the toolsets its targets use (or every target uses) and their exclusions only.
  const used = new Set(checkedTargets.flatMap((t) => Object.values(t.platforms).flatMap((p) => p?.toolSets ?? [])));
  const toolsets = [...workspace.toolsets.values()].filter((t) => scope === undefined || t.alwaysEnabled || used.has(t.id));
  checkToolsets(
    { targets: scope ? checkedTargets : [...workspace.targets.values()], toolsets },
    seen.tools,
    seen.toolsets,
    unstarted,
    findings,
  );
  const onDevice = new Set(seen.sessions.filter((s) => s.agent === "on-device").map((s) => s.target));
  await checkBundles(
    [...onDevice].map((id) => workspace.targets.get(id)!),
    findings,
    options.cwd,
    workspace.root,
  );
}

/** The report of what was checked: with `--strict` every warning counts as an error. */
function checkReport(
  options: CheckOptions,
  files: readonly string[],
  findings: Findings,
  checked?: { workspace: Workspace; scope: TrailmapScope | undefined; sessions: CheckedSession[] },
): CheckReport {
  const list = findings.list.map((f) => (options.strict && f.severity === "warning" ? { ...f, severity: "error" as const } : f));
  const errors = list.filter((f) => f.severity === "error").length;
  const scope = checked?.scope;
  return {
    ok: errors === 0,
    configDir: displayPath(options.configDir, options.cwd),
    ...(options.trailmap
      ? { trailmap: { ...options.trailmap, targets: [...(scope?.targets ?? [])], library: scope === undefined || scope.library } }
      : {}),
    targets: checked ? [...checked.workspace.targets.keys()] : [],
    toolsets: checked ? [...checked.workspace.toolsets.keys()] : [],
    trails: scope ? files.filter((file) => !scope.leftOut.has(file)) : [...files],
    sessions: checked?.sessions ?? [],
    findings: list,
    summary: { errors, warnings: list.length - errors },
  };
}

/**
 * Checks a workspace. `startSession` starts (and tracks) one session; the check closes each
 * one before starting the next, so at most one set of servers runs at a time.
 */
export async function checkWorkspace(
  given: CheckOptions,
  startSession: (spec: SessionSpec, hooks: CheckSessionHooks) => Promise<Session>,
): Promise<CheckReport> {
  const findings = new Findings();
  const files = await trailFiles(given);
  const { trails, problems } = await readTrailFiles(files, given.cwd);
  for (const problem of problems) findings.problem("error", "trail", problem);
  const workspace = await loadForCheck(given, findings);
  if (workspace === undefined) return checkReport(given, files, findings);
  const options = withTargetId(given, workspace);
  for (const warning of workspace.warnings) {
    findings.problem("warning", warning.message.startsWith(SCOPING_TAG) ? "trailmap-scope" : "config", warning);
  }
  // The llm: block as run reads it: its problems, and what run does with a step that goes to the agent.
  const llm = checkLlm(workspace.root, options.cwd, options.env);
  for (const problem of llm.problems) findings.problem("error", "config", problem);
  for (const warning of llm.warnings) findings.problem("warning", "config", warning);
  const scope = options.trailmap ? trailmapScope(workspace, options, options.trailmap.id, findings) : undefined;
  const logsDir = options.logsDir ?? (await mkdtemp(join(tmpdir(), "trailblaze-check-")));
  const seen: SessionsSeen = { sessions: [], tools: new Set(), toolsets: new Set(workspace.toolsets.keys()), started: new Set() };
  try {
    await checkSessions(planSessions(workspace, trails, options, logsDir, findings, scope), startSession, seen, llm.agent, findings);
    await checkAcrossSessions(workspace, options, scope, seen, findings);
  } finally {
    if (options.logsDir === undefined) await rm(logsDir, { recursive: true, force: true });
  }
  return checkReport(options, files, findings, { workspace, scope, sessions: seen.sessions });
}
