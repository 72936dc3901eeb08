// Runs one trail in its own session: resolve the session (target, driver, skip,
// args), start it, validate every recorded tool, replay the steps with memory
// interpolation, and always close the session. Never throws for trail failures:
// everything ends up in the TrailReport.

import { dirname, resolve } from "node:path";
import { exitCodeOf, InterpolationError, type TrailblazeError } from "../errors.ts";
import { displayPath, type Workspace } from "../config/workspace.ts";
import { exceptionThrown, isSuccess, resultToJson, type ToolResult } from "../core/tool-result.ts";
import type { Secrets } from "../core/secrets.ts";
import type { Memory } from "../session/memory.ts";
import { initialMemory, resolveSessionSpec, type SessionFlags, type SessionSpec } from "../session/session-spec.ts";
import type { CallEvidence, Session, SessionOptions } from "../session/session.ts";
import { interpolate } from "../trail/interpolate.ts";
import { skipReason } from "../trail/select-recording.ts";
import type { Trail } from "../trail/trail-types.ts";
import { runObjective, TokenBudget, type RecordedAgentCall } from "../agent/agent-loop.ts";
import { callPolicy, recordedUrls } from "../agent/call-guard.ts";
import type { AgentModel } from "../llm/ask-model.ts";
import type { Cap } from "../llm/llm-config.ts";
import { RecordedFile } from "../trail/recorded-file.ts";
import { spliceRecording } from "../trail/trail-record.ts";
import type { RecordedCall } from "../trail/trail-types.ts";
import { CallLog } from "./call-log.ts";
import { maskReport } from "./mask-report.ts";
import { classifiersFor, needsAgentMessage, planTrail, trailHints, type PlannedStep, type TrailPlan } from "./plan.ts";
import { ScreenTable } from "./screen-table.ts";
import { uncheckedStep } from "./step-check.ts";
import { memoryChanges, noteActivity, stepScreenOf } from "./step-record.ts";
import type { Reporter, TrailInfo } from "./reporter.ts";
import type {
  AgentStepReport,
  CaptureStepScreen,
  SessionInfo,
  StepFailure,
  StepReport,
  ToolCallReport,
  TrailProblem,
  TrailReport,
  TrailStatus,
  WebStepScreen,
} from "./run-types.ts";
import { resolveTrailArgs, trailLookup } from "./trail-args.ts";
import { validatePlan } from "./validate.ts";

/** Where a run happens and reports: the CLI's IO, or a test's. */
interface RunIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
  isTTY: boolean;
}

/** Starts (and tracks) the session for one trail; the CLI's adds reaper tracking and warnings on stderr. */
export type StartTrailSession = (spec: SessionSpec, options: Pick<SessionOptions, "onCall" | "secrets">) => Promise<Session>;

export interface TrailRunOptions {
  io: RunIO;
  startSession: StartTrailSession;
  workspace: Workspace;
  /** Session flags shared by every trail of the run. */
  flags: SessionFlags;
  /** Session id for this trail (default: generated). */
  sessionId?: string;
  /**
   * The run's secrets: `--secret KEY=VALUE` pairs each session binds afresh (usable as `{{KEY}}`),
   * and every secret value, masked in the report (as it is built), the call log and the logs.
   */
  secrets: Secrets;
  /** `--arg NAME=VALUE` values as given. */
  args: Readonly<Record<string, string>>;
  /** Aborted on interrupt: no further call starts. */
  signal: AbortSignal;
  /** The run's reporters (a Multiplexer), told of the trail and each step as they end. */
  observer: Reporter;
  /** Position of the trail in the run (0-based), passed to the reporters. */
  index: number;
  /** The run's table of screens, where each step's screen is stored once (default: the trail's own). */
  screens?: ScreenTable;
  /** Take each web step's page from the real browser once its calls are done (for a report that shows it). */
  recordPages?: boolean;
  /** The built-in agent, when a model is chosen; without one a step in words fails as needing an agent. */
  agent?: TrailAgent;
  /** Without an agent: why (what turned the model off, or how to choose one), as a step that needs one says. */
  noAgent?: string;
}

/** The built-in agent for a run's steps in words (`--llm` or `llm:` chose a model). */
export interface TrailAgent {
  /**
   * The model, or why the configured one cannot be used (no key, a bad llm: block): a model that
   * only the workspace's config chose is needed only by a step that goes to the agent, so a run
   * that replays recordings alone never asks for its key.
   */
  model: AgentModel | { unusable: TrailblazeError };
  /** `--use-recorded-steps` (true) / `--no-use-recorded-steps` (false); undefined: a recording replays, a step without one runs through the agent. */
  useRecordedSteps?: boolean;
  /** `--self-heal`: a failing recorded step is handed to the agent on the screen as it is. */
  selfHeal: boolean;
  /** `--max-llm-calls`: model calls per objective, and where that cap was set. */
  maxCalls: Cap;
  /** `--max-llm-tokens`: tokens the model may spend on one trail, and where that cap was set; undefined: no cap. */
  maxTokens?: Cap;
  /** `--save-recording`: write what the agent did into the trail file when the trail passes. */
  saveRecording: boolean;
}

/** How a step ended (what it checked is read from its calls when it ends: step-check.ts). */
interface StepEnd {
  failure?: StepFailure;
  /** The session cannot go on (a server died, the run was interrupted, the model cannot be used). */
  broken?: boolean;
  /** The exit code of what broke it, when it was the model. */
  exitCode?: 1 | 2;
  /** The agent's calls, to save as the step's recording. */
  recording?: RecordedAgentCall[];
  healed?: boolean;
}

type TrailLookup = ReturnType<typeof trailLookup>;

/** Server output lines shown with a failing step. */
const STDERR_LINES = 8;

const round = (ms: number) => Math.round(ms);

/** How a failed step ends the trail: failed, or an error when the session broke. */
function failedOutcome(
  planned: PlannedStep,
  failure: StepFailure,
  ended: StepEnd,
): { status: TrailStatus; error: string; exitCode?: 1 | 2 } {
  // A message that already starts with the tool's name (most framework tools say it) is not prefixed twice.
  const what = failure.tool && !failure.message.startsWith(`${failure.tool}: `) ? `${failure.tool}: ${failure.message}` : failure.message;
  return {
    status: ended.broken ? "error" : "failed",
    error: `step ${planned.index} failed: ${what}`,
    ...(ended.exitCode ? { exitCode: ended.exitCode } : {}),
  };
}
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface CurrentStep {
  planned: PlannedStep;
  /** What the agent did for the step, when it ran. */
  agent?: AgentStepReport;
  tools: ToolCallReport[];
  t0: number;
  /** The simulated screen the step began on, with what it touched there; or the real page it ended on. */
  screen?: CaptureStepScreen | WebStepScreen;
  /** Session memory when the step began, to report what it changed. */
  memoryBefore?: Record<string, unknown>;
}

export class TrailRun {
  readonly file: string;
  readonly trail: Trail;
  readonly #options: TrailRunOptions;
  readonly #startedAt = new Date();
  /** Whether the trail has begun (so an interrupt reports it as cut short, not as never started). */
  started = false;
  readonly #t0 = performance.now();
  readonly #steps: StepReport[] = [];
  #session: SessionInfo | undefined;
  #memory: Memory | undefined;
  #current: CurrentStep | undefined;
  #ran = false;
  #final: TrailReport | undefined;
  /** Where the agent's recordings are saved, settled before the session starts (see #recordingFile). */
  #recordedFile: RecordedFile | undefined;
  readonly #screens: ScreenTable;
  /** What the trail's steps have spent on the model, against `--max-llm-tokens`. */
  #tokenBudget: TokenBudget | undefined;

  constructor(file: string, trail: Trail, options: TrailRunOptions) {
    this.file = file;
    this.trail = trail;
    this.#options = options;
    this.#screens = options.screens ?? new ScreenTable();
    const maxTokens = options.agent?.maxTokens;
    if (maxTokens !== undefined) this.#tokenBudget = new TokenBudget(maxTokens);
  }

  get finished(): TrailReport | undefined {
    return this.#final;
  }

  /** The trail as its reporters' events name it. */
  get #info(): TrailInfo {
    return {
      file: this.file,
      id: this.trail.id,
      ...(this.trail.title !== undefined ? { title: this.trail.title } : {}),
      index: this.#options.index,
    };
  }

  /** The report so far; an unfinished trail is reported as an error with `reason`. */
  snapshot(reason: string): TrailReport {
    if (this.#final) return this.#final;
    const steps = [...this.#steps];
    const current = this.#current;
    if (current) {
      steps.push(this.#stepReport(current, "interrupted", { message: reason }));
    }
    return this.#report("error", { error: reason, steps });
  }

  async run(): Promise<TrailReport> {
    const { observer } = this.#options;
    this.started = true;
    void observer.onTrailBegin?.(this.#info);
    let report: TrailReport;
    try {
      report = await this.#run();
    } catch (error) {
      report = this.#report("error", { error: messageOf(error) });
    }
    this.#final = report;
    void observer.onTrailEnd?.(this.#info, report);
    return report;
  }

  async #run(): Promise<TrailReport> {
    const { io, workspace, flags, sessionId, secrets, startSession } = this.#options;
    const trail = this.trail;
    let spec: SessionSpec;
    try {
      const sessionFlags = sessionId === undefined ? flags : { ...flags, "session-id": sessionId };
      spec = {
        ...resolveSessionSpec(workspace, sessionFlags, { cwd: io.cwd, env: io.env, trail: trailHints(trail) }),
        secrets: secrets.given,
        trailDir: dirname(resolve(io.cwd, this.file)),
      };
    } catch (error) {
      return this.#report("error", { error: messageOf(error) });
    }
    const classifiers = classifiersFor(trail, spec.driver);
    this.#session = {
      id: spec.id,
      target: spec.target.id,
      driver: spec.driver.key,
      platform: spec.driver.platform.toLowerCase(),
      agent: spec.agent,
      ...(classifiers.deviceKey ? { deviceKey: classifiers.deviceKey } : {}),
      ...(spec.logsDir !== undefined ? { logsDir: displayPath(spec.logsDir, io.cwd) } : {}),
    };
    const skip = skipReason(trail, classifiers);
    if (skip !== undefined) return this.#report("skipped", { skipReason: skip });

    // Reports the trail's memory until the session (which owns the live memory) has started.
    let memory = initialMemory(spec, secrets);
    this.#memory = memory;
    const args = resolveTrailArgs(trail, this.#options.args);
    if (args.problems.length > 0) {
      return this.#failBeforeStart(args.problems.map((message) => ({ message, file: this.file, line: 0, col: 0 })));
    }

    const plan = planTrail(trail, classifiers);
    // Where the agent's recording will be saved is settled now, before a session or a model call is spent on it.
    try {
      this.#recordedFile = this.#recordingFile(plan, spec.root);
    } catch (error) {
      return this.#report("error", { error: messageOf(error), exitCode: exitCodeOf(error) });
    }
    const callLog = new CallLog(spec.logsDir, secrets, { trail: trail.id });
    let session: Session;
    try {
      session = await startSession(spec, { onCall: (record) => callLog.write(record), secrets });
    } catch (error) {
      await callLog.close();
      return this.#report("error", { error: messageOf(error), exitCode: exitCodeOf(error) });
    }
    memory = session.memory;
    this.#memory = memory;
    try {
      const problems = validatePlan(plan, session.registry, spec.agent);
      if (problems.length > 0) return this.#failBeforeStart(problems);
      this.#ran = true;
      return await this.#replay(plan, session, memory, args.values, callLog);
    } finally {
      await session.close();
      // After the session: calls made while it closed are in the file too.
      await callLog.close();
    }
  }

  async #replay(
    plan: TrailPlan,
    session: Session,
    memory: Memory,
    argValues: Record<string, unknown>,
    callLog: CallLog,
  ): Promise<TrailReport> {
    const { agent } = this.#options;
    const lookup = trailLookup(memory, argValues);
    const saved: { planned: PlannedStep; calls: RecordedAgentCall[] }[] = [];
    let outcome: { status: TrailStatus; error: string; exitCode?: 1 | 2 } | undefined;
    for (const planned of plan.steps) {
      if (outcome) {
        this.#steps.push({ ...this.#stepBase(planned), status: "skipped", durationMs: 0, tools: [] });
        continue;
      }
      callLog.at({ trail: this.trail.id, step: planned.index });
      const current = this.#beginStep(planned, session, memory);
      const ended = await this.#runStep(current, plan, session, memory, lookup);
      // A step the agent completed with no call (a condition that did not hold) keeps no recording: the next run asks again.
      if (ended.recording && ended.recording.length > 0) saved.push({ planned, calls: ended.recording });
      const failure = await this.#endStep(current, ended, session);
      if (failure) outcome = failedOutcome(planned, failure, ended);
    }
    // A server stopped after the last call answered (a budget spent by a timer during a final wait) still fails the trail.
    if (!outcome && session.fatal) outcome = { status: "error", error: `the session failed after its last call: ${session.fatal.message}` };
    if (outcome) return this.#report(outcome.status, outcome);
    const savedRecording = saved.length > 0 && agent?.saveRecording ? this.#saveRecordings(saved, plan, session) : undefined;
    // A trail passes when a step checked something for real; with none, it ran with nothing verified.
    const checked = this.#steps.some((step) => step.status === "passed" || step.status === "healed");
    return this.#report(checked ? "passed" : "unverified", savedRecording ? { savedRecording } : {});
  }

  /** A step begins: its clock, and the memory and simulated screen it begins with. */
  #beginStep(planned: PlannedStep, session: Session, memory: Memory): CurrentStep {
    const current: CurrentStep = { planned, tools: [], t0: performance.now(), memoryBefore: memory.snapshot() };
    const screen = session.screen;
    if (screen) current.screen = stepScreenOf(screen, this.#screens, memory.secrets);
    this.#current = current;
    return current;
  }

  /** A step in words goes to the agent (none chosen: it fails); a recorded one replays, and with `--self-heal` a failed replay goes to the agent. */
  async #runStep(current: CurrentStep, plan: TrailPlan, session: Session, memory: Memory, lookup: TrailLookup): Promise<StepEnd> {
    const { agent, signal } = this.#options;
    const { planned } = current;
    if (planned.calls === undefined || agent?.useRecordedSteps === false) {
      if (!agent) return { failure: { message: needsAgentMessage(planned, plan.classifiers, this.#options.noAgent) } };
      return this.#agentStep(current, session, memory, lookup, planned.calls === undefined ? "no-recording" : "words");
    }
    const replayed = await this.#replayCalls(current, planned.calls, session, lookup);
    if (!replayed.failure || replayed.broken || !agent?.selfHeal || signal.aborted) return replayed;
    return this.#agentStep(current, session, memory, lookup, "self-heal", replayed.failure);
  }

  /**
   * A step ends: the page it ended on (for a report that shows it), what it checked (unverified
   * unless a call checked something for real; with `--require-screen`, failed), its report, and the
   * reporters told. Returns its failure, when it failed.
   */
  async #endStep(current: CurrentStep, ended: StepEnd, session: Session): Promise<StepFailure | undefined> {
    if (this.#options.recordPages && current.screen === undefined) {
      const page = await session.pageSnapshot();
      if (page) current.screen = page;
    }
    this.#current = undefined;
    let failure = ended.failure;
    let unverified = failure ? undefined : uncheckedStep(current.tools);
    if (unverified !== undefined && this.#options.flags["require-screen"]) {
      failure = { message: `unverified: ${unverified}, and --require-screen makes that a failure` };
      unverified = undefined;
    }
    const status = failure ? "failed" : unverified !== undefined ? "unverified" : ended.healed ? "healed" : "passed";
    const step = this.#stepReport(current, status, failure);
    if (unverified !== undefined) step.unverified = unverified;
    this.#steps.push(step);
    void this.#options.observer.onStepEnd?.(this.#info, maskReport(step, this.#options.secrets));
    return failure;
  }

  /** Replays a step's recorded calls, up to the first that fails. */
  async #replayCalls(
    current: CurrentStep,
    calls: readonly RecordedCall[],
    session: Session,
    { lookup, knownKeys }: TrailLookup,
  ): Promise<StepEnd> {
    const { signal } = this.#options;
    for (const call of calls) {
      if (signal.aborted) return { failure: { message: `interrupted before ${call.tool}` }, broken: true };
      if (session.fatal) return { failure: { tool: call.tool, message: session.fatal.message }, broken: true };
      let args: Record<string, unknown>;
      try {
        args = interpolate(call.args, lookup, { knownKeys }) as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof InterpolationError)) throw error;
        return { failure: { tool: call.tool, args: call.args, message: error.message, line: call.where.line, col: call.where.col } };
      }
      const { result, evidence } = await this.#call(current, session, call.tool, args);
      const where = { line: call.where.line, col: call.where.col };
      if (isSuccess(result) && result.unverified !== undefined && this.#options.flags["require-screen"]) {
        return {
          failure: {
            tool: call.tool,
            args,
            variant: result.variant,
            message: `unverified: ${result.unverified}, and --require-screen makes that a failure (${result.message})`,
            ...where,
          },
        };
      }
      if (isSuccess(result)) continue;
      const broken = session.fatal !== undefined;
      const failure: StepFailure = { tool: call.tool, args, variant: result.variant, message: result.message, ...where };
      // What the server wrote while the call ran; a dead server's is in the failure's message already.
      const lines = broken ? [] : (evidence.output?.lines ?? []).filter((line) => line.trim() !== "").slice(-STDERR_LINES);
      if (lines.length > 0) failure.stderr = { source: evidence.output!.source, lines };
      return { failure, broken };
    }
    return {};
  }

  /** One call of a step (recorded or the agent's): dispatched, timed and added to the step's report, what it did on the screen with it. */
  async #call(
    current: CurrentStep,
    session: Session,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ result: ToolResult; evidence: CallEvidence }> {
    const startedAt = new Date();
    const t0 = performance.now();
    let called: { result: ToolResult; evidence: CallEvidence };
    try {
      called = await session.callWithEvidence(tool, args, { signal: this.#options.signal });
    } catch (error) {
      called = { result: exceptionThrown(messageOf(error)), evidence: {} };
    }
    const { result, evidence } = called;
    if (evidence.screen && current.screen?.kind === "capture") await noteActivity(current.screen, evidence.screen, result);
    current.tools.push({
      name: tool,
      args,
      result: resultToJson(result),
      startedAt: startedAt.toISOString(),
      durationMs: round(performance.now() - t0),
    });
    return called;
  }

  /**
   * The built-in agent does the step from the screen as it is: a step with no recording, every step
   * with `--no-use-recorded-steps`, or one whose recording failed with `--self-heal`.
   */
  async #agentStep(
    current: CurrentStep,
    session: Session,
    memory: Memory,
    { lookup, knownKeys }: TrailLookup,
    why: AgentStepReport["why"],
    recordingFailure?: StepFailure,
  ): Promise<StepEnd> {
    const agent = this.#options.agent!;
    const { model } = agent;
    if ("unusable" in model) return { failure: { message: model.unusable.message }, broken: true, exitCode: model.unusable.exitCode };
    const { step } = current.planned;
    const outcome = await runObjective({
      session,
      agent: model,
      objective: step.title,
      verify: step.kind === "verify",
      // What the model is told of the trail: its context, and the objectives already done (recorded or not).
      context: this.trail.context,
      earlier: this.#steps.filter((s) => s.status === "passed" || s.status === "healed" || s.status === "unverified").map((s) => s.title),
      maxCalls: agent.maxCalls,
      ...(this.#tokenBudget ? { tokenBudget: this.#tokenBudget } : {}),
      memory,
      secrets: this.#options.secrets,
      lookup,
      knownKeys,
      policy: callPolicy(session, recordedUrls(this.trail.steps, lookup)),
      signal: this.#options.signal,
      call: async (tool, args) => (await this.#call(current, session, tool, args)).result,
    });
    current.agent = {
      model: model.choice.label,
      why,
      ...(recordingFailure ? { recordingFailure } : {}),
      turns: outcome.turns,
      tokens: outcome.tokens,
      ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
    };
    if (outcome.status === "completed") return { recording: outcome.recording, healed: why === "self-heal" };
    const failure: StepFailure = {
      message: `${why === "self-heal" ? "self-heal failed" : "the agent"} (${model.choice.label}): ${outcome.message}`,
    };
    return { failure, ...(outcome.error ? { broken: true, exitCode: outcome.error.exitCode } : {}) };
  }

  /**
   * The trail file the agent's recordings will be saved in, when they may be (a model is chosen,
   * saving is on, and a step may go to it: one in words, --no-use-recorded-steps, --self-heal):
   * a file that leads out of the workspace through a symbolic link is refused here, before the
   * session starts, rather than once the model calls are spent.
   */
  #recordingFile(plan: TrailPlan, root: string): RecordedFile | undefined {
    const { agent, io } = this.#options;
    if (!agent?.saveRecording) return undefined;
    const mayAsk = agent.useRecordedSteps === false || agent.selfHeal || plan.steps.some((planned) => planned.calls === undefined);
    return mayAsk ? new RecordedFile("--save-recording", this.file, resolve(io.cwd, this.file), root, "run") : undefined;
  }

  /** Writes the agent's recordings into the trail file, under the device's slot; the report says what was saved. */
  #saveRecordings(
    saved: { planned: PlannedStep; calls: RecordedAgentCall[] }[],
    plan: TrailPlan,
    session: Session,
  ): TrailReport["savedRecording"] {
    const slot = plan.classifiers.deviceKey ?? plan.classifiers.platform.toLowerCase();
    const { io } = this.#options;
    const file =
      this.#recordedFile ?? new RecordedFile("--save-recording", this.file, resolve(io.cwd, this.file), session.spec.root, "run");
    let text = file.read();
    for (const { planned, calls } of saved) text = spliceRecording(text, this.file, planned.step, calls, slot);
    file.write(text);
    return { file: this.file, slot, steps: saved.map(({ planned }) => planned.index) };
  }

  #failBeforeStart(problems: TrailProblem[]): TrailReport {
    return this.#report("error", { error: problems.map((p) => p.message).join("\n"), problems });
  }

  #stepBase(planned: PlannedStep): Pick<StepReport, "index" | "kind" | "title" | "line" | "col"> {
    const { step } = planned;
    return { index: planned.index, kind: step.kind, title: step.title, line: step.where.line, col: step.where.col };
  }

  #stepReport(current: CurrentStep, status: StepReport["status"], failure: StepFailure | undefined): StepReport {
    const step: StepReport = {
      ...this.#stepBase(current.planned),
      status,
      durationMs: round(performance.now() - current.t0),
      tools: [...current.tools],
    };
    if (failure) step.failure = failure;
    const changes = current.memoryBefore && this.#memory ? memoryChanges(current.memoryBefore, this.#memory) : undefined;
    if (changes) step.memory = changes;
    if (current.screen) step.screen = current.screen;
    if (current.agent) step.agent = current.agent;
    return step;
  }

  #report(
    status: TrailStatus,
    extra: Partial<Pick<TrailReport, "error" | "exitCode" | "problems" | "skipReason" | "steps" | "savedRecording">>,
  ): TrailReport {
    const steps = extra.steps ?? [...this.#steps];
    const report: TrailReport = {
      file: this.file,
      id: this.trail.id,
      ...(this.trail.title !== undefined ? { title: this.trail.title } : {}),
      ...(this.trail.tags.length > 0 ? { tags: [...this.trail.tags] } : {}),
      status,
      startedAt: this.#startedAt.toISOString(),
      durationMs: round(performance.now() - this.#t0),
      ...(this.#session ? { session: this.#session } : {}),
      steps,
      unverified: steps.filter((s) => s.status === "unverified").length,
      ...(steps.some((s) => s.status === "healed") ? { healed: steps.filter((s) => s.status === "healed").length } : {}),
      ...(extra.savedRecording ? { savedRecording: extra.savedRecording } : {}),
      ran: this.#ran,
    };
    if (extra.error !== undefined) report.error = extra.error;
    if (extra.exitCode !== undefined) report.exitCode = extra.exitCode;
    if (extra.problems !== undefined) report.problems = extra.problems;
    if (extra.skipReason !== undefined) report.skipReason = extra.skipReason;
    if (this.#memory) report.memory = this.#memory.snapshot();
    // The one place a trail's report is masked: every value, message, title and screen in it, with
    // every value that was secret by the time the trail ended (a step reported earlier included).
    return maskReport(report, this.#options.secrets);
  }
}
