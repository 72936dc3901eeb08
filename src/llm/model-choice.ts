// Which model a session's agent uses, if any: `--llm provider/model` (or `--llm-provider` and
// `--llm-model`), else `TRAILBLAZE_DEFAULT_MODEL`, else `llm: defaults.model`. No choice means no
// model: a key in the environment alone never makes a run spend money. The provider's key is read
// from its variable here, once, and is added to the run's secrets by the caller.

import { LlmError } from "../errors.ts";
import type { LlmConfig, ModelConfig, ProviderConfig, ProviderType } from "./llm-config.ts";

/** Upstream's standard key variables, by provider type. */
const KEY_VARIABLES: Readonly<Record<ProviderType, string | undefined>> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
  ollama: undefined,
  openai_compatible: undefined,
};

interface LlmFlags {
  llm?: string;
  "llm-provider"?: string;
  "llm-model"?: string;
}

export interface ModelChoice {
  provider: ProviderConfig;
  model: ModelConfig;
  /** `provider/model`, as reports and messages name it. */
  label: string;
  /** The provider's key, when it needs one. */
  apiKey?: string;
  /** Where the choice came from (a flag, the variable, or file:line:col of defaults.model). */
  origin: string;
}

const NONE = "none";

function builtInProvider(name: string): ProviderConfig | undefined {
  if (!(name in KEY_VARIABLES) || name === "openai_compatible") return undefined;
  const type = name as ProviderType;
  return {
    name,
    type,
    enabled: true,
    headers: {},
    keyRequired: type !== "ollama",
    models: [],
    where: { file: "built-in", line: 0, col: 0 },
  };
}

function split(value: string): { provider?: string; model: string } {
  const slash = value.indexOf("/");
  return slash > 0 ? { provider: value.slice(0, slash), model: value.slice(slash + 1) } : { model: value };
}

/** What the flags, environment and config ask for: a model, or what turned it off (undefined: nothing asks). */
type Wanted = { provider?: string; model?: string; origin: string } | { off: string; instead: string };

function wantedModel(config: LlmConfig, flags: LlmFlags, env: Readonly<Record<string, string | undefined>>): Wanted | undefined {
  const { llm, "llm-provider": providerFlag, "llm-model": modelFlag } = flags;
  if (llm !== undefined && (providerFlag !== undefined || modelFlag !== undefined)) {
    throw new LlmError("--llm is provider/model in one flag: give it, or --llm-provider and --llm-model, not both", 2);
  }
  const offFlag = (["llm", "llm-provider", "llm-model"] as const).find((flag) => flags[flag] === NONE);
  if (offFlag !== undefined) return { off: `--${offFlag} none`, instead: "give --llm provider/model instead" };
  if (llm !== undefined) return { ...split(llm), origin: "--llm" };
  if (providerFlag !== undefined || modelFlag !== undefined) {
    return {
      ...(providerFlag !== undefined ? { provider: providerFlag } : {}),
      ...(modelFlag !== undefined ? { model: modelFlag } : {}),
      origin: "--llm-provider/--llm-model",
    };
  }
  if (env.TRAILBLAZE_DEFAULT_MODEL) {
    if (env.TRAILBLAZE_DEFAULT_MODEL === NONE)
      return { off: "TRAILBLAZE_DEFAULT_MODEL=none", instead: "give --llm provider/model, or unset TRAILBLAZE_DEFAULT_MODEL" };
    return { ...split(env.TRAILBLAZE_DEFAULT_MODEL), origin: "$TRAILBLAZE_DEFAULT_MODEL" };
  }
  if (config.defaultModel) {
    const { value, where, key } = config.defaultModel;
    const at = `${where.file}:${where.line}:${where.col}`;
    if (value === NONE) return { off: `${key}: none at ${at}`, instead: "give --llm provider/model, or name a model there" };
    return { ...split(value), origin: `${at} defaults.model` };
  }
  return undefined;
}

/**
 * Why the flags, environment and config choose no model, as a message about a step that needs one
 * says it: what turned the model off, or how to choose one.
 */
export function noModelReason(config: LlmConfig, flags: LlmFlags, env: Readonly<Record<string, string | undefined>>): string {
  const wanted = wantedModel(config, flags, env);
  if (wanted !== undefined && "off" in wanted)
    return `${wanted.off} turns the built-in agent's model off: ${wanted.instead} (docs/agent.md)`;
  return `no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in ${configFile(config)} (docs/agent.md)`;
}

/** The workspace's trailblaze.yaml as messages name it. */
const configFile = (config: LlmConfig) => config.file ?? "trails/config/trailblaze.yaml";

/**
 * The model the flags, environment and config choose; undefined when none is chosen (or `none`).
 * Throws LlmError (exit 2) for a choice that cannot work: an unknown or disabled provider, a model
 * no provider lists when no provider is named, or a missing key.
 */
export function chooseModel(
  config: LlmConfig,
  flags: LlmFlags,
  env: Readonly<Record<string, string | undefined>>,
): ModelChoice | undefined {
  const wanted = wantedModel(config, flags, env);
  if (wanted === undefined || "off" in wanted) return undefined;

  const configured = [...config.providers.values()].filter((p) => p.enabled);
  let provider: ProviderConfig | undefined;
  if (wanted.provider !== undefined) {
    provider = config.providers.get(wanted.provider) ?? builtInProvider(wanted.provider);
    if (provider === undefined) {
      const known = [...new Set([...config.providers.keys(), "openai", "anthropic", "google", "ollama", "openrouter"])];
      throw new LlmError(
        `${wanted.origin}: no provider "${wanted.provider}": configure it under llm: providers: in ${configFile(config)}, or use one of ${known.join(", ")}`,
        2,
      );
    }
    if (!provider.enabled)
      throw new LlmError(
        `${wanted.origin}: provider "${provider.name}" is disabled (enabled: false at ${provider.where.file}:${provider.where.line})`,
        2,
      );
  } else {
    const listing = configured.filter((p) => p.models.some((m) => m.id === wanted.model));
    provider = listing[0] ?? (configured.length === 1 ? configured[0] : undefined);
    if (provider === undefined) {
      throw new LlmError(
        `${wanted.origin}: model "${wanted.model}" names no provider, and ${configured.length === 0 ? "no provider is configured" : `none of ${configured.map((p) => p.name).join(", ")} lists it`}; write provider/model (e.g. openai/${wanted.model})`,
        2,
      );
    }
  }
  const modelId = wanted.model ?? provider.models[0]?.id;
  if (modelId === undefined || modelId === "") {
    throw new LlmError(`${wanted.origin}: no model for provider "${provider.name}": write provider/model, or list models: under it`, 2);
  }
  const model = provider.models.find((m) => m.id === modelId) ?? { id: modelId, where: provider.where };
  const label = `${provider.name}/${model.id}`;
  const variable = provider.keyVariable ?? KEY_VARIABLES[provider.type];
  const apiKey = variable === undefined ? undefined : env[variable];
  if (provider.keyRequired && !apiKey) {
    const how =
      variable === undefined ? `set auth: env_var: under providers: ${provider.name} and export that variable` : `export ${variable}`;
    throw new LlmError(
      `${label} needs an API key in $${variable ?? "(no variable named)"}, which is not set: ${how}, or set auth: required: false for a local model`,
      2,
    );
  }
  return { provider, model, label, ...(apiKey ? { apiKey } : {}), origin: wanted.origin };
}
