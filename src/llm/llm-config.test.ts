import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, LlmError } from "../errors.ts";
import { startLlmServer, type LlmServer } from "../../test/support/llm-server.ts";
import { agentModel, askModel } from "./ask-model.ts";
import { loadLlmConfig } from "./load-llm-config.ts";
import { chooseModel } from "./model-choice.ts";

function workspace(anchor: string, user?: string): { root: string; home: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), "llm-config-"));
  mkdirSync(join(root, "trails/config"), { recursive: true });
  writeFileSync(join(root, "trails/config/trailblaze.yaml"), anchor);
  const home = join(root, "home");
  mkdirSync(join(home, ".trailblaze"), { recursive: true });
  if (user !== undefined) writeFileSync(join(home, ".trailblaze/trailblaze.yaml"), user);
  return { root, home, cwd: root };
}

describe("llm: as upstream writes it", () => {
  test("providers, models and defaults are read; an unknown key is a warning at its file:line:col", () => {
    const ws = workspace(`llm:
  providers:
    corp:
      type: openai_compatible
      base_url: https://llm.example.com/v1
      chat_completions_path: serving-endpoints/{{model_id}}/invocations
      headers: { x-team: qa }
      auth: { env_var: CORP_KEY }
      future_knob: 3
      models:
        - id: big
          cost: { input_per_million: 1.5, output_per_million: 6 }
  defaults:
    model: big
`);
    const { config, warnings } = loadLlmConfig(ws);
    expect(warnings.map((w) => `${w.file}:${w.line}:${w.col} ${w.message}`)).toEqual([
      expect.stringMatching(/^trails\/config\/trailblaze\.yaml:9:7 unknown key "future_knob", ignored/),
    ]);
    const choice = chooseModel(config, {}, { CORP_KEY: "k" })!;
    expect(choice).toMatchObject({
      label: "corp/big",
      apiKey: "k",
      provider: { type: "openai_compatible", headers: { "x-team": "qa" } },
      model: { cost: { inputPerMillion: 1.5 } },
    });
    expect(choice.origin).toBe("trails/config/trailblaze.yaml:14:12 defaults.model");
  });

  test("wrong types and missing pieces are located problems that say what to write", () => {
    const ws = workspace(`llm:
  providers:
    mystery:
      models: [{ id: m }]
    gateway:
      type: openai_compatible
    openai:
      models:
        - id: x
          temperature: hot
`);
    let error: unknown;
    try {
      loadLlmConfig(ws);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain("trails/config/trailblaze.yaml:10:24 llm.providers.openai.models[0].temperature");
  });

  test("a provider without a type, or openai_compatible without base_url, is a problem at the provider", () => {
    const ws = workspace(`llm:
  providers:
    mystery:
      models: [{ id: m }]
    gateway:
      type: openai_compatible
`);
    expect(() => loadLlmConfig(ws)).toThrow(/trailblaze\.yaml:3:5 llm\.providers\.mystery: provider "mystery" has no type: add type:/);
    expect(() => loadLlmConfig(ws)).toThrow(/provider "gateway" \(openai_compatible\) needs base_url/);
  });

  test("the workspace's file overrides the user's; the environment and flags override both; none turns it off", () => {
    const ws = workspace("llm:\n  defaults:\n    model: anthropic/claude-x\n", "llm:\n  defaults:\n    model: openai/gpt-user\n");
    const { config } = loadLlmConfig(ws);
    const env = { OPENAI_API_KEY: "o", ANTHROPIC_API_KEY: "a" };
    expect(chooseModel(config, {}, env)?.label).toBe("anthropic/claude-x");
    expect(chooseModel(config, {}, { ...env, TRAILBLAZE_DEFAULT_MODEL: "openai/gpt-env" })?.label).toBe("openai/gpt-env");
    expect(chooseModel(config, { llm: "openai/gpt-flag" }, { ...env, TRAILBLAZE_DEFAULT_MODEL: "openai/gpt-env" })?.label).toBe(
      "openai/gpt-flag",
    );
    expect(chooseModel(config, { "llm-provider": "openai", "llm-model": "gpt-split" }, env)?.label).toBe("openai/gpt-split");
    expect(chooseModel(config, { llm: "none" }, env)).toBeUndefined();
  });

  test("the anchor's own defaults: llm: and max-llm-calls: are read too; llm: defaults.model wins over defaults: llm:", () => {
    const both = loadLlmConfig(
      workspace("defaults:\n  llm: openai/gpt-anchor\n  max-llm-calls: 7\nllm:\n  defaults:\n    model: openai/gpt-block\n"),
    ).config;
    expect(chooseModel(both, {}, { OPENAI_API_KEY: "o" })?.label).toBe("openai/gpt-block");
    expect(both.maxCalls).toEqual({ value: 7, from: "defaults: max-llm-calls: 7 at trails/config/trailblaze.yaml:3:18" });
    const anchorOnly = loadLlmConfig(workspace("defaults:\n  llm: openai/gpt-anchor\n")).config;
    expect(chooseModel(anchorOnly, {}, { OPENAI_API_KEY: "o" })?.label).toBe("openai/gpt-anchor");
  });

  test("defaults: timeout_seconds and max_tokens_per_trail are read, a later file winning; a wrong value is a located problem", () => {
    const { config } = loadLlmConfig(
      workspace(
        "llm:\n  defaults:\n    timeout_seconds: 30\n",
        "llm:\n  defaults:\n    timeout_seconds: 5\n    max_tokens_per_trail: 90000\n",
      ),
    );
    expect(config).toMatchObject({
      timeoutSeconds: { value: 30, from: "llm: defaults: timeout_seconds: 30 at trails/config/trailblaze.yaml:3:22" },
      maxTokens: { value: 90000, from: "llm: defaults: max_tokens_per_trail: 90000 at home/.trailblaze/trailblaze.yaml:4:27" },
    });
    const bad = workspace("llm:\n  defaults:\n    timeout_seconds: -1\n    max_tokens_per_trail: 1.5\n");
    expect(() => loadLlmConfig(bad)).toThrow(/trailblaze\.yaml:3:22 llm\.defaults\.timeout_seconds/);
    expect(() => loadLlmConfig(bad)).toThrow(/trailblaze\.yaml:4:27 llm\.defaults\.max_tokens_per_trail/);
  });

  test("a key in the environment alone chooses nothing: no model unless the user opts in", () => {
    const ws = workspace("targets: []\n");
    expect(chooseModel(loadLlmConfig(ws).config, {}, { OPENAI_API_KEY: "sk-present" })).toBeUndefined();
  });

  test("choices that cannot work say why (exit 2)", () => {
    const { config } = loadLlmConfig(workspace("llm:\n  providers:\n    ollama:\n      models: [{ id: llama3 }]\n"));
    const fails = (flags: Record<string, string>, env: Record<string, string> = {}) => {
      try {
        chooseModel(config, flags, env);
      } catch (error) {
        expect(error).toBeInstanceOf(LlmError);
        expect((error as LlmError).exitCode).toBe(2);
        return (error as Error).message;
      }
      throw new Error("expected an LlmError");
    };
    expect(fails({ llm: "nowhere/x" })).toContain('no provider "nowhere"');
    expect(fails({ llm: "openai/gpt-x" })).toContain(
      "openai/gpt-x needs an API key in $OPENAI_API_KEY, which is not set: export OPENAI_API_KEY",
    );
    expect(fails({ llm: "openai/gpt-x", "llm-model": "y" })).toContain("--llm is provider/model in one flag");
    // A local model needs no key; a bare model id finds the provider that lists it.
    expect(chooseModel(config, { llm: "llama3" }, {})?.label).toBe("ollama/llama3");
  });
});

describe("the endpoint", () => {
  let server: LlmServer | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  test("chat_completions_path replaces /chat/completions, with the model id in it", async () => {
    server = startLlmServer([{ text: "hi" }]);
    const ws = workspace(`llm:
  providers:
    corp:
      type: openai_compatible
      base_url: ${server.url}/api
      chat_completions_path: serving-endpoints/{{model_id}}/invocations
      auth: { required: false }
      models: [{ id: "big-1" }]
`);
    const choice = chooseModel(loadLlmConfig(ws).config, { llm: "corp/big-1" }, {})!;
    const answer = await askModel(agentModel(choice, {}), { system: "s", text: "t", tools: [] });
    expect(answer.text).toBe("hi");
    expect(server.requests[0]!.path).toBe("/api/serving-endpoints/big-1/invocations");
  });

  test("an unreachable endpoint is exit 2 and names where it looked", async () => {
    const ws = workspace(
      "llm:\n  providers:\n    corp:\n      type: openai_compatible\n      base_url: http://127.0.0.1:9/v1\n      auth: { required: false }\n      models: [{ id: m }]\n",
    );
    const choice = chooseModel(loadLlmConfig(ws).config, { llm: "corp/m" }, {})!;
    const failure = await askModel(agentModel(choice, { TRAILBLAZE_LLM_MAX_RETRIES: "0" }), { system: "s", text: "t", tools: [] }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LlmError);
    expect((failure as LlmError).exitCode).toBe(2);
    expect((failure as Error).message).toContain("corp/m (openai_compatible at http://127.0.0.1:9/v1) cannot be reached");
  });
});
