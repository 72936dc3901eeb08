// The `llm:` block as `check` sees it: read by the same code `run`, `step` and `verify` use
// (llm/load-llm-config.ts), its wrong types and values reported as errors at file:line:col and its
// unknown keys as warnings, and the model it chooses with the check's environment, so a step with no
// recording is described as `run` will treat it: given to that model, or failing for want of one.

import type { ConfigProblem } from "../errors.ts";
import { LlmError } from "../errors.ts";
import { readLlmConfig } from "../llm/load-llm-config.ts";
import { chooseModel, noModelReason } from "../llm/model-choice.ts";

/** What `run` would do with a step that goes to the built-in agent. */
export type AgentForCheck =
  /** A model is chosen: `run` gives such a step to it. */
  | { model: { label: string; origin: string } }
  /** None is (or the chosen one cannot be used): the step fails, for this reason. */
  | { none: string };

export interface CheckedLlm {
  problems: ConfigProblem[];
  warnings: ConfigProblem[];
  agent: AgentForCheck;
}

/** Reads the workspace's (and the user's) llm: config as a run would, without flags. */
export function checkLlm(root: string, cwd: string, env: Readonly<Record<string, string | undefined>>): CheckedLlm {
  const { config, problems, warnings } = readLlmConfig({ root, cwd, ...(env.HOME ? { home: env.HOME } : {}) });
  if (problems.length > 0)
    return {
      problems,
      warnings,
      agent: { none: "the built-in agent's model cannot be used: its llm: configuration has problems (above)" },
    };
  try {
    const choice = chooseModel(config, {}, env);
    if (choice === undefined) return { problems, warnings, agent: { none: noModelReason(config, {}, env) } };
    return { problems, warnings, agent: { model: { label: choice.label, origin: choice.origin } } };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    return { problems, warnings, agent: { none: `the built-in agent's model cannot be used: ${error.message}` } };
  }
}
