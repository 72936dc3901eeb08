// `trailblaze check`: one pass over a workspace that finds what would break a run, without
// running a step. It loads every target, toolset and trail, starts each target's servers once
// per (driver, agent mode) its trails use (host when no trail uses it), and reports config
// errors, tool-name errors and warnings, collisions, toolset entries no server advertises,
// trails calling unknown or host-only-on-device tools, and bundles that fail check-bundle.
// Every session is closed before the report is returned.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkBundle } from "../bundle/check-bundle.ts";
import { withHostOnlyFix } from "../servers/host-only-fix.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import {
  displayPath,
  loadWorkspace,
  unknownToolsetRefs,
  type TargetConfig,
  type ToolsetConfig,
  type Workspace,
} from "../config/workspace.ts";
import {
  BundleError,
  ConfigError,
  SessionStartError,
  ToolCollisionError,
  ToolNameError,
  UsageError,
  formatProblem,
  type ConfigProblem,
} from "../errors.ts";
import { formatNameFinding, SCOPING_TAG, type NameFinding } from "../core/tool-names.ts";
import { classifiersFor, needsAgentMessage, planTrail, trailHints } from "../run/plan.ts";
import { formatTrailProblem, validatePlan } from "../run/validate.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import type { Session } from "../session/session.ts";
import type { SessionWarningKind } from "../session/tool-assembly.ts";
import { findTarget, resolveSessionSpec, type SessionSpec } from "../session/session-spec.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { discoverTrails } from "../trail/discover.ts";
import { readTrailFiles } from "../trail/trail-file.ts";
import { skipReason } from "../trail/select-recording.ts";
import type { Trail } from "../trail/trail-types.ts";
import { targetServers } from "../servers/per-file-servers.ts";
import { checkSimulations } from "./check-simulations.ts";

type CheckKind =
  | "config" // a target, toolset or server entry is invalid (or a script is missing)
  | "trail" // a trail file does not parse, or names a target/driver that does not exist
  | "name" // a tool name breaks the wire rule (error) or the convention / length margin (warning)
  | "trailmap-scope" // [TrailmapScopingCheck]: target id or tool prefix (warning)
  | "collision" // two sources advertise one name
  | "toolset" // a toolset entry no server advertises; a tool_sets id no toolset defines; an excluded_tools entry no source advertises
  | "meta" // a wrong-typed _meta["trailblaze/*"] value
  | "trail-tool" // a trail calls a tool its session does not register
  | "trail-args" // a recorded call's arguments do not match its tool's input schema
  | "trail-step" // a step has no recording for its session (it needs an agent)
  | "bundle" // the server cannot run on-device
  | "waypoint" // a target's simulation.map: a waypoint's capture fails its own selectors, or the start is not in the map
  | "shortcut" // a target's simulation.map: a shortcut's first selector does not resolve on its `from` capture
  | "trailhead" // a target's simulation.map: a trailhead that does not parse or lands on an unknown waypoint
  | "session"; // a session could not start for another reason

export interface CheckFinding {
  severity: "error" | "warning";
  kind: CheckKind;
  /** One line (or a few, for a server's stderr tail), with its location first when it has one. */
  message: string;
  file?: string;
  line?: number;
  col?: number;
  /** The tool a `trail-tool` or `trail-args` finding is about. */
  tool?: string;
  /** The session it was found in: `<target> · <driver> · <agent>`. */
  session?: string;
}

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

/** What one session of the check is for: a target, a driver and an agent mode, and its trails. */
interface SessionPlan {
  spec: SessionSpec;
  trails: Trail[];
}

class Findings {
  readonly list: CheckFinding[] = [];
  readonly #seen = new Set<string>();

  add(finding: CheckFinding): void {
    const key = `${finding.severity}|${finding.kind}|${finding.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.list.push(finding);
  }

  /** Some finding of any kind already says `message` (a server's start-up failure, met by its session first). */
  says(message: string): boolean {
    return this.list.some((finding) => finding.message === message);
  }

  problem(severity: CheckFinding["severity"], kind: CheckKind, problem: ConfigProblem, session?: string): void {
    this.add({
      severity,
      kind,
      message: formatProblem(problem),
      file: problem.file,
      ...(problem.line > 0 ? { line: problem.line, col: problem.col } : {}),
      ...(session ? { session } : {}),
    });
  }

  /** Why a session could not start, split into findings by kind. */
  error(error: unknown, session: string): void {
    if (error instanceof SessionStartError) {
      for (const inner of error.errors) this.error(inner, session);
    } else if (error instanceof ConfigError) {
      for (const problem of error.problems) this.problem("error", "config", problem, session);
    } else {
      const kind: CheckKind =
        error instanceof ToolCollisionError
          ? "collision"
          : error instanceof ToolNameError
            ? "name"
            : error instanceof BundleError
              ? "bundle" // the same message check-bundle gives: reported once
              : "session";
      this.add({ severity: "error", kind, message: error instanceof Error ? error.message : String(error), session });
    }
  }
}

function sessionLabel(spec: SessionSpec): string {
  return `${spec.target.id} · ${spec.driver.key} · ${spec.agent}`;
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

/**
 * Groups trails by the session they would run in; targets no trail uses get a host session.
 * With `scope`, only its targets and the trails that run on them (a trail that does not resolve
 * is reported when the target it names is in scope).
 */
function planSessions(
  workspace: Workspace,
  trails: Trail[],
  options: CheckOptions,
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
function trailmapTargets(workspace: Workspace, id: string): string[] {
  return [...workspace.targets.values()].filter((t) => t.trailmap === id || (t.dependencies ?? []).includes(id)).map((t) => t.id);
}

function checkTrails(plan: SessionPlan, session: Session, label: string, findings: Findings): void {
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
        message: needsAgentMessage(step, classifiers),
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

/**
 * Toolset entries that no session registered or skipped, target tool_sets ids nothing defines,
 * and excluded_tools entries no session saw advertised. `unstarted` names targets whose servers
 * did not run in this check (they failed to start, or `--target` left them out): their tools are
 * unknown, so a missing toolset entry is then only a warning.
 */
function checkToolsets(
  checked: { targets: TargetConfig[]; toolsets: ToolsetConfig[] },
  seenTools: Set<string>,
  seenToolsets: Set<string>,
  unstarted: Set<string>,
  findings: Findings,
): void {
  const caveat =
    unstarted.size > 0 ? ` (not certain: ${[...unstarted].join(", ")} did not run in this check, so their tools are unknown)` : "";
  for (const toolset of checked.toolsets) {
    toolset.tools.forEach((name, i) => {
      if (seenTools.has(name)) return;
      const where = toolset.toolWheres[i] ?? toolset.where;
      findings.problem(caveat ? "warning" : "error", "toolset", {
        ...where,
        path: `tools[${i}]`,
        message: `toolset ${toolset.id} lists ${name}, which no server of any target advertises${didYouMean(name, seenTools)}${caveat}`,
      });
    });
  }
  for (const problem of unknownToolsetRefs(checked.targets, seenToolsets)) findings.problem("warning", "toolset", problem);
  for (const target of checked.targets) {
    for (const [platform, section] of Object.entries(target.platforms)) {
      section?.excludedTools?.forEach((name, i) => {
        if (seenTools.has(name)) return;
        findings.problem("warning", "toolset", {
          ...(section.excludedToolWheres?.[i] ?? section.where ?? target.where),
          // A trailmap's entry may be its own (target.platforms) or a dependency's (defaults): the location tells.
          path: target.trailmap === undefined ? `platforms.${platform}.excluded_tools` : "excluded_tools",
          message: `target ${target.id} excludes ${name} on ${platform}, but no source of any session advertises a tool of that name, so it excludes nothing${didYouMean(name, seenTools)}${caveat}`,
        });
      });
    }
  }
}

/** check-bundle for every script server of the targets some trail runs on-device. */
async function checkBundles(targets: TargetConfig[], findings: Findings, cwd: string, root: string): Promise<void> {
  const checked = new Set<string>();
  for (const target of targets) {
    let servers: ResolvedServer[];
    try {
      servers = await targetServers(target, root, cwd);
    } catch {
      continue; // missing scripts were reported by the session that tried to start them
    }
    for (const server of servers) {
      if (server.kind !== "script" || server.requiresHost || server.perFile?.runtime === "subprocess") continue;
      const file = server.bundle ?? server.script;
      if (checked.has(file)) continue;
      checked.add(file);
      const result = await checkBundle(file, { cwd, cacheRoot: root });
      for (const [severity, items] of [
        ["error", result.problems],
        ["warning", result.warnings],
      ] as const) {
        for (const item of items) {
          // A script esbuild cannot bundle gets the same fix as the session that failed on it; a locale the guest ignores gets none.
          const fix = item.kind === "bundle" || (server.perFile && item.kind !== "locale");
          const message = fix ? withHostOnlyFix(item.message, server) : item.message;
          if (findings.says(message)) continue;
          findings.add({ severity, kind: "bundle", message, ...(item.source ? { file: item.source } : {}) });
        }
      }
    }
  }
}

/** A trailmap scope: its targets, the trails left out because they run on others, and whether it is a library. */
interface TrailmapScope {
  targets: ReadonlySet<string>;
  leftOut: Set<string>;
  /** No loaded target comes from the trailmap itself: its targets are those that depend on it. */
  library: boolean;
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
      checkTrails(plan, session, label, findings);
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
  const scope = options.trailmap ? trailmapScope(workspace, options, options.trailmap.id, findings) : undefined;
  const logsDir = options.logsDir ?? (await mkdtemp(join(tmpdir(), "trailblaze-check-")));
  const seen: SessionsSeen = { sessions: [], tools: new Set(), toolsets: new Set(workspace.toolsets.keys()), started: new Set() };
  try {
    await checkSessions(planSessions(workspace, trails, options, logsDir, findings, scope), startSession, seen, findings);
    await checkAcrossSessions(workspace, options, scope, seen, findings);
  } finally {
    if (options.logsDir === undefined) await rm(logsDir, { recursive: true, force: true });
  }
  return checkReport(options, files, findings, { workspace, scope, sessions: seen.sessions });
}
