// What `step` prints, as a user reads it, against a local provider (no network): one model call is
// "1 model call"; a model that cannot be used (a 404, a 200 that is no answer) is said once, as the
// error, after a line that counts what the objective cost; a cap set in the workspace's config names
// its place; a provider's error that echoes the key is masked before it is cut to 300 characters.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./support/cli.ts";
import { AGENT_KEY, agentEnv, agentWorkspace, CALENDAR_MAP } from "./support/agent-workspace.ts";
import { done, call, startLlmServer, type LlmServer, type Turn } from "./support/llm-server.ts";

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const step = (dir: string, extra: string[] = [], env: Record<string, string> = {}) =>
  cli(["step", "Open the navigation drawer", "--target", "calendar", ...CALENDAR_MAP, "--no-logging", ...extra], {
    cwd: dir,
    env: agentEnv(env),
  });

describe("step's result line", () => {
  test("counts one model call as one, and its tokens", async () => {
    server = startLlmServer([{ ...done("it was open already"), usage: { input: 1, output: 0 } } as Turn]);
    const { code, stdout } = await step(agentWorkspace("one-call", server));
    expect(code).toBe(0);
    // (Reached with no call made: nothing was checked, so it is unverified.)
    expect(stdout).toBe(
      "⚠ it was open already (gateway/test-model: 1 model call, 1 token, $0.0000)\nunverified: nothing checked: the step made no calls\n",
    );
  });
});

describe("a model that cannot be used is said once", () => {
  test("a 404: the error names model and endpoint (exit 2); the result line only counts", async () => {
    server = startLlmServer([{ status: 404, body: { error: { message: "no such model" } } }]);
    const { code, stdout, stderr } = await step(agentWorkspace("step-404", server));
    expect(code).toBe(2);
    expect(stdout).toBe("✗ not reached (gateway/test-model: 0 model calls, 0 tokens, $0.0000)\n");
    expect(stderr).toBe(
      `error: gateway/test-model (openai_compatible at ${server.url}/v1) does not know model "test-model" or the endpoint ${server.url}/v1/chat/completions (HTTP 404): ` +
        '{"error":{"message":"no such model"}}; check the model id and base_url\n',
    );
  });

  test("a 200 that is not JSON (a proxy's page) is an unreadable answer, not a refusal (exit 2)", async () => {
    server = startLlmServer([{ status: 200, raw: "<html>Sign in to the gateway</html>", headers: { "content-type": "text/html" } }]);
    const { code, stdout, stderr } = await step(agentWorkspace("step-200", server), ["--json"]);
    expect(code).toBe(2);
    const said =
      `gateway/test-model (openai_compatible at ${server.url}/v1) answered (HTTP 200), but the answer is unreadable: it is not JSON: ` +
      "<html>Sign in to the gateway</html>; check that base_url leads to the provider's API (a proxy or a login page answers with a page of its own)";
    expect(JSON.parse(stdout)).toMatchObject({ status: "failed", message: said });
    expect(stderr).toBe(`error: ${said}\n`);
    expect(server.requests).toHaveLength(1);
  });

  test("a 200 of JSON that is not an answer says so", async () => {
    server = startLlmServer([{ status: 200, body: { status: "ok" } }]);
    const { code, stderr } = await step(agentWorkspace("step-200-json", server));
    expect(code).toBe(2);
    expect(stderr).toContain(
      'answered (HTTP 200), but the answer is unreadable: it is JSON, but not an answer of the openai_compatible API: {"status":"ok"}',
    );
  });

  test("an error body that echoes the key is masked before it is cut, so no part of the key is left", async () => {
    // The key straddles the 300-character cut: cut first, its first part would no longer be the key.
    server = startLlmServer([{ status: 400, raw: `${"x".repeat(290)}${AGENT_KEY} is not allowed here` }]);
    const { code, stderr } = await step(agentWorkspace("step-mask-cut", server));
    expect(code).toBe(1);
    expect(stderr).toContain(`rejected the request (HTTP 400): ${"x".repeat(290)}*** is not…\n`);
    expect(stderr).not.toContain(AGENT_KEY.slice(0, 8));
  });
});

describe("a cap names where it was set", () => {
  test("defaults: max-llm-calls: in the workspace's trailblaze.yaml, by file:line:col; the flag by itself", async () => {
    server = startLlmServer([]);
    server.after = call("wait", { seconds: 0 });
    const dir = agentWorkspace("step-cap-config", server);
    const anchor = join(dir, "trails/config/trailblaze.yaml");
    writeFileSync(anchor, `${readFileSync(anchor, "utf8")}defaults:\n  max-llm-calls: 2\n`);
    const config = await step(dir);
    expect(config.code).toBe(1);
    expect(config.stdout).toStartWith(
      "✗ the model did not finish the objective in 2 calls (defaults: max-llm-calls: 2 at trails/config/trailblaze.yaml:24:18) (gateway/test-model: 2 model calls,",
    );
    const flag = await step(dir, ["--max-llm-calls", "1"]);
    expect(flag.stdout).toStartWith(
      "✗ the model did not finish the objective in 1 call (--max-llm-calls 1) (gateway/test-model: 1 model call,",
    );
  });
});
