// One request to the model through the AI SDK: a system prompt, one user message (text and, for a
// model with vision, a screenshot), the tools it may call. The SDK retries rate limits and server
// errors with backoff (honouring retry-after); what still fails becomes an LlmError that names the
// provider and model and says what to do. Streaming and non-streaming answer the same way. Each
// request has a deadline (`--llm-timeout`): past it the request is aborted, however slowly the
// provider is still sending, and fails naming the provider, the model and the timeout.

import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { LlmError } from "../errors.ts";
import { languageModel } from "./language-model.ts";
import type { Cap } from "./llm-config.ts";
import type { ModelChoice } from "./model-choice.ts";

type AiSdk = typeof import("ai");

let sdk: Promise<AiSdk> | undefined;

/** The AI SDK, imported on the first request: a run that never asks a model never loads it. */
function aiSdk(): Promise<AiSdk> {
  sdk ??= import("ai").then((ai) => {
    // The SDK prints its own warnings (e.g. a model it does not know) to the console: the CLI's output is ours.
    (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
    return ai;
  });
  return sdk;
}

export interface AgentModel {
  choice: ModelChoice;
  /** Stream the answer (`TRAILBLAZE_LLM_STREAM=1`): for gateways that time out idle connections. */
  stream: boolean;
  /** Retries of a rate limit or server error (`TRAILBLAZE_LLM_MAX_RETRIES`, default 3). */
  maxRetries: number;
  /** How long one request may take, its retries included, in ms (`--llm-timeout`, default 120 s). */
  timeoutMs: number;
  /** Where the timeout was set, as its message names it (`--llm-timeout 30`, a file's line, the default). */
  timeoutFrom: string;
  /** The run's masking (Secrets.mask): what a provider answered is masked before it is cut into a message. */
  mask: (text: string) => string;
}

/** Upstream's HTTP timeout for model requests: 120 s. */
export const DEFAULT_LLM_TIMEOUT_SECONDS = 120;

/** The request timeout when neither --llm-timeout nor the config sets one. */
export const DEFAULT_LLM_TIMEOUT: Cap = { value: DEFAULT_LLM_TIMEOUT_SECONDS, from: "the default timeout" };

/** The agent's model for `choice`, with the environment's streaming and retry settings, the request deadline and the run's masking. */
export function agentModel(
  choice: ModelChoice,
  env: Readonly<Record<string, string | undefined>>,
  timeout: Cap = DEFAULT_LLM_TIMEOUT,
  mask: (text: string) => string = (text) => text,
): AgentModel {
  const retries = Number(env.TRAILBLAZE_LLM_MAX_RETRIES ?? 3);
  if (!Number.isInteger(retries) || retries < 0)
    throw new LlmError(
      `TRAILBLAZE_LLM_MAX_RETRIES must be a whole number of retries (0 or more), got "${env.TRAILBLAZE_LLM_MAX_RETRIES}"`,
      2,
    );
  return {
    choice,
    stream: ["1", "true"].includes(env.TRAILBLAZE_LLM_STREAM ?? ""),
    maxRetries: retries,
    timeoutMs: Math.round(timeout.value * 1000),
    timeoutFrom: timeout.from,
    mask,
  };
}

/** The SDK's model for an agent, made once (its provider package imported then). */
const models = new WeakMap<AgentModel, Promise<LanguageModel>>();

function modelOf(agent: AgentModel): Promise<LanguageModel> {
  let model = models.get(agent);
  if (model === undefined) {
    model = languageModel(agent.choice);
    models.set(agent, model);
  }
  return model;
}

export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

interface ModelRequest {
  system: string;
  text: string;
  /** A screenshot: base64 or a data: URL, with its media type. */
  image?: { data: string; mediaType: string };
  tools: readonly OfferedTool[];
}

interface ModelCall {
  tool: string;
  args: Record<string, unknown>;
  /** Why the SDK refused the call (an unknown tool), when it did. */
  invalid?: string;
}

export interface ModelAnswer {
  calls: ModelCall[];
  text: string;
  usage: { input: number; output: number };
}

/** The SDK's tool set for a list of offered tools, built once per list (a loop offers the same list every turn). */
const toolSets = new WeakMap<readonly OfferedTool[], ToolSet>();

function toolSet(tools: readonly OfferedTool[], { tool, jsonSchema }: AiSdk): ToolSet {
  let set = toolSets.get(tools);
  if (set === undefined) {
    set = Object.fromEntries(
      tools.map((t) => [
        t.name,
        tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]) }),
      ]),
    );
    toolSets.set(tools, set);
  }
  return set;
}

function messagesOf(request: ModelRequest): ModelMessage[] {
  const content: ({ type: "text"; text: string } | { type: "image"; image: string; mediaType: string })[] = [
    { type: "text", text: request.text },
  ];
  if (request.image) content.push({ type: "image", image: request.image.data, mediaType: request.image.mediaType });
  return [{ role: "user", content }];
}

/** The model as messages name it: `provider/model (type at base_url)`. */
const whoOf = (choice: ModelChoice) =>
  `${choice.label} (${choice.provider.type}${choice.provider.baseUrl ? ` at ${choice.provider.baseUrl}` : ""})`;

/** The seconds of a timeout in ms, as the flag takes them (`0.5`, `120`). */
const seconds = (ms: number) => String(ms / 1000);

/** A request that ran past `--llm-timeout`: the step fails (exit 1), naming the model and the timeout. */
function timeoutError(agent: AgentModel, cause: unknown): LlmError {
  const s = seconds(agent.timeoutMs);
  return new LlmError(
    `${whoOf(agent.choice)} did not answer within ${s} s (${agent.timeoutFrom}); raise --llm-timeout or llm: defaults: timeout_seconds, or check that the provider is up`,
    1,
    { cause },
  );
}

/** The most of a provider's answer an error message quotes. */
const QUOTED_BODY = 300;

/** What a 2xx answer the SDK could not read is: not JSON at all, or JSON of another shape. */
function unreadable(body: string | undefined, type: string): string {
  if (!body) return "its body is empty";
  try {
    JSON.parse(body);
    return `it is JSON, but not an answer of the ${type} API`;
  } catch {
    return "it is not JSON";
  }
}

/** Turns what the SDK threw into an LlmError users can act on. */
function modelError(error: unknown, agent: AgentModel, { APICallError, RetryError }: AiSdk): Error {
  if (error instanceof LlmError) return error;
  const { choice } = agent;
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const tried = RetryError.isInstance(error) ? ` (after ${error.errors.length} attempts)` : "";
  const who = whoOf(choice);
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    // Masked, then cut: a secret the provider echoes is whole when masking looks for it.
    const body = cause.responseBody ? agent.mask(cause.responseBody) : undefined;
    const said = body ? `: ${body.length > QUOTED_BODY ? `${body.slice(0, QUOTED_BODY)}…` : body}` : "";
    if (status !== undefined && status >= 200 && status < 300)
      return new LlmError(
        `${who} answered (HTTP ${status}), but the answer is unreadable: ${unreadable(cause.responseBody, choice.provider.type)}${said}; check that ${choice.provider.chatCompletionsPath ? "base_url and chat_completions_path lead" : "base_url leads"} to the provider's API (a proxy or a login page answers with a page of its own)`,
        2,
        { cause },
      );
    if (status === 401 || status === 403) {
      const variable = choice.provider.keyVariable ?? "its key variable";
      return new LlmError(`${who} refused the API key (HTTP ${status})${said}; check the key in $${variable.replace(/^\$/, "")}`, 2, {
        cause,
      });
    }
    if (status === 404)
      return new LlmError(
        `${who} does not know model "${choice.model.id}" or the endpoint ${cause.url} (HTTP 404)${said}; check the model id and base_url`,
        2,
        { cause },
      );
    if (status === 429)
      return new LlmError(
        `${who} kept rate-limiting the agent${tried} (HTTP 429)${said}; wait, lower --workers, or raise TRAILBLAZE_LLM_MAX_RETRIES`,
        1,
        { cause },
      );
    if (status !== undefined && status >= 500) return new LlmError(`${who} failed${tried} (HTTP ${status})${said}`, 1, { cause });
    if (status !== undefined) return new LlmError(`${who} rejected the request (HTTP ${status})${said}`, 1, { cause });
    return new LlmError(`${who} cannot be reached at ${cause.url}${tried}: ${cause.message}; check base_url and the network`, 2, { cause });
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return new LlmError(`${who} failed${tried}: ${message}`, 1, { cause });
}

/**
 * Asks the model once (the SDK retrying what is worth retrying). The request, retries included, is
 * aborted at `agent.timeoutMs`, and so is a provider that keeps the connection open sending a byte at
 * a time: the answer is awaited against the deadline itself, not only through the SDK.
 */
export async function askModel(agent: AgentModel, request: ModelRequest, signal?: AbortSignal): Promise<ModelAnswer> {
  const ai = await aiSdk();
  const model = await modelOf(agent);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException(`no answer within ${agent.timeoutMs} ms`, "TimeoutError")),
    agent.timeoutMs,
  );
  const abortSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  let expire: (reason: unknown) => void = () => {};
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const onAbort = () => expire(abortSignal.reason);
  abortSignal.addEventListener("abort", onAbort, { once: true });
  if (abortSignal.aborted) onAbort();
  try {
    return await Promise.race([answer(agent, model, request, abortSignal, ai), expired]);
  } catch (error) {
    if (deadline.signal.aborted && !signal?.aborted) throw timeoutError(agent, error);
    throw modelError(error, agent, ai);
  } finally {
    clearTimeout(timer);
    abortSignal.removeEventListener("abort", onAbort);
  }
}

async function answer(
  agent: AgentModel,
  model: LanguageModel,
  request: ModelRequest,
  signal: AbortSignal,
  ai: AiSdk,
): Promise<ModelAnswer> {
  const { choice } = agent;
  const { generateText, streamText, ToolChoiceViolationError } = ai;
  const settings = {
    model,
    system: request.system,
    messages: messagesOf(request),
    tools: toolSet(request.tools, ai),
    toolChoice: "required" as const,
    maxRetries: agent.maxRetries,
    ...(choice.model.temperature !== undefined ? { temperature: choice.model.temperature } : {}),
    maxOutputTokens: choice.model.maxOutputTokens ?? 4096,
    abortSignal: signal,
  };
  try {
    if (agent.stream) {
      let failure: unknown;
      const result = streamText({ ...settings, onError: ({ error }) => void (failure ??= error) });
      const [calls, text, usage] = await Promise.all([result.toolCalls, result.text, result.usage]).catch((error: unknown) => {
        throw failure ?? error;
      });
      if (failure !== undefined) throw failure;
      return answerOf(calls, text, usage);
    }
    const result = await generateText(settings);
    return answerOf(result.toolCalls, result.text, result.usage);
  } catch (error) {
    // A model that answered in words when a tool call was required: the loop tells it so, as for any answer without a call.
    if (ToolChoiceViolationError.isInstance(error)) return { calls: [], text: textOf(error.content), usage: { input: 0, output: 0 } };
    throw error;
  }
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: unknown }) => (part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join("");
}

interface SdkCall {
  toolName: string;
  input: unknown;
  invalid?: boolean;
  error?: unknown;
}

function answerOf(
  calls: readonly SdkCall[],
  text: string,
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined },
): ModelAnswer {
  return {
    calls: calls.map((call) => ({
      tool: call.toolName,
      args:
        typeof call.input === "object" && call.input !== null && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {},
      ...(call.invalid ? { invalid: call.error instanceof Error ? call.error.message : "the call is not valid" } : {}),
    })),
    text,
    usage: { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 },
  };
}
