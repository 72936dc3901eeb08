// The caps on the built-in agent's model, against a local provider (no network): a request that is
// never answered, or answered a byte at a time, fails at --llm-timeout (or llm: defaults:
// timeout_seconds) naming the provider, the model and the timeout; a trail whose answers spend more
// tokens than --max-llm-tokens (or max_tokens_per_trail) fails at the answer that passed it, whose
// call does not run. Tests assert the outcome, never how long it took.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./support/cli.ts";
import { agentEnv, agentWorkspace, CALENDAR_MAP } from "./support/agent-workspace.ts";
import { done, call, startLlmServer, type LlmServer, type Turn } from "./support/llm-server.ts";

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

// The day view's drawer button, by the ref the outline shows.
const tapDrawer = call("tap", { ref: "n2" });

/** Appends `lines` under the anchor's `llm: defaults:` (the fixture's block ends with it). */
function withLlmDefaults(dir: string, lines: string): void {
  const anchor = join(dir, "trails/config/trailblaze.yaml");
  const text = readFileSync(anchor, "utf8");
  if (!text.trimEnd().endsWith("model: gateway/test-model")) throw new Error("the fixture's anchor no longer ends with llm: defaults:");
  writeFileSync(anchor, `${text.trimEnd()}\n${lines}\n`);
}

interface Report {
  trails: {
    status: string;
    error?: string;
    steps: { status: string; tools: { name: string }[]; agent?: { tokens: { input: number; output: number } } }[];
  }[];
}

const step = (dir: string, extra: string[], env: Record<string, string> = {}) =>
  cli(["step", "Open the navigation drawer", "--target", "calendar", ...CALENDAR_MAP, "--no-logging", ...extra], {
    cwd: dir,
    env: agentEnv(env),
  });

describe("--llm-timeout", () => {
  test.each([
    ["never answers", { hang: true } as Turn, {}],
    ["sends its JSON answer a byte every 50 ms", { trickle: 50 } as Turn, {}],
    ["streams its answer a byte every 50 ms", { trickle: 50 } as Turn, { TRAILBLAZE_LLM_STREAM: "1" }],
  ])("a provider that %s fails the step at the timeout, naming provider, model and timeout", async (_what, turn, env) => {
    server = startLlmServer([turn]);
    const dir = agentWorkspace("timeout", server);
    const { code, stdout, stderr } = await step(dir, ["--llm-timeout", "1"], env);
    expect(code).toBe(1);
    const said = `gateway/test-model (openai_compatible at ${server.url}/v1) did not answer within 1 s (--llm-timeout 1)`;
    // Said once, as the error; the result line counts what the objective cost.
    expect(stdout).toBe("✗ not reached (gateway/test-model: 0 model calls, 0 tokens, $0.0000)\n");
    expect(stderr).toEndWith(`error: ${said}; raise --llm-timeout or llm: defaults: timeout_seconds, or check that the provider is up\n`);
    // A request past its deadline is not retried.
    expect(server.requests).toHaveLength(1);
  });

  test("llm: defaults: timeout_seconds is the deadline when no flag gives one; a run's trail fails with it", async () => {
    server = startLlmServer([{ trickle: 50 }]);
    const dir = agentWorkspace("timeout-config", server);
    withLlmDefaults(dir, "    timeout_seconds: 0.5");
    const { code, stdout } = await cli(
      ["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--reporter", "json", "--no-logging"],
      { cwd: dir, env: agentEnv() },
    );
    expect(code).toBe(1);
    const trail = (JSON.parse(stdout) as Report).trails[0]!;
    expect(trail.error).toContain("gateway/test-model (openai_compatible at");
    expect(trail.error).toContain(
      "did not answer within 0.5 s (llm: defaults: timeout_seconds: 0.5 at trails/config/trailblaze.yaml:23:22)",
    );
    expect(trail.steps.map((s) => s.status)).toEqual(["failed", "skipped", "skipped"]);
  });

  test.each([
    ["--llm-timeout", "0", '--llm-timeout expects a positive number of seconds (e.g. 120), got "0"'],
    ["--llm-timeout", "soon", '--llm-timeout expects a positive number of seconds (e.g. 120), got "soon"'],
    ["--max-llm-tokens", "2.5", '--max-llm-tokens expects a positive whole number of tokens (e.g. 200000), got "2.5"'],
  ])("%s %s is a usage error (exit 2) before any request", async (flag, value, message) => {
    server = startLlmServer([]);
    const dir = agentWorkspace("cap-flags", server);
    for (const command of ["step", "run"]) {
      const argv =
        command === "step"
          ? ["step", "Open the drawer", "--target", "calendar", ...CALENDAR_MAP, flag, value]
          : ["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, flag, value];
      const { code, stderr } = await cli(argv, { cwd: dir, env: agentEnv() });
      expect(code).toBe(2);
      expect(stderr).toContain(`${command}: ${message}`);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("--max-llm-tokens", () => {
  // Each answer reports 100 input and 10 output tokens (the local server's default).
  const turns: Turn[] = [
    tapDrawer,
    done("the drawer is open"),
    call("tap", { ref: "n7" }),
    call("tap", { ref: "n5" }),
    call("tap", { ref: "n11" }),
    done("the theme picker is open"),
  ];

  test("counts every step of the trail: the answer that passes the cap fails its step, and its call does not run", async () => {
    server = startLlmServer(turns);
    const dir = agentWorkspace("tokens", server);
    const { code, stdout } = await cli(
      [
        "run",
        "trails/calendar/theme-in-words.trail.yaml",
        ...CALENDAR_MAP,
        "--max-llm-tokens",
        "500",
        "--reporter",
        "json",
        "--no-logging",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(code).toBe(1);
    const trail = (JSON.parse(stdout) as Report).trails[0]!;
    // Step 2 alone spent 330 tokens; with step 1's 220, its third answer passed 500.
    expect(trail.error).toBe(
      "step 2 failed: the agent (gateway/test-model): the model used 550 tokens in this trail, past --max-llm-tokens 500",
    );
    expect(trail.steps.map((s) => s.status)).toEqual(["passed", "failed", "skipped"]);
    expect(trail.steps[1]!.tools.map((t) => t.name)).toEqual(["tap", "tap"]);
    expect(trail.steps[1]!.agent!.tokens).toEqual({ input: 300, output: 30 });
    expect(server.requests).toHaveLength(5);
  });

  test("llm: defaults: max_tokens_per_trail is the cap when no flag gives one; the flag wins over it", async () => {
    server = startLlmServer(turns);
    const dir = agentWorkspace("tokens-config", server);
    withLlmDefaults(dir, "    max_tokens_per_trail: 200");
    const capped = await cli(
      ["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--reporter", "json", "--no-logging", "--no-save-recording"],
      { cwd: dir, env: agentEnv() },
    );
    expect(capped.code).toBe(1);
    expect((JSON.parse(capped.stdout) as Report).trails[0]!.error).toContain(
      "the model used 220 tokens in this trail, past llm: defaults: max_tokens_per_trail: 200 at trails/config/trailblaze.yaml:23:27",
    );
    expect(server.requests).toHaveLength(2);

    await server.stop();
    server = startLlmServer([...turns, call("assertVisible", { ref: "n6" }), done("Dark is offered")]);
    const again = agentWorkspace("tokens-flag", server);
    withLlmDefaults(again, "    max_tokens_per_trail: 200");
    const raised = await cli(
      ["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--max-llm-tokens", "5000", "--no-logging"],
      {
        cwd: again,
        env: agentEnv(),
      },
    );
    expect(raised.code).toBe(0);
  });

  test("an answer that reports 40M tokens is stopped at once, in step as in run", async () => {
    server = startLlmServer([{ ...tapDrawer, usage: { input: 40_000_000, output: 0 } } as Turn]);
    const dir = agentWorkspace("tokens-huge", server);
    const { code, stdout } = await step(dir, ["--max-llm-tokens", "100000"]);
    expect(code).toBe(1);
    expect(stdout).toContain("✗ the model used 40000000 tokens in this objective, past --max-llm-tokens 100000");
    expect(server.requests).toHaveLength(1);
  });
});
