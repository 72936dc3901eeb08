// The built-in agent's flags, as upstream's `run` takes them: the model (--llm provider/model, or
// --llm-provider and --llm-model; `none` turns it off), replay or words (--use-recorded-steps,
// --no-use-recorded-steps), --self-heal, --max-llm-calls, --save-recording. The model comes from
// these, else TRAILBLAZE_DEFAULT_MODEL, else `llm: defaults.model`; with none, no step reaches a model.

import { ConfigError, LlmError, UsageError } from "../errors.ts";
import { formatProblem } from "../errors.ts";
import type { Secrets } from "../core/secrets.ts";
import { DEFAULT_MAX_LLM_CALLS } from "../agent/agent-loop.ts";
import { agentModel, type AgentModel } from "../llm/ask-model.ts";
import { loadLlmConfig } from "../llm/load-llm-config.ts";
import { chooseModel } from "../llm/model-choice.ts";
import type { TrailAgent } from "../run/run-trail.ts";

export const MODEL_FLAG_OPTIONS = {
  llm: { type: "string" },
  "llm-provider": { type: "string" },
  "llm-model": { type: "string" },
  "max-llm-calls": { type: "string" },
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
                        or defaults: max-llm-calls: in trailblaze.yaml)`;

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

function parseMaxCalls(command: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_LLM_CALLS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${command}: --max-llm-calls expects a positive whole number, got "${text}"`);
  return n;
}

/**
 * The model the flags and config choose, its key added to the run's secrets (masked in every
 * output); undefined when none is chosen. Config warnings (unknown keys) go to stderr.
 */
export function chosenModel(
  values: ModelFlagValues,
  root: string | undefined,
  io: AgentIO,
  secrets: Secrets,
): { model?: AgentModel; maxCalls: number } {
  const { config, warnings } = loadLlmConfig({ ...(root ? { root } : {}), ...(io.env.HOME ? { home: io.env.HOME } : {}), cwd: io.cwd });
  for (const warning of warnings) io.stderr(`warning: ${formatProblem(warning)}\n`);
  const maxCalls =
    values["max-llm-calls"] === undefined && config.maxCalls !== undefined
      ? config.maxCalls
      : parseMaxCalls(io.command, values["max-llm-calls"]);
  const choice = chooseModel(config, values, io.env);
  if (choice === undefined) return { maxCalls };
  if (choice.apiKey) secrets.add("llm api key", choice.apiKey);
  return { model: agentModel(choice, io.env), maxCalls };
}

/** `run`'s agent: undefined with no model, and an error for an agent flag that needs one. */
export function trailAgent(
  command: string,
  values: AgentFlagValues,
  root: string | undefined,
  io: Omit<AgentIO, "command">,
  secrets: Secrets,
): TrailAgent | undefined {
  if (values["use-recorded-steps"] && values["no-use-recorded-steps"])
    throw new UsageError(`${command}: --use-recorded-steps and --no-use-recorded-steps contradict each other; keep one`);
  if (values["save-recording"] && values["no-save-recording"])
    throw new UsageError(`${command}: --save-recording and --no-save-recording contradict each other; keep one`);
  parseMaxCalls(command, values["max-llm-calls"]);
  if (values["use-recorded-steps"]) {
    if (values["self-heal"])
      throw new UsageError(
        `${command}: --use-recorded-steps replays recordings only, so --self-heal has no agent to hand a step to; keep one`,
      );
    return undefined;
  }
  const wants = values["self-heal"] ? "--self-heal" : values["no-use-recorded-steps"] ? "--no-use-recorded-steps" : undefined;
  const explicit = wants !== undefined || [values.llm, values["llm-provider"], values["llm-model"]].some((value) => value !== undefined);
  let model: TrailAgent["model"] | undefined;
  let maxCalls = DEFAULT_MAX_LLM_CALLS;
  try {
    ({ model, maxCalls } = chosenModel(values, root, { ...io, command }, secrets));
  } catch (error) {
    if (!(error instanceof LlmError || error instanceof ConfigError)) throw error;
    const named = error instanceof LlmError ? new LlmError(`${command}: ${error.message}`, error.exitCode, { cause: error }) : error;
    // Asked for on the command line: it fails now. Chosen by config alone: only a step that needs it fails.
    if (explicit) throw named;
    model = { unusable: named };
  }
  if (model === undefined) {
    if (wants)
      throw new UsageError(
        `${command}: ${wants} needs a model for the agent: give --llm provider/model, or set llm: defaults.model in trails/config/trailblaze.yaml (see docs/agent.md)`,
      );
    return undefined;
  }
  return {
    model,
    ...(values["no-use-recorded-steps"] ? { useRecordedSteps: false } : {}),
    selfHeal: values["self-heal"] === true,
    maxCalls,
    saveRecording: values["no-save-recording"] !== true,
  };
}
