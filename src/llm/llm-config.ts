// Upstream's `llm:` block, read as upstream writes it: in the workspace's
// `trails/config/trailblaze.yaml` and the user's `~/.trailblaze/trailblaze.yaml` (lower priority).
// Providers keyed by name, each with a type (inferred from a standard key), endpoint, headers,
// auth and models; `defaults`: the model, and the caps on it (`timeout_seconds` per request,
// `max_tokens_per_trail`). Unknown keys are warnings, wrong types are located problems.

import * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import { isPlainMap } from "../core/describe.ts";
import { validateWith } from "../config/validate.ts";
import { locate, problemAt, type FieldPath, type Where, type YamlFile } from "../core/yaml-file.ts";

export const PROVIDER_TYPES = ["openai", "anthropic", "google", "ollama", "openrouter", "openai_compatible"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** A provider key that names its own type (`openai:` needs no `type: openai`). */
const STANDARD_KEYS = new Set<string>(["openai", "anthropic", "google", "ollama", "openrouter"]);

const costSchema = z.object({
  input_per_million: z.number().nonnegative().optional(),
  output_per_million: z.number().nonnegative().optional(),
  cached_input_per_million: z.number().nonnegative().optional(),
});

const modelSchema = z.object({
  id: z.string().min(1),
  tier: z.string().optional(),
  vision: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  context_length: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  cost: costSchema.nullable().optional(),
  screenshot: z
    .object({
      max_dimensions: z
        .string()
        .regex(/^\d+x\d+$/, "WIDTHxHEIGHT, e.g. 1536x768")
        .optional(),
    })
    .nullable()
    .optional(),
});

const providerSchema = z.object({
  enabled: z.boolean().optional(),
  type: z.enum(PROVIDER_TYPES).optional(),
  description: z.string().optional(),
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  chat_completions_path: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).nullable().optional(),
  auth: z
    .object({
      env_var: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
        .optional(),
      required: z.boolean().optional(),
    })
    .nullable()
    .optional(),
  models: z.array(modelSchema).nullable().optional(),
});

const llmSchema = z.object({
  providers: z.record(z.string().min(1), providerSchema.nullable()).nullable().optional(),
  defaults: z
    .object({
      model: z.string().min(1).optional(),
      screenshot: z.object({ max_dimensions: z.string().optional() }).nullable().optional(),
      timeout_seconds: z.number().positive().optional(),
      max_tokens_per_trail: z.number().int().positive().optional(),
    })
    .nullable()
    .optional(),
});

/** The keys each level knows; anything else is a warning (a newer upstream key, or a typo). */
const KNOWN = {
  llm: Object.keys(llmSchema.shape),
  provider: Object.keys(providerSchema.shape),
  model: Object.keys(modelSchema.shape),
  auth: ["env_var", "required"],
  defaults: ["model", "screenshot", "timeout_seconds", "max_tokens_per_trail"],
  cost: Object.keys(costSchema.shape),
} as const;

export interface ModelConfig {
  id: string;
  vision?: boolean;
  temperature?: number;
  contextLength?: number;
  maxOutputTokens?: number;
  cost?: { inputPerMillion?: number; outputPerMillion?: number; cachedInputPerMillion?: number };
  where: Where;
}

export interface ProviderConfig {
  /** The key under `providers:`. */
  name: string;
  type: ProviderType;
  enabled: boolean;
  baseUrl?: string;
  chatCompletionsPath?: string;
  headers: Record<string, string>;
  /** The variable holding the key (default: the type's standard one). */
  keyVariable?: string;
  /** Whether a key is needed (default true; false for local models). */
  keyRequired: boolean;
  models: ModelConfig[];
  where: Where;
}

/**
 * A cap on the model and where it was set, as a message that hits it names it: `--max-llm-calls 3`,
 * `defaults: max-llm-calls: 3 at trails/config/trailblaze.yaml:4:18`, or the default's words.
 */
export interface Cap {
  value: number;
  from: string;
}

/** The `llm:` settings of one or more files, later files overriding earlier ones. */
export interface LlmConfig {
  providers: Map<string, ProviderConfig>;
  /** `defaults.model`: `model`, or `provider/model` (or the anchor's own `defaults: llm:`), and the key that gave it. */
  defaultModel?: { value: string; where: Where; key: "llm: defaults: model" | "defaults: llm" };
  /** The anchor's `defaults: max-llm-calls:`, the cap when no --max-llm-calls gives one. */
  maxCalls?: Cap;
  /** `defaults.timeout_seconds`: each model request's deadline when no --llm-timeout gives one. */
  timeoutSeconds?: Cap;
  /** `defaults.max_tokens_per_trail`: the tokens one trail may spend when no --max-llm-tokens gives a cap. */
  maxTokens?: Cap;
  /** The workspace's trailblaze.yaml as messages name it: the one read, or where one would be (load-llm-config.ts). */
  file?: string;
}

/** A cap set in a file: its value and `key: value at file:line:col`. */
function capAt(yaml: YamlFile, path: FieldPath, key: string, value: number): Cap {
  const { file, line, col } = locate(yaml, path);
  return { value, from: `${key}: ${value} at ${file}:${line}:${col}` };
}

export const emptyLlmConfig = (): LlmConfig => ({ providers: new Map() });

function unknownKeys(yaml: YamlFile, at: FieldPath, value: unknown, known: readonly string[], warnings: ConfigProblem[]): void {
  if (!isPlainMap(value)) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      warnings.push(problemAt(yaml, [...at, key], "key", `unknown key "${key}", ignored (known: ${known.join(", ")})`, at));
  }
}

/**
 * Reads the `llm:` node of a trailblaze.yaml into `into` (providers merge by name, a later file's
 * fields winning); never throws. Problems are wrong types and values; warnings are unknown keys.
 */
export function readLlmBlock(yaml: YamlFile, into: LlmConfig): { problems: ConfigProblem[]; warnings: ConfigProblem[] } {
  const warnings: ConfigProblem[] = [];
  // The anchor's `defaults: {llm: provider/model, max-llm-calls: N}` (its schema checks their types).
  const anchorDefaults = isPlainMap(yaml.data) && isPlainMap(yaml.data.defaults) ? yaml.data.defaults : {};
  if (typeof anchorDefaults.llm === "string" && anchorDefaults.llm !== "")
    into.defaultModel = { value: anchorDefaults.llm, where: locate(yaml, ["defaults", "llm"]), key: "defaults: llm" };
  if (typeof anchorDefaults["max-llm-calls"] === "number")
    into.maxCalls = capAt(yaml, ["defaults", "max-llm-calls"], "defaults: max-llm-calls", anchorDefaults["max-llm-calls"]);
  const data = isPlainMap(yaml.data) ? yaml.data.llm : undefined;
  if (data === undefined || data === null) return { problems: [], warnings };
  const checked = validateWith(llmSchema, yaml, ["llm"]);
  if (!checked.value) return { problems: checked.problems, warnings };
  const problems: ConfigProblem[] = [];
  unknownKeys(yaml, ["llm"], data, KNOWN.llm, warnings);
  const raw = data as Record<string, unknown>;
  unknownKeys(yaml, ["llm", "defaults"], raw.defaults, KNOWN.defaults, warnings);

  for (const [name, provider] of Object.entries(checked.value.providers ?? {})) {
    const at = ["llm", "providers", name];
    const rawProvider = (raw.providers as Record<string, unknown>)[name];
    unknownKeys(yaml, at, rawProvider, KNOWN.provider, warnings);
    if (isPlainMap(rawProvider)) unknownKeys(yaml, [...at, "auth"], rawProvider.auth, KNOWN.auth, warnings);
    const previous = into.providers.get(name);
    const type = provider?.type ?? previous?.type ?? (STANDARD_KEYS.has(name) ? (name as ProviderType) : undefined);
    if (type === undefined) {
      problems.push(
        problemAt(
          yaml,
          at,
          "key",
          `provider "${name}" has no type: add type: (one of ${PROVIDER_TYPES.join(", ")}); only ${[...STANDARD_KEYS].join(", ")} infer it from their key`,
        ),
      );
      continue;
    }
    const baseUrl = provider?.base_url ?? previous?.baseUrl;
    if (type === "openai_compatible" && baseUrl === undefined) {
      problems.push(
        problemAt(
          yaml,
          at,
          "key",
          `provider "${name}" (openai_compatible) needs base_url: the endpoint's URL, e.g. https://llm.example.com/v1`,
        ),
      );
      continue;
    }
    const models = (provider?.models ?? []).map((model, i): ModelConfig => {
      const modelAt = [...at, "models", i];
      const rawModel = isPlainMap(rawProvider) && Array.isArray(rawProvider.models) ? rawProvider.models[i] : undefined;
      unknownKeys(yaml, modelAt, rawModel, KNOWN.model, warnings);
      if (isPlainMap(rawModel)) unknownKeys(yaml, [...modelAt, "cost"], rawModel.cost, KNOWN.cost, warnings);
      const cost = model.cost
        ? {
            ...(model.cost.input_per_million !== undefined ? { inputPerMillion: model.cost.input_per_million } : {}),
            ...(model.cost.output_per_million !== undefined ? { outputPerMillion: model.cost.output_per_million } : {}),
            ...(model.cost.cached_input_per_million !== undefined ? { cachedInputPerMillion: model.cost.cached_input_per_million } : {}),
          }
        : undefined;
      return {
        id: model.id,
        ...(model.vision !== undefined ? { vision: model.vision } : {}),
        ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
        ...(model.context_length !== undefined ? { contextLength: model.context_length } : {}),
        ...(model.max_output_tokens !== undefined ? { maxOutputTokens: model.max_output_tokens } : {}),
        ...(cost ? { cost } : {}),
        where: locate(yaml, [...modelAt, "id"]),
      };
    });
    const byId = new Map((previous?.models ?? []).map((m) => [m.id, m]));
    for (const model of models) byId.set(model.id, { ...byId.get(model.id), ...model });
    const keyVariable = provider?.auth?.env_var ?? previous?.keyVariable;
    const chatCompletionsPath = provider?.chat_completions_path ?? previous?.chatCompletionsPath;
    into.providers.set(name, {
      name,
      type,
      enabled: provider?.enabled ?? previous?.enabled ?? true,
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(chatCompletionsPath !== undefined ? { chatCompletionsPath } : {}),
      headers: { ...previous?.headers, ...provider?.headers },
      ...(keyVariable !== undefined ? { keyVariable } : {}),
      keyRequired: provider?.auth?.required ?? previous?.keyRequired ?? type !== "ollama",
      models: [...byId.values()],
      where: locate(yaml, at, "key"),
    });
  }
  const defaults = checked.value.defaults;
  if (defaults?.model !== undefined)
    into.defaultModel = { value: defaults.model, where: locate(yaml, ["llm", "defaults", "model"]), key: "llm: defaults: model" };
  if (defaults?.timeout_seconds !== undefined)
    into.timeoutSeconds = capAt(yaml, ["llm", "defaults", "timeout_seconds"], "llm: defaults: timeout_seconds", defaults.timeout_seconds);
  if (defaults?.max_tokens_per_trail !== undefined)
    into.maxTokens = capAt(
      yaml,
      ["llm", "defaults", "max_tokens_per_trail"],
      "llm: defaults: max_tokens_per_trail",
      defaults.max_tokens_per_trail,
    );
  return { problems, warnings };
}
