// `run --list`: each trail's session choice, args (value and where it came from), steps and the
// tool calls chosen for that session, as text — computed without starting anything.

import type { Workspace } from "../config/workspace.ts";
import { Secrets } from "../core/secrets.ts";
import { UsageError } from "../errors.ts";
import { DEFAULT_DRIVER, findDriver, knownDriverKeys, type DriverInfo } from "../core/drivers.ts";
import { agentFor, resolveSessionSpec, type SessionFlags } from "../session/session-spec.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { classifierChain, skipReason } from "../trail/select-recording.ts";
import type { Trail } from "../trail/trail-types.ts";
import { classifiersFor, planTrail, trailHints, type TrailPlan } from "./plan.ts";
import { resolveTrailArgs } from "./trail-args.ts";
import { oneLine } from "./validate.ts";

interface PlannedSession {
  /** Undefined when there is no workspace to pick one from. */
  target?: string;
  driver: DriverInfo;
  agent: AgentMode;
  /** Set when the driver is a fallback because there is no workspace. */
  note?: string;
}

/** The session a trail would get, without starting it (with or without a workspace). */
function planSession(
  trail: Trail,
  flags: SessionFlags,
  workspace: Workspace | undefined,
  context: { cwd: string; env: Record<string, string | undefined> },
): PlannedSession {
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

/** The arg values a run was given, and where each came from, for `--list`. */
export interface GivenArgs {
  /** Name → text, `--args-file` then `--arg` merged, as the run gets them. */
  values: Readonly<Record<string, string>>;
  /** Name → `--arg` or `--args-file FILE`. */
  from: Readonly<Record<string, string>>;
  /** The run's secrets: a value that holds one is shown masked. */
  secrets: Secrets;
}

const NO_ARGS: GivenArgs = { values: {}, from: {}, secrets: new Secrets() };

/** `name = value (where from)` for each declared arg (`(required, not given)` when it has no value), and the problems `run` would stop on. */
function argsOf(trail: Trail, given: GivenArgs): { line?: string; problems: string[] } {
  const { values, problems } = resolveTrailArgs(trail, given.values);
  const shown = Object.entries(trail.args).map(([name, arg]) => {
    const isGiven = Object.hasOwn(given.values, name);
    if (!isGiven && !("default" in arg)) return `${name} (required, not given)`;
    const value = Object.hasOwn(values, name) ? values[name] : isGiven ? given.values[name] : arg.default;
    const from = isGiven ? (given.from[name] ?? "--arg") : "default";
    return given.secrets.mask(`${name} = ${JSON.stringify(given.secrets.maskValue(value))} (${from})`);
  });
  return { ...(shown.length > 0 ? { line: shown.join(", ") } : {}), problems: problems.map((problem) => given.secrets.mask(problem)) };
}

/** What `--list` prints for a trail, and whether `run` would stop it before it starts. */
interface ListedTrail {
  text: string;
  /** True when its args would stop it (an undeclared, missing or mistyped arg). */
  failed: boolean;
}

function formatPlan(file: string, plan: TrailPlan, session: PlannedSession, given: GivenArgs = NO_ARGS): ListedTrail {
  const { trail } = plan;
  const title = trail.title ? ` — ${trail.title}` : "";
  const lines = [`${file} (${trail.id}${title})`];
  const device = plan.classifiers.deviceKey ? ` · device ${plan.classifiers.deviceKey}` : "";
  lines.push(
    `  session: target ${session.target ?? "(none)"} · driver ${session.driver.key} (${session.driver.platform})${device} · agent ${session.agent}` +
      ` · replays recordings for ${classifierChain(plan.classifiers).join(", ")}`,
  );
  if (session.note) lines.push(`  note: ${session.note}`);
  const args = argsOf(trail, given);
  if (args.line) lines.push(`  args: ${args.line}`);
  const skip = skipReason(trail, plan.classifiers);
  if (skip !== undefined) lines.push(`  skipped in this session: ${skip}`);
  // As `run`: a skipped trail is not bound to its args; any other stops on their problems.
  const failed = skip === undefined && args.problems.length > 0;
  if (failed) for (const problem of args.problems) lines.push(`  error: ${problem}`);
  for (const planned of plan.steps) {
    const tag = planned.step.kind === "step" ? "" : `[${planned.step.kind}] `;
    const key = planned.recordingKey ? ` (recording: ${planned.recordingKey})` : "";
    lines.push(`  ${planned.index}. ${tag}${oneLine(planned.step.title, 100)}${key}`);
    if (planned.calls === undefined)
      lines.push("       (no recording for this session: the built-in agent does it from its words, with a model)");
    else if (planned.calls.length === 0) lines.push("       (recorded: nothing to do)");
    else for (const call of planned.calls) lines.push(`       ${call.tool} ${JSON.stringify(call.args)}`);
  }
  return { text: `${lines.join("\n")}\n`, failed };
}

/** Plans `trail` for the session `flags` describe, with the run's `given` args, and formats it. */
export function listTrail(
  file: string,
  trail: Trail,
  flags: SessionFlags,
  workspace: Workspace | undefined,
  context: { cwd: string; env: Record<string, string | undefined> },
  given: GivenArgs = NO_ARGS,
): ListedTrail {
  const session = planSession(trail, flags, workspace, context);
  return formatPlan(file, planTrail(trail, classifiersFor(trail, session.driver)), session, given);
}
