// The built-in agent's flags, as upstream's `run` takes them: the model (--llm provider/model, or
// --llm-provider and --llm-model; `none` turns it off), replay or words (--use-recorded-steps,
// --no-use-recorded-steps), --self-heal, --max-llm-calls, --save-recording; and the caps on the
// model, --llm-timeout (each request) and --max-llm-tokens (each trail). The model comes from these,
// else TRAILBLAZE_DEFAULT_MODEL, else `llm: defaults.model`; with none, no step reaches a model.

import { ConfigError, LlmError, UsageError } from "../errors.ts";
import { formatProblem } from "../errors.ts";
import type { Secrets } from "../core/secrets.ts";
import { DEFAULT_MAX_LLM_CALLS } from "../agent/agent-loop.ts";
import { agentModel, DEFAULT_LLM_TIMEOUT, DEFAULT_LLM_TIMEOUT_SECONDS, type AgentModel } from "../llm/ask-model.ts";
import type { Cap } from "../llm/llm-config.ts";
import { readLlmConfig } from "../llm/load-llm-config.ts";
import { chooseModel, noModelReason } from "../llm/model-choice.ts";
import type { TrailAgent } from "../run/run-trail.ts";

export const MODEL_FLAG_OPTIONS = {
  llm: { type: "string" },
  "llm-provider": { type: "string" },
  "llm-model": { type: "string" },
  "max-llm-calls": { type: "string" },
  "llm-timeout": { type: "string" },
  "max-llm-tokens": { type: "string" },
} as const;

export const AGENT_FLAG_OPTIONS = {
  ...MODEL_FLAG_OPTIONS,
  "use-recorded-steps": { type: "boolean" },
  "no-use-recorded-steps": { type: "boolean" },
  "self-heal": { type: "boolean" },
  "save-recording": { type: "boolean" },
  "no-save-recording": { type: "boolean" },
} as const;

export const MODEL_FLAGS_HELP = `  --llm PROVIDER/MODEL  the built-in agent's model (e.g. openai/gpt-4.1; none: no model); default
                        $TRAILBLAZE_DEFAULT_MODEL, else llm: defaults.model in trailblaze.yaml
  --llm-provider NAME, --llm-model ID
                        the same in two flags
  --max-llm-calls N     model calls per step before the agent gives up (default ${DEFAULT_MAX_LLM_CALLS},
                        or defaults: max-llm-calls: in trailblaze.yaml)
  --llm-timeout SECONDS each model request's deadline, its retries included (default
                        ${DEFAULT_LLM_TIMEOUT_SECONDS}, or llm: defaults: timeout_seconds); past it the step fails
  --max-llm-tokens N    tokens (input and output) the model may spend on one trail (step, verify:
                        on the objective); default no cap, or llm: defaults: max_tokens_per_trail;
                        checked after every answer, past it the step fails`;

export const AGENT_FLAGS_HELP = `Agent (steps in words; no model is used unless one is chosen, see docs/agent.md):
${MODEL_FLAGS_HELP}
  --use-recorded-steps  replay recordings only: a step without one fails (no model)
  --no-use-recorded-steps
                        the agent does every step from its words, ignoring recordings
                        (default: a recorded step replays, a step without one goes to the agent)
  --self-heal           a recorded step that fails is handed to the agent on the screen as it is;
                        the step is reported healed and its recording rewritten
  --no-save-recording   do not write the agent's calls into the trail file (default: a passing
                        trail saves each step the agent did, under the device's recording slot)`;

interface ModelFlagValues {
  llm?: string | undefined;
  "llm-provider"?: string | undefined;
  "llm-model"?: string | undefined;
  "max-llm-calls"?: string | undefined;
  "llm-timeout"?: string | undefined;
  "max-llm-tokens"?: string | undefined;
}

interface AgentFlagValues extends ModelFlagValues {
  "use-recorded-steps"?: boolean | undefined;
  "no-use-recorded-steps"?: boolean | undefined;
  "self-heal"?: boolean | undefined;
  "save-recording"?: boolean | undefined;
  "no-save-recording"?: boolean | undefined;
}

interface AgentIO {
  /** The command, for messages. */
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  stderr(text: string): void;
}

function parseMaxCalls(command: string, text: string | undefined): Cap | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${command}: --max-llm-calls expects a positive whole number, got "${text}"`);
  return { value: n, from: `--max-llm-calls ${n}` };
}

/** `--llm-timeout`: a positive number of seconds (`0.5` and `120` alike); undefined when not given. */
function parseTimeout(command: string, text: string | undefined): Cap | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${command}: --llm-timeout expects a positive number of seconds (e.g. 120), got "${text}"`);
  return { value: n, from: `--llm-timeout ${n}` };
}

/** `--max-llm-tokens`: a positive whole number; undefined when not given. */
function parseMaxTokens(command: string, text: string | undefined): Cap | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${command}: --max-llm-tokens expects a positive whole number of tokens (e.g. 200000), got "${text}"`);
  return { value: n, from: `--max-llm-tokens ${n}` };
}

/** The calls cap when neither a flag nor the config sets one. */
const DEFAULT_MAX_CALLS: Cap = { value: DEFAULT_MAX_LLM_CALLS, from: "the default cap; raise it with --max-llm-calls" };

/** The caps the flags and config put on the model, each naming where it was set. */
interface ModelCaps {
  /** Model calls per objective. */
  maxCalls: Cap;
  /** Tokens per trail; undefined: no cap. */
  maxTokens?: Cap;
}

/**
 * The model the flags and config choose, its key added to the run's secrets (masked in every
 * output); without one, why (`noModel`: what turned it off, or how to choose one). Config warnings
 * (unknown keys) go to stderr; its problems (wrong types and values) are a ConfigError.
 */
export function chosenModel(
  values: ModelFlagValues,
  root: string | undefined,
  io: AgentIO,
  secrets: Secrets,
): ({ model: AgentModel } | { noModel: string }) & ModelCaps {
  const { config, problems, warnings } = readLlmConfig({
    ...(root ? { root } : {}),
    ...(io.env.HOME ? { home: io.env.HOME } : {}),
    cwd: io.cwd,
  });
  for (const warning of warnings) io.stderr(`warning: ${formatProblem(warning)}\n`);
  if (problems.length > 0) throw new ConfigError(problems);
  const maxCalls = parseMaxCalls(io.command, values["max-llm-calls"]) ?? config.maxCalls ?? DEFAULT_MAX_CALLS;
  const maxTokens = parseMaxTokens(io.command, values["max-llm-tokens"]) ?? config.maxTokens;
  const timeout = parseTimeout(io.command, values["llm-timeout"]) ?? config.timeoutSeconds ?? DEFAULT_LLM_TIMEOUT;
  const caps = { maxCalls, ...(maxTokens !== undefined ? { maxTokens } : {}) };
  const choice = chooseModel(config, values, io.env);
  if (choice === undefined) return { noModel: noModelReason(config, values, io.env), ...caps };
  if (choice.apiKey) secrets.add("llm api key", choice.apiKey);
  return { model: agentModel(choice, io.env, timeout, (text) => secrets.mask(text)), ...caps };
}

/** `run`'s agent, or why there is none (a step in words then fails, saying so); an error for an agent flag that needs one. */
export function trailAgent(
  command: string,
  values: AgentFlagValues,
  root: string | undefined,
  io: Omit<AgentIO, "command">,
  secrets: Secrets,
): { agent: TrailAgent } | { noAgent: string } {
  if (values["use-recorded-steps"] && values["no-use-recorded-steps"])
    throw new UsageError(`${command}: --use-recorded-steps and --no-use-recorded-steps contradict each other; keep one`);
  if (values["save-recording"] && values["no-save-recording"])
    throw new UsageError(`${command}: --save-recording and --no-save-recording contradict each other; keep one`);
  parseMaxCalls(command, values["max-llm-calls"]);
  parseTimeout(command, values["llm-timeout"]);
  parseMaxTokens(command, values["max-llm-tokens"]);
  if (values["use-recorded-steps"]) {
    if (values["self-heal"])
      throw new UsageError(
        `${command}: --use-recorded-steps replays recordings only, so --self-heal has no agent to hand a step to; keep one`,
      );
    return { noAgent: "--use-recorded-steps replays recordings only (no model): run without it to give such a step to the built-in agent" };
  }
  const wants = values["self-heal"] ? "--self-heal" : values["no-use-recorded-steps"] ? "--no-use-recorded-steps" : undefined;
  const explicit = wants !== undefined || [values.llm, values["llm-provider"], values["llm-model"]].some((value) => value !== undefined);
  let model: TrailAgent["model"];
  let caps: ModelCaps = { maxCalls: DEFAULT_MAX_CALLS };
  try {
    const chosen = chosenModel(values, root, { ...io, command }, secrets);
    if ("noModel" in chosen) {
      if (wants) throw new UsageError(`${command}: ${wants} needs a model for the agent, and ${chosen.noModel}`);
      return { noAgent: chosen.noModel };
    }
    ({ model, ...caps } = chosen);
  } catch (error) {
    if (!(error instanceof LlmError || error instanceof ConfigError)) throw error;
    const named = error instanceof LlmError ? new LlmError(`${command}: ${error.message}`, error.exitCode, { cause: error }) : error;
    // Asked for on the command line: it fails now. Chosen by config alone: only a step that needs it fails.
    if (explicit) throw named;
    if (error instanceof ConfigError) {
      // As unknown keys are: a run that replays recordings goes on, told what is wrong.
      for (const problem of error.problems) io.stderr(`warning: ${formatProblem(problem)}\n`);
      io.stderr("note: the built-in agent cannot use its model until llm: is fixed: a step that goes to it fails\n");
    }
    model = { unusable: named };
  }
  return {
    agent: {
      model,
      ...(values["no-use-recorded-steps"] ? { useRecordedSteps: false } : {}),
      selfHeal: values["self-heal"] === true,
      ...caps,
      saveRecording: values["no-save-recording"] !== true,
    },
  };
}
