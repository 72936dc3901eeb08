// What a run produces: one report per trail (steps, tool calls, failures) and the
// run summary; reporters are told of them through reporter.ts.

import type { AgentTurn } from "../agent/agent-loop.ts";
import type { StepKind } from "../trail/trail-types.ts";
import type { WireframeScreen } from "../screen/wireframe.ts";

/**
 * `error`: the trail could not run as recorded (bad args, unknown tool, session start or death).
 * `unverified`: nothing failed, and no step was checked for real: every step it ran was `unverified`
 * (its checks had no screen, its calls only acted on a device with none). It is not `passed`, and it
 * does not fail the run (exit 0) unless `--require-screen` makes each unverified step a failure.
 */
export type TrailStatus = "passed" | "unverified" | "failed" | "error" | "skipped";
/**
 * `skipped`: not reached because an earlier step failed (or the run was interrupted).
 * `unverified`: nothing failed, and nothing was checked for real: a check could not be made (a screen
 * check with no screen loaded), or its calls only acted with nothing to check them against (step-check.ts).
 * `healed`: its recording failed, and the agent (`--self-heal`) reached the step's objective on the
 * screen as it was: the trail goes on, but the step is not a plain pass.
 */
type StepStatus = "passed" | "healed" | "failed" | "skipped" | "unverified" | "interrupted";

/** What the built-in agent did for a step: why it ran, on which model, each turn, and the cost. */
export interface AgentStepReport {
  /** `provider/model`. */
  model: string;
  /** `no-recording`: the step has none for this device; `words`: `--no-use-recorded-steps`; `self-heal`: its recording failed. */
  why: "no-recording" | "words" | "self-heal";
  /** The failure the recording ended with, for a step the agent healed (or tried to). */
  recordingFailure?: StepFailure;
  turns: AgentTurn[];
  tokens: { input: number; output: number };
  /** USD, when the model's prices are configured (llm: models: cost:). */
  costUsd?: number;
}

export interface ToolCallReport {
  name: string;
  /** Arguments as dispatched (placeholders replaced), secrets masked. */
  args: Record<string, unknown>;
  /** `resultToJson` of the result, secrets masked. */
  result: Record<string, unknown>;
  /** ISO time the call started. */
  startedAt: string;
  durationMs: number;
}

export interface StepFailure {
  /** The tool whose call failed; absent when the step failed before any call (e.g. it needs an agent). */
  tool?: string;
  /** Its arguments, secrets masked: as dispatched, or as written when placeholders could not be replaced. */
  args?: Record<string, unknown>;
  variant?: string;
  message: string;
  /** Where the failing call is written in the trail file. */
  line?: number;
  col?: number;
  /**
   * The lines the tool's server wrote while the failed call ran (stderr, or the guest console
   * on-device), the last 8 that are not blank, secrets masked; none when it wrote nothing then.
   */
  stderr?: { source: string; lines: string[] };
}

/** One thing a failed check looked for, with the nodes it finds on the screen the device was on and on the expected one. */
export interface ExpectedCondition {
  /** A waypoint's `required` or `forbidden` selector, or the `selector` a call looked for. */
  role: "required" | "forbidden" | "selector";
  description: string;
  /** Whether the screen the device was on satisfies it. */
  ok: boolean;
  /** Ids of the nodes it finds on the screen the device was on. */
  actual: number[];
  /** Ids of the nodes it finds on the expected waypoint's capture. */
  expected: number[];
}

/** What a failed check expected, to show beside the screen the device was on. */
export interface ExpectedScreen {
  /** `waypoint`: the waypoint a failed assertWaypoint named; `selector`: a waypoint of the map where a selector that matched nothing does match. */
  kind: "waypoint" | "selector";
  waypoint: string;
  /** The expected waypoint's capture, by its id in `RunReport.screens` (absent when it has none). */
  screen?: string;
  /** The screen the device was on when the check failed, by its id in `RunReport.screens`. */
  actual: string;
  conditions: ExpectedCondition[];
}

/** The captured screen a step ran on (the simulated device's), by its id in `RunReport.screens`. */
export interface CaptureStepScreen {
  kind: "capture";
  /** Key of the screen in `RunReport.screens` (12 hex digits of its content's SHA-1). */
  screen: string;
  /** The app-map waypoint the device was at when the step began (absent for a static capture). */
  waypoint?: string;
  /** Ids of the nodes the step resolved or acted on, on that screen. */
  matched: number[];
  /** The shortcuts that moved the device during the step. */
  moves?: { from: string; to: string; shortcut: string }[];
  /** The screen the step ended on, when a shortcut moved the device (by its id in `RunReport.screens`). */
  after?: string;
  /** Ids of the nodes the step resolved or acted on after its last move, on the `after` screen. */
  afterMatched?: number[];
  /** For a step whose check failed on this device: what it expected, beside the screen it was on. */
  expected?: ExpectedScreen;
}

/** The page a web step ran on, as the browser driver gives it. */
export interface WebStepScreen {
  kind: "web";
  url: string;
  title: string;
  /** The page's ARIA snapshot, as text. */
  outline: string;
  /** A `data:` URL of a screenshot. */
  screenshot?: string;
}

export type StepScreen = CaptureStepScreen | WebStepScreen;

export interface StepReport {
  /** 1-based position in the trail (the trailhead is step 1 when there is one). */
  index: number;
  kind: StepKind;
  title: string;
  status: StepStatus;
  durationMs: number;
  tools: ToolCallReport[];
  failure?: StepFailure;
  /** Why the step is unverified (the first unverified call's reason, or `nothing checked: …`), when it is. */
  unverified?: string;
  /** What the step changed in session memory (values masked): keys set, keys deleted. */
  memory?: { set?: Record<string, unknown>; deleted?: string[] };
  /** The screen the step ran on, when the device had one loaded. */
  screen?: StepScreen;
  /** When the built-in agent ran the step (no recording, words only, or self-heal). */
  agent?: AgentStepReport;
  line: number;
  col: number;
}

/** A problem found before the first step ran (missing arg, unknown tool). */
export interface TrailProblem {
  message: string;
  file: string;
  line: number;
  col: number;
  /** 1-based step the problem is in, when it is in one. */
  step?: number;
  stepTitle?: string;
  tool?: string;
  /** `tool`: the tool is not registered; `args`: its recorded arguments break its input schema. */
  kind?: "tool" | "args";
}

export interface SessionInfo {
  id: string;
  target: string;
  driver: string;
  platform: string;
  agent: string;
  /** The `config.devices` key whose recordings this session replays, when one matches its driver. */
  deviceKey?: string;
  logsDir?: string;
}

export interface TrailReport {
  file: string;
  id: string;
  title?: string;
  /** The trail's `config.tags`, when it has any. */
  tags?: string[];
  status: TrailStatus;
  /** ISO time the trail started. */
  startedAt: string;
  durationMs: number;
  session?: SessionInfo;
  steps: StepReport[];
  /** Steps that ended unverified (the trail can still pass). */
  unverified: number;
  /** Steps the agent healed (status `healed`): the trail passed, but not as recorded. */
  healed?: number;
  /** The agent's recordings written into the trail file (`--save-recording`): which steps, under which slot. */
  savedRecording?: { file: string; slot: string; steps: number[] };
  /** Why the trail did not pass (secrets masked); one line per problem. */
  error?: string;
  /** The exit code of the error's class, for a trail that ended in error before its first step, or whose agent could not use its model. */
  exitCode?: 1 | 2;
  problems?: TrailProblem[];
  skipReason?: string;
  /** Session memory when the trail ended (secrets left out, values masked). */
  memory?: Record<string, unknown>;
  /** Whether any step started (false: the trail failed before its first step, or was skipped). */
  ran: boolean;
}

interface RunSummary {
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  /** Unverified steps across every trail. */
  unverified: number;
  /** Trails in which nothing was verified (status `unverified`): neither passed nor failed. */
  unverifiedTrails?: number;
  /** Steps the agent healed across every trail. */
  healed?: number;
  durationMs: number;
}

/** A problem that stopped the run before any trail started (a file that does not parse, a config error). */
export interface RunProblem {
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

export interface RunReport {
  trails: TrailReport[];
  summary: RunSummary;
  /** Every screen a step ran on, once each, by id (steps refer to them: `StepReport.screen.screen`). */
  screens?: Record<string, WireframeScreen>;
  /** Why no trail ran: the run stopped before the first one started. */
  problems?: RunProblem[];
  /** Set when SIGINT/SIGTERM stopped the run: the report is partial. */
  interrupted?: string;
  shard?: { index: number; total: number };
}

export function summarize(trails: readonly TrailReport[], durationMs: number): RunSummary {
  const count = (status: TrailStatus) => trails.filter((t) => t.status === status).length;
  const unverified = trails.reduce((sum, t) => sum + t.unverified, 0);
  const healed = trails.reduce((sum, t) => sum + (t.healed ?? 0), 0);
  return {
    passed: count("passed"),
    failed: count("failed"),
    errors: count("error"),
    skipped: count("skipped"),
    unverified,
    unverifiedTrails: count("unverified"),
    ...(healed > 0 ? { healed } : {}),
    durationMs,
  };
}

/**
 * 0 when every trail passed or was skipped; 2 when none got to run a step (all
 * failed before starting: missing args, unknown tools, bad target); else 1.
 */
export function runExitCode(run: RunReport): 0 | 1 | 2 {
  const bad = run.trails.filter((t) => t.status === "failed" || t.status === "error");
  if (bad.length === 0) return 0;
  // A trail that ran can still end for a cause of exit 2 (the agent's model refused its key).
  if (bad.every((t) => t.exitCode === 2)) return 2;
  if (run.trails.some((t) => t.ran)) return 1;
  // Nothing ran: the same failure gives the same code as in `tools`/`call` (e.g. a server that
  // crashes at start is 1; a configuration problem is 2).
  return bad.every((t) => t.exitCode === 1) ? 1 : 2;
}
