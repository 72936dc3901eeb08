// `trailblaze eval` on the calendar's captured map with two scripted models on the local model
// server: one that can drive the app (every step by the refs the outline shows) and one that cannot
// (it taps what is not there and gives up). The eval reports 100% and 0% side by side, with calls,
// tokens and cost per trail as the models spent them; the trail files are left as they were;
// --min-pass-rate fails the second, named; usage and configuration mistakes exit 2.
import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliUnderTestEnv, REPO, TEST_PATH, tempDir } from "./support/cli.ts";
import { agentEnv, CALENDAR_MAP } from "./support/agent-workspace.ts";
import { startLlmServer, type LlmServer } from "./support/llm-server.ts";
import { byModel, CALENDAR_PLANS, capable, evalWorkspace, hopeless } from "./support/scripted-models.ts";

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const GOOD = "gateway/test-model";
const BAD = "gateway/cheap-model";
const TRAILS = ["trails/calendar/drifted.trail.yaml", "trails/calendar/theme-in-words.trail.yaml"] as const;

const hashes = (dir: string) =>
  TRAILS.map((file) =>
    createHash("sha256")
      .update(readFileSync(join(dir, file)))
      .digest("hex"),
  );

interface EvalJson {
  version: number;
  repeat: number;
  minPassRate?: number;
  models: {
    model: string;
    runs: number;
    passed: number;
    passRate: number;
    calls: number;
    tokens: number;
    costUsd?: number;
    durationMs: number;
    belowMinPassRate?: boolean;
    trails: {
      file: string;
      runs: number;
      passed: number;
      passRate: number;
      calls: number;
      tokens: number;
      costUsd?: number;
      durationMs: number;
      failures: { index: number; step: string; count: number; lastError: string }[];
    }[];
  }[];
}

describe("eval on a captured map", () => {
  test("a model that drives it passes every run and one that cannot passes none, side by side; the trails are left as they were", async () => {
    server = startLlmServer([]);
    server.after = byModel({ "test-model": capable(CALENDAR_PLANS), "cheap-model": hopeless() });
    const dir = evalWorkspace("eval-json", server);
    const before = hashes(dir);
    const run = await cli(
      [
        "eval",
        "trails/calendar",
        "--llm",
        `${GOOD},${BAD}`,
        "--repeat",
        "2",
        "--workers",
        "2",
        ...CALENDAR_MAP,
        "--reporter",
        "json",
        "--no-logging",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as EvalJson;
    expect(report).toMatchObject({ version: 1, repeat: 2 });
    expect(report.models.map((m) => [m.model, m.runs, m.passed, m.passRate])).toEqual([
      [GOOD, 4, 4, 1],
      [BAD, 4, 0, 0],
    ]);
    const [good, bad] = report.models;
    // drifted: a tap and COMPLETED, an assertion and COMPLETED; theme-in-words: 2 + 4 + 2 calls. 320 tokens a call.
    expect(good!.trails.map((t) => [t.file, t.runs, t.passed, t.calls, t.tokens])).toEqual([
      [TRAILS[0], 2, 2, 4, 1280],
      [TRAILS[1], 2, 2, 8, 2560],
    ]);
    expect(good!.trails[1]!.costUsd).toBeCloseTo((8 * 300 * 2 + 8 * 20 * 8) / 1e6, 9);
    expect(good).toMatchObject({ calls: 6, tokens: 1920 });
    expect(good!.trails.every((t) => t.failures.length === 0)).toBe(true);
    // The hopeless model fails the first step of each trail in every run: a tap on nothing, then it gives up (540 tokens a call).
    expect(bad!.trails.map((t) => [t.file, t.runs, t.passed, t.calls, t.tokens])).toEqual([
      [TRAILS[0], 2, 0, 2, 1080],
      [TRAILS[1], 2, 0, 2, 1080],
    ]);
    expect(bad!.costUsd).toBeCloseTo((2 * 500 * 0.5 + 2 * 40 * 2) / 1e6, 9);
    for (const trail of bad!.trails) {
      expect(trail.failures).toHaveLength(1);
      expect(trail.failures[0]).toMatchObject({ index: 1, step: "Open the navigation drawer", count: 2 });
      expect(trail.failures[0]!.lastError).toBe(`the agent (${BAD}): the agent gave up: I cannot find what the objective names`);
    }
    expect(good!.durationMs).toBeGreaterThan(0);
    // Every step went to the agent (drifted's recording ignored), and nothing was written back.
    expect(server.requests.length).toBe(2 * (4 + 8) + 2 * (2 + 2));
    expect(hashes(dir)).toEqual(before);
  });

  test("the list shows a line per run, then the table of both models and the step that failed most", async () => {
    server = startLlmServer([]);
    server.after = byModel({ "test-model": capable(CALENDAR_PLANS), "cheap-model": hopeless() });
    const dir = evalWorkspace("eval-list", server);
    const run = await cli(["eval", TRAILS[1], "--llm", GOOD, "--llm", BAD, "--repeat", "1", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("Eval: 2 models × 1 trail × 1 run = 2 runs, every step through the agent");
    expect(lines[1]).toMatch(/^ {2}✓ theme-in-words \[gateway\/test-model #1\] {2}8 calls · 2,560 tokens · \$0\.0061 · \d/);
    expect(lines[2]).toMatch(/^ {2}✗ theme-in-words \[gateway\/cheap-model #1\] {2}2 calls · 1,080 tokens · \$0\.0007 · \d/);
    expect(lines[3]).toBe("      step 1: the agent gave up: I cannot find what the objective names");
    const table = run.stdout.slice(run.stdout.indexOf("\nmodel ") + 1);
    expect(table.split("\n")[0]).toMatch(/^model\s+trail\s+passed\s+pass rate\s+calls\s+tokens\s+cost\/run\s+time$/);
    expect(table).toMatch(
      /gateway\/test-model\s+trails\/calendar\/theme-in-words\.trail\.yaml\s+1\/1\s+100%\s+8\.0\s+2,560\s+\$0\.0061\s+\d/,
    );
    expect(table).toMatch(
      /gateway\/cheap-model\s+trails\/calendar\/theme-in-words\.trail\.yaml\s+0\/1\s+0%\s+2\.0\s+1,080\s+\$0\.0007\s+\d/,
    );
    expect(table).toContain(
      'Failed most:\n  gateway/cheap-model · trails/calendar/theme-in-words.trail.yaml\n    step 1 "Open the navigation drawer": failed in 1 of 1 run; last: the agent gave up: I cannot find what the objective names\n',
    );
    expect(lines.at(-2)).toMatch(/^gateway\/test-model 100% \(1\/1\) · gateway\/cheap-model 0% \(0\/1\) · 1 run a trail, in \d/);
  });

  test("--min-pass-rate is a gate: exit 1 naming the model below it; the reports are still written", async () => {
    server = startLlmServer([]);
    server.after = byModel({ "test-model": capable(CALENDAR_PLANS), "cheap-model": hopeless() });
    const dir = evalWorkspace("eval-gate", server);
    const run = await cli(
      [
        "eval",
        TRAILS[0],
        "--llm",
        `${GOOD},${BAD}`,
        "--repeat",
        "1",
        "--min-pass-rate",
        "90%",
        ...CALENDAR_MAP,
        "--reporter",
        "json=eval.json",
        "--no-logging",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: eval: gateway/cheap-model passed 0 of 1 run (0%), below --min-pass-rate 0.9\n");
    // json has a file, so the list is added on stdout; it marks the model below the gate.
    expect(run.stdout).toContain("gateway/cheap-model 0% (0/1) below 90%");
    expect(run.stdout).toContain("json report written to eval.json");
    const report = JSON.parse(readFileSync(join(dir, "eval.json"), "utf8")) as EvalJson;
    expect(report.minPassRate).toBe(0.9);
    expect(report.models.map((m) => m.belowMinPassRate ?? false)).toEqual([false, true]);

    const met = await cli(["eval", TRAILS[0], "--llm", GOOD, "--repeat", "1", "--min-pass-rate", "1", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(met.stderr).toBe("");
    expect(met.code).toBe(0);
  });
});

describe("runs are told apart by their place, not their labels", () => {
  test("two trail files with one id are two trails of the eval, each with its own runs", async () => {
    server = startLlmServer([]);
    server.after = byModel({ "test-model": capable(CALENDAR_PLANS), "cheap-model": hopeless() });
    const dir = evalWorkspace("eval-same-id", server);
    mkdirSync(join(dir, "trails/again"));
    copyFileSync(join(dir, TRAILS[0]), join(dir, "trails/again/drifted.trail.yaml"));
    const run = await cli(
      [
        "eval",
        TRAILS[0],
        "trails/again/drifted.trail.yaml",
        "--llm",
        GOOD,
        "--repeat",
        "2",
        ...CALENDAR_MAP,
        "--reporter",
        "json",
        "--no-logging",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as EvalJson;
    expect(report.models[0]!.trails.map((t) => [t.file, t.runs, t.passed])).toEqual([
      [TRAILS[0], 2, 2],
      ["trails/again/drifted.trail.yaml", 2, 2],
    ]);
  });
});

describe("an interrupted eval", () => {
  test("SIGINT: the runs that ended are reported, the one cut short is not counted against its model, exit 130", async () => {
    server = startLlmServer([]);
    // The first run is answered; the second run's first request never is.
    const drive = capable(CALENDAR_PLANS);
    server.after = (request) => (server!.requests.length > 4 ? { hang: true } : drive(request));
    const dir = evalWorkspace("eval-interrupt", server);
    const out = join(tempDir("eval-interrupt"), "eval.json");
    const child = Bun.spawn(
      [
        process.execPath,
        join(REPO, "src/cli/main.ts"),
        "eval",
        TRAILS[0],
        "--llm",
        GOOD,
        "--repeat",
        "3",
        ...CALENDAR_MAP,
        "--reporter",
        `list,json=${out}`,
        "--no-logging",
      ],
      {
        cwd: dir,
        env: { ...process.env, ...agentEnv(), ...(await cliUnderTestEnv()), PATH: TEST_PATH, NO_COLOR: "1" },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    let stdout = "";
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    while (!stdout.includes("✓ drifted [gateway/test-model #1]")) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += decoder.decode(value);
    }
    // The second run is waiting on the model.
    while (server.requests.length < 5) await Bun.sleep(20);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    const report = JSON.parse(readFileSync(out, "utf8")) as EvalJson & { interrupted?: string };
    expect(report.interrupted).toBe("interrupted by SIGINT");
    expect(report.models[0]).toMatchObject({ runs: 1, passed: 1, passRate: 1 });
  });
});

describe("eval's usage and configuration errors exit 2 before anything runs", () => {
  const cases: [string, string[], string][] = [
    ["no trail", ["eval", "--llm", GOOD], "eval: name at least one trail file or folder"],
    [
      "a repeat of 0",
      ["eval", TRAILS[0], "--llm", GOOD, "--repeat", "0"],
      'eval: --repeat expects a whole number of runs from 1 to 1000, got "0"',
    ],
    [
      "a rate above 1",
      ["eval", TRAILS[0], "--llm", GOOD, "--min-pass-rate", "1.5"],
      "eval: --min-pass-rate expects a share of runs from 0 to 1",
    ],
    ["a model twice", ["eval", TRAILS[0], "--llm", `${GOOD},${GOOD}`], `eval: --llm names ${GOOD} twice; name each model once`],
    ["no model", ["eval", TRAILS[0], "--llm", "none"], "eval: --llm none leaves nothing to measure"],
    ["a flag eval does not take", ["eval", TRAILS[0], "--llm", GOOD, "--self-heal"], "eval: unknown option --self-heal"],
    [
      "a reporter eval does not have",
      ["eval", TRAILS[0], "--llm", GOOD, "--reporter", "junit"],
      'eval: --reporter expects one of list, json, html, got "junit"',
    ],
    [
      "two reporters on stdout",
      ["eval", TRAILS[0], "--llm", GOOD, "--reporter", "list,json"],
      "eval: --reporter list,json: list and json would each print on stdout",
    ],
    ["an unknown provider", ["eval", TRAILS[0], "--llm", `${GOOD},nowhere/m`], 'eval: --llm: no provider "nowhere"'],
  ];
  for (const [what, argv, message] of cases) {
    test(what, async () => {
      server = startLlmServer([]);
      const dir = evalWorkspace("eval-usage", server);
      const run = await cli([...argv, "--no-logging"], { cwd: dir, env: agentEnv() });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`error: ${message}`);
      expect(server.requests).toHaveLength(0);
    });
  }

  test("no --llm and no model set: says how to name one, or what turned the workspace's model off", async () => {
    server = startLlmServer([]);
    const dir = evalWorkspace("eval-nomodel", server);
    const config = join(dir, "trails/config/trailblaze.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace("  defaults:\n    model: gateway/test-model\n", ""));
    expect(readFileSync(config, "utf8")).not.toContain("defaults:");
    const unset = await cli(["eval", TRAILS[0], "--no-logging"], { cwd: dir, env: agentEnv() });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      "error: eval: name the models to compare with --llm provider/model[,provider/model…]; no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in ",
    );
    const off = await cli(["eval", TRAILS[0], "--no-logging"], { cwd: dir, env: agentEnv({ TRAILBLAZE_DEFAULT_MODEL: "none" }) });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain(
      "error: eval: name the models to compare with --llm provider/model[,provider/model…]; TRAILBLAZE_DEFAULT_MODEL=none turns the built-in agent's model off",
    );
    expect(server.requests).toHaveLength(0);
  });

  test("a model without its key stops the eval before any run, naming the variable", async () => {
    server = startLlmServer([]);
    const dir = evalWorkspace("eval-nokey", server);
    const run = await cli(["eval", TRAILS[0], "--llm", GOOD, ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv({ GATEWAY_API_KEY: "" }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: eval: gateway/test-model needs an API key in $GATEWAY_API_KEY, which is not set");
    expect(server.requests).toHaveLength(0);
  });

  test("a model whose key is refused in every run: exit 2 after the report, naming it", async () => {
    server = startLlmServer([]);
    server.after = { status: 401, body: { error: { message: "bad key" } } };
    const dir = evalWorkspace("eval-refused", server);
    const run = await cli(["eval", TRAILS[0], "--llm", GOOD, "--repeat", "2", ...CALENDAR_MAP, "--reporter", "json", "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "error: eval: gateway/test-model could not be used in any run: step 1 failed: the agent (gateway/test-model): gateway/test-model",
    );
    expect(run.stderr).toContain("refused the API key (HTTP 401)");
    expect((JSON.parse(run.stdout) as EvalJson).models[0]).toMatchObject({ runs: 2, passed: 0 });
  });

  test("--help says what eval does and its exit codes", async () => {
    const run = await cli(["eval", "--help"], { cwd: process.cwd() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: npx trailblaze eval <trail-file|dir>... --llm PROVIDER/MODEL[,PROVIDER/MODEL…]");
    expect(run.stdout).toContain("--min-pass-rate R");
    expect(run.stdout).toContain("Exit codes: 0 the eval ran");
    expect(existsSync(join(process.cwd(), "eval.json"))).toBe(false);
  });
});
