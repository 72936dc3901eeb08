// A chosen model as an AI SDK LanguageModel: one provider package per wire format (OpenAI chat
// completions, Anthropic messages, Google Gemini, and OpenAI-compatible for Ollama, OpenRouter and
// gateways). Upstream's endpoint conventions are kept: `base_url` as upstream writes it, and a
// gateway's `chat_completions_path` (with `{{model_id}}`) in place of `/chat/completions`. Each
// provider package is imported when a model of its type is first used: a run with no model, and
// every other command, never loads one.

import type { LanguageModel } from "ai";
import type { ProviderType } from "./llm-config.ts";
import type { ModelChoice } from "./model-choice.ts";

/** Upstream's default endpoints, by provider type. */
const DEFAULT_BASE_URLS: Readonly<Record<ProviderType, string | undefined>> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  google: "https://generativelanguage.googleapis.com",
  ollama: "http://localhost:11434",
  openrouter: "https://openrouter.ai/api/v1",
  openai_compatible: undefined,
};

const trim = (url: string) => url.replace(/\/+$/, "");

/** `url` with `suffix` appended unless its path already ends with a version segment. */
function versioned(url: string, suffix: string): string {
  return /\/v\d+(beta|alpha)?\d*$/.test(trim(url)) ? trim(url) : `${trim(url)}${suffix}`;
}

/** The endpoint the provider package is given (its own path segments are appended to it). */
function endpointOf(choice: ModelChoice): string {
  const { type } = choice.provider;
  const base = choice.provider.baseUrl ?? DEFAULT_BASE_URLS[type] ?? "";
  if (type === "anthropic") return versioned(base, "/v1");
  if (type === "google") return versioned(base, "/v1beta");
  if (type === "ollama") return versioned(base, "/v1");
  return trim(base);
}

/** A fetch that sends chat completions to the gateway's own path instead of `/chat/completions`. */
function chatPathFetch(endpoint: string, path: string, modelId: string): typeof fetch {
  const target = `${trim(endpoint)}/${path.replace(/^\/+/, "").replaceAll("{{model_id}}", encodeURIComponent(modelId))}`;
  const rewrite = (input: string | URL | Request) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return url.endsWith("/chat/completions") ? target : url;
  };
  return Object.assign((input: string | URL | Request, init?: RequestInit) => fetch(rewrite(input), init), {
    preconnect: fetch.preconnect,
  });
}

export async function languageModel(choice: ModelChoice): Promise<LanguageModel> {
  const { provider, model, apiKey } = choice;
  const endpoint = endpointOf(choice);
  const headers = provider.headers;
  switch (provider.type) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({ baseURL: endpoint, headers, ...(apiKey ? { apiKey } : {}) }).chat(model.id);
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ baseURL: endpoint, headers, ...(apiKey ? { apiKey } : {}) })(model.id);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ baseURL: endpoint, headers, ...(apiKey ? { apiKey } : {}) })(model.id);
    }
    case "ollama":
    case "openrouter":
    case "openai_compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({
        name: provider.name,
        baseURL: endpoint,
        headers,
        includeUsage: true,
        ...(apiKey ? { apiKey } : {}),
        ...(provider.chatCompletionsPath ? { fetch: chatPathFetch(endpoint, provider.chatCompletionsPath, model.id) } : {}),
      }).chatModel(model.id);
    }
  }
}
