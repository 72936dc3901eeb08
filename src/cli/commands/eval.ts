// `trailblaze eval`: which model drives the app, at what cost. Every step of every trail goes to
// the built-in agent (recordings ignored, nothing saved), N runs per trail per model, each run a
// trail run as `run` makes it (the same per-trail runner and agent loop, its own session, on
// whatever the session simulates), and the runs are summed up per model and trail (list, json,
// html). Exit 0 whenever the eval ran; 1 with --min-pass-rate when a model is below it (named);
// 2 for usage and configuration, and for a model that could not be used at all.

import { ConfigError, LlmError, UsageError } from "../../errors.ts";
import type { Workspace } from "../../config/workspace.ts";
import { Secrets } from "../../core/secrets.ts";
import { checkSessionId, isSessionId } from "../../core/log-layout.ts";
import { checkSessionFlags } from "../../session/session-spec.ts";
import { runClassifiers, trailsToRun } from "../../trail/discover.ts";
import { readTrailFiles } from "../../trail/trail-file.ts";
import type { Trail } from "../../trail/trail-types.ts";
import { DEFAULT_MAX_LLM_CALLS } from "../../agent/agent-loop.ts";
import { maskReport } from "../../run/mask-report.ts";
import type { Reporter, TrailInfo } from "../../run/reporter.ts";
import { SuiteRun, type SuiteEntry } from "../../run/run-suite.ts";
import type { StartTrailSession, TrailAgent } from "../../run/run-trail.ts";
import { runExitCode, summarize, type RunReport, type TrailReport } from "../../run/run-types.ts";
import { evalResult, type EvalPlan } from "../../run/eval/aggregate.ts";
import { EvalReporters } from "../../run/eval/eval-reporter.ts";
import { EVAL_REPORTERS } from "../../run/eval/eval-reporters.ts";
import type { EvalReport, EvalResult, EvalRun } from "../../run/eval/eval-types.ts";
import { percent } from "../../run/eval/eval-list.ts";
import { parseCommandArgs } from "../args.ts";
import type { CliIO, Command } from "../command.ts";
import { chosenModel } from "../agent-flags.ts";
import { maskedIo } from "../masked-io.ts";
import { configAbovePaths, loadCliWorkspace, startSession } from "../open-session.ts";
import { parseSecrets, SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { parseReporterFlags, reportDestination, wantsPages } from "./report-output.ts";
import { givenArgs, onceStderr, parseWorkers, runUntilInterrupted } from "./run.ts";
import { parseTags, withTags } from "./run-flags.ts";

const DEFAULT_REPEAT = 3;

const HELP = `Usage: trailblaze eval <trail-file|dir>... --llm PROVIDER/MODEL[,PROVIDER/MODEL…] [options] [session flags]

Measures models on your trails: every step of every trail goes to the built-in agent (recordings
ignored, as run --no-use-recorded-steps; nothing is saved, the trail files are left as they are),
--repeat runs of each trail per model, each run in its own session on whatever the session
simulates (--map/--start, --capture, a target's simulation:, or a real page). Then, per model and
per trail: runs passed, pass rate, a run's model calls, tokens and cost (means; cost when the model
lists its prices), its time (median), and the steps that failed most with their last error.

Example: trailblaze eval trails/calendar --llm openai/gpt-4.1,anthropic/claude-sonnet-4 --repeat 5 \\
           --map trails/config/trailmaps/calendar --start calendar/android/day_view

Options:
  --llm P/M[,P/M…]      the models to compare (comma-separated and/or repeated), each with its
                        provider and key as run reads them (llm: in trailblaze.yaml, or a built-in
                        provider and its key variable); default: the one model run would use
  --repeat N            runs of each trail per model (default ${DEFAULT_REPEAT})
  --min-pass-rate R     a gate: exit 1 when a model passes fewer than R of its runs (0 to 1, or a
                        percentage: 0.9, 90%), naming each model below it
  --reporter R[,R…]     the reporters (comma-separated and/or repeated; default list), each one of
                        ${EVAL_REPORTERS.map((r) => `${r.name}: ${r.summary}`).join("\n                        ")}
                        R=PATH names that reporter's output (json=eval.json, html=DIR)
  --output FILE|DIR     the output of the one reporter chosen (with several: of the one besides
                        list without its own =PATH); json without an output prints the document
                        alone on stdout; at most one reporter prints on stdout
  --workers N           run up to N runs at once, each in its own session (default 1)
  --max-llm-calls N     model calls per step before the agent gives up (default ${DEFAULT_MAX_LLM_CALLS},
                        or defaults: max-llm-calls: in trailblaze.yaml)
  --llm-timeout SECONDS each model request's deadline, its retries included (default 120, or
                        llm: defaults: timeout_seconds)
  --max-llm-tokens N    tokens (input and output) a model may spend on one run of a trail
  --secret KEY=VALUE    memory value usable as {{KEY}}, masked everywhere (repeatable; KEY alone
                        reads the environment variable KEY)
  --arg NAME=VALUE      a trail parameter declared in config.args (repeatable)
  --args-file FILE      arg values from a YAML or JSON map, applied before --arg
  --tags T1,T2          only trails whose config.tags hold any of these (repeatable)
  -h, --help            show this help

Exit codes: 0 the eval ran (a model's failed runs are results, not errors) · 1 a model below
--min-pass-rate (each named on stderr), or a reporter failed · 2 usage or configuration: a bad
flag, a file that does not parse, an unknown target, a model with no key, or a model that could
not be used in any run (a key refused, an unknown model). SIGINT/SIGTERM stop every session,
write the partial reports and exit 130/143.

${SESSION_FLAGS_HELP}`;

/** `--repeat`: a whole number from 1 to 1000. */
function parseRepeat(text: string | undefined): number {
  if (text === undefined) return DEFAULT_REPEAT;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new UsageError(`eval: --repeat expects a whole number of runs from 1 to 1000, got "${text}"`);
  return n;
}

/** `--min-pass-rate`: a share from 0 to 1 (`0.9`), or a percentage (`90%`). */
export function parseMinPassRate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const pct = trimmed.endsWith("%");
  const n = Number(pct ? trimmed.slice(0, -1) : trimmed);
  const rate = pct ? n / 100 : n;
  if (trimmed === "" || trimmed === "%" || !Number.isFinite(n) || rate < 0 || rate > 1)
    throw new UsageError(`eval: --min-pass-rate expects a share of runs from 0 to 1, or a percentage (0.9, 90%), got "${text}"`);
  return rate;
}

interface EvalModelChoice {
  label: string;
  agent: TrailAgent;
  priced: boolean;
}

/** Each model `--llm` names (default: the one `run` would use), with its key added to the secrets; a model that cannot be used stops the eval (exit 2). */
function evalModels(
  values: {
    llm?: string[] | undefined;
    "max-llm-calls"?: string | undefined;
    "llm-timeout"?: string | undefined;
    "max-llm-tokens"?: string | undefined;
  },
  root: string,
  io: CliIO,
  secrets: Secrets,
): EvalModelChoice[] {
  const named = (values.llm ?? [])
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  if (values.llm !== undefined && named.length === 0)
    throw new UsageError("eval: --llm expects provider/model, e.g. --llm openai/gpt-4.1,anthropic/claude-sonnet-4");
  if (named.includes("none")) throw new UsageError("eval: --llm none leaves nothing to measure: name the models to compare");
  const caps = {
    "max-llm-calls": values["max-llm-calls"],
    "llm-timeout": values["llm-timeout"],
    "max-llm-tokens": values["max-llm-tokens"],
  };
  const chosen: EvalModelChoice[] = [];
  for (const llm of named.length > 0 ? named : [undefined]) {
    let picked: ReturnType<typeof chosenModel>;
    try {
      picked = chosenModel({ ...caps, ...(llm !== undefined ? { llm } : {}) }, root, { ...io, command: "eval" }, secrets);
    } catch (error) {
      if (error instanceof LlmError) throw new LlmError(`eval: ${error.message}`, error.exitCode, { cause: error });
      throw error;
    }
    // No --llm: the workspace's model, unless it is turned off or none is set; say which, as run does.
    if ("noModel" in picked)
      throw new UsageError(`eval: name the models to compare with --llm provider/model[,provider/model…]; ${picked.noModel}`);
    const { model, maxCalls, maxTokens } = picked;
    const label = model.choice.label;
    if (chosen.some((c) => c.label === label)) throw new UsageError(`eval: --llm names ${label} twice; name each model once`);
    const cost = model.choice.model.cost;
    chosen.push({
      label,
      priced: cost?.inputPerMillion !== undefined || cost?.outputPerMillion !== undefined,
      agent: {
        model,
        useRecordedSteps: false,
        selfHeal: false,
        maxCalls,
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        saveRecording: false,
      },
    });
  }
  return chosen;
}

/** A run of the eval: which model, which trail (as its file names it), which repetition. */
interface PlannedRun {
  model: string;
  file: string;
  trail: Trail;
  rep: number;
}

/** The label a run's trail carries in its session and reports: `<id> [<model> #<rep>]`. */
const runLabel = (trail: Trail, model: string, rep: number) => `${trail.id} [${model} #${rep}]`;

/**
 * Repetition by repetition, trail by trail, model by model: each model's runs spread over the
 * eval's time (a provider that slows or rate-limits for a while weighs on every model alike).
 */
function planRuns(trails: readonly { file: string; trail: Trail }[], models: readonly EvalModelChoice[], repeat: number) {
  const entries: SuiteEntry[] = [];
  const planned: PlannedRun[] = [];
  for (let rep = 1; rep <= repeat; rep++) {
    for (const { file, trail } of trails) {
      for (const model of models) {
        entries.push({ file, trail: { ...trail, id: runLabel(trail, model.label, rep) }, agent: model.agent });
        planned.push({ model: model.label, file, trail, rep });
      }
    }
  }
  return { entries, planned };
}

const evalRunOf = (planned: PlannedRun, report: TrailReport): EvalRun => ({
  model: planned.model,
  file: planned.file,
  id: planned.trail.id,
  ...(planned.trail.title !== undefined ? { title: planned.trail.title } : {}),
  rep: planned.rep,
  report,
});

export const evalCommand: Command = {
  name: "eval",
  help: HELP,
  async run(argv, rawIo) {
    const { values, positionals } = parseCommandArgs("eval", argv, {
      ...SESSION_FLAG_OPTIONS,
      llm: { type: "string", multiple: true },
      repeat: { type: "string" },
      "min-pass-rate": { type: "string" },
      reporter: { type: "string", multiple: true },
      output: { type: "string" },
      workers: { type: "string" },
      "max-llm-calls": { type: "string" },
      "llm-timeout": { type: "string" },
      "max-llm-tokens": { type: "string" },
      secret: { type: "string", multiple: true },
      arg: { type: "string", multiple: true },
      "args-file": { type: "string" },
      tags: { type: "string", multiple: true },
    });
    if (positionals.length === 0)
      throw new UsageError(
        "eval: name at least one trail file or folder, e.g. `trailblaze eval trails/ --llm openai/gpt-4.1,anthropic/claude-sonnet-4`",
      );
    const choices = parseReporterFlags("eval", values.reporter, values.output, EVAL_REPORTERS, false);
    const workers = parseWorkers(values.workers, "eval");
    const repeat = parseRepeat(values.repeat);
    const minPassRate = parseMinPassRate(values["min-pass-rate"]);
    const secrets = new Secrets(Object.fromEntries(parseSecrets("eval", values.secret, rawIo.env)), {
      warn: (message) => rawIo.stderr(`warning: ${message}\n`),
    });
    const args = givenArgs(values, rawIo.cwd, secrets).values;
    const tags = parseTags(values.tags);
    checkSessionFlags(values, rawIo.env);
    if (values["session-id"] !== undefined) checkSessionId(values["session-id"]);
    const io = onceStderr(maskedIo(rawIo, secrets));

    // The reporters, before anything starts; at most one prints on stdout, and the list is added when none does.
    let noticeOnStderr = false;
    const context = {
      stdout: io.stdout,
      notice: (text: string) => (noticeOnStderr ? io.stderr : io.stdout)(text),
      color: io.isTTY && !io.env.NO_COLOR,
    };
    const named = choices.map((choice) => {
      const destination = reportDestination(choice.builtin!.folder, choice.output, io.cwd);
      return { name: choice.name, reporter: choice.builtin!.create({ ...context, ...(destination ? { destination } : {}) }) };
    });
    const printers = new EvalReporters(named, io.stderr).stdioReporters();
    if (printers.length > 1)
      throw new UsageError(
        `eval: --reporter ${choices.map((c) => c.name).join(",")}: ${printers.join(" and ")} would each print on stdout; give json a file, e.g. --reporter list,json=eval.json`,
      );
    noticeOnStderr = printers.length === 1 && printers[0] !== "list";
    const list = EVAL_REPORTERS.find((r) => r.name === "list")!;
    const reporters = new EvalReporters(
      printers.length === 0 ? [{ name: "list", reporter: list.create(context) }, ...named] : named,
      io.stderr,
    );

    const above = await configAbovePaths(values, positionals, io);
    if (above) values.config = above;
    const expanded = await trailsToRun(positionals, io.cwd, runClassifiers({ devices: undefined, driver: values.driver }));
    for (const warning of expanded.warnings) io.stderr(`warning: ${warning}\n`);
    const { trails, problems } = await readTrailFiles(expanded.files, io.cwd);
    if (problems.length > 0) throw new ConfigError(problems);
    const all = trails.map((trail) => ({ file: trail.file, trail }));
    const chosen = tags ? withTags(all, tags) : all;
    if (tags && chosen.length < all.length)
      io.stderr(
        `note: --tags ${tags.join(",")}: ${all.length - chosen.length} of ${all.length} trail(s) carry none of these tags and are left out\n`,
      );
    if (chosen.length === 0) throw new UsageError(`eval: ${positionals.join(" ")}: no trail to run`);
    const workspace: Workspace = await loadCliWorkspace(values, io);
    const models = evalModels(values, workspace.root, io, secrets);
    const { entries, planned } = planRuns(chosen, models, repeat);
    const id = values["session-id"];
    if (id !== undefined && entries.length > 1 && !isSessionId(`${id}-${entries.length}`))
      throw new UsageError(
        `eval: --session-id ${id} names ${entries.length} sessions here, ${id}-1 to ${id}-${entries.length}, and those are over 128 characters: give a shorter id`,
      );
    const plan: EvalPlan = {
      models: models.map((m) => ({ model: m.label, priced: m.priced })),
      trails: chosen.map(({ file, trail }) => ({ file, id: trail.id, ...(trail.title !== undefined ? { title: trail.title } : {}) })),
      repeat,
      ...(minPassRate !== undefined ? { minPassRate } : {}),
    };

    reporters.onBegin({ models: plan.models.map((m) => m.model), trails: chosen.length, repeat, workers });
    // Each run as it ends, by its place in the plan (two trails may share an id): to the reporters
    // (the list's live lines) and into the eval. A run an interrupt cuts short never ends here, so it
    // is counted against no model. The runs' own step events are the run's, not the eval's.
    const ended: (EvalRun | undefined)[] = planned.map(() => undefined);
    const observer: Reporter = {
      onTrailEnd: (info: TrailInfo, report: TrailReport) => {
        const of = planned[info.index];
        if (!of) return;
        ended[info.index] = evalRunOf(of, report);
        reporters.onRunEnd(ended[info.index]!);
      },
    };
    const startTrailSession: StartTrailSession = (spec, options) => startSession(spec, io, options);
    const suite = new SuiteRun(entries, {
      io,
      startSession: startTrailSession,
      workspace,
      flags: values,
      secrets,
      args,
      workers,
      ...(wantsPages(choices) ? { recordPages: true } : {}),
      observer,
      ...(id !== undefined ? { sessionId: id } : {}),
    });
    // Screens and runs were masked as they were recorded; a value that became secret later is masked here.
    const end = async (run: RunReport): Promise<{ result: EvalResult; runs: EvalRun[] }> => {
      const runs = ended.flatMap((one) => (one ? [{ ...one, report: maskReport(one.report, secrets) }] : []));
      const screens = maskReport(run.screens ?? {}, secrets);
      const result = evalResult(runs, plan, screens, run.summary.durationMs, run.interrupted);
      await reporters.onEnd(result);
      return { result, runs };
    };
    const run = await runUntilInterrupted(suite, end);
    if (run === undefined) return 130;
    const { result, runs } = await end(run);
    return evalExitCode(runs, result.report, io, reporters.failed);
  },
};

/**
 * 2 when a model could not be used in any of its runs (its key refused, an unknown model), or when
 * no run got to start (the trails' configuration); then 1 for each model below --min-pass-rate
 * (named); 1 when a reporter failed; else 0: a model's failed runs are the eval's results.
 */
function evalExitCode(runs: readonly EvalRun[], report: EvalReport, io: CliIO, reportersFailed: boolean): number {
  for (const model of report.models) {
    const own = runs.filter((run) => run.model === model.model && run.report.status !== "skipped");
    if (own.length > 0 && own.every((run) => run.report.exitCode === 2)) {
      io.stderr(`error: eval: ${model.model} could not be used in any run: ${own.at(-1)!.report.error ?? "error"}\n`);
      return 2;
    }
  }
  if (!runs.some((run) => run.report.ran)) {
    // No run got to a step: the trails' own configuration (or a server's start) decides, as in run.
    const trails = runs.map((run) => run.report);
    const code = runExitCode({ trails, summary: summarize(trails, 0) });
    if (code !== 0) return code;
  }
  const below = report.models.filter((model) => model.belowMinPassRate);
  for (const model of below)
    io.stderr(
      `error: eval: ${model.model} passed ${model.passed} of ${model.runs} run${model.runs === 1 ? "" : "s"} (${percent(model.passRate)}), below --min-pass-rate ${report.minPassRate}\n`,
    );
  if (below.length > 0) return 1;
  return reportersFailed ? 1 : 0;
}
