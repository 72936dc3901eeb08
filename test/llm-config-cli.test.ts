// The `llm:` block as each command reads it, one reading for all (llm/load-llm-config.ts): `check`
// reports its wrong types at file:line:col and knows the model it chooses, `run` warns of them as of
// unknown keys and goes on with its recordings, `step` refuses them (exit 2). A step that has no
// agent says what turned the model off and names the workspace file actually read.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CheckReport } from "../src/check/check-workspace.ts";
import { cli, REPO } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const DEMO = join(REPO, "fixtures/demo");

function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

const BAD_LLM = `llm:
  providers:
    gw:
      type: openai_compat
      base_url: http://127.0.0.1:9/v1
      models:
        - id: m1
          vision: "yes please"
          dial: 11
  defaults:
    model: gw/m1
`;

const GOOD_LLM = `llm:
  providers:
    gw:
      type: openai_compatible
      base_url: http://127.0.0.1:9/v1
      auth: { required: false }
      models: [{ id: m1 }]
  defaults:
    model: gw/m1
`;

const BAD_TYPE =
  'trailblaze-config/trailblaze.yaml:4:13 llm.providers.gw.type: expected "openai", "anthropic", "google", "ollama", "openrouter" or "openai_compatible", got a string ("openai_compat"); did you mean "openai_compatible" or "openai"?';
const BAD_VISION =
  'trailblaze-config/trailblaze.yaml:8:19 llm.providers.gw.models[0].vision: expected a boolean, got a string ("yes please")';

/** The demo workspace with `llm` as its trailblaze-config/trailblaze.yaml and one trail whose step has no recording. */
function workspace(key: string, llm?: string): string {
  const dir = workspaceCopy(DEMO, `llm-cli-${key}`);
  if (llm !== undefined) write(dir, "trailblaze-config/trailblaze.yaml", llm);
  write(dir, "trails/words/open.trail.yaml", "config:\n  target: myapp\ntrail:\n  - step: Open the settings\n");
  return dir;
}

/** An environment with no model chosen in it, and a home with no ~/.trailblaze. */
const env = (extra: Record<string, string> = {}) => ({ TRAILBLAZE_DEFAULT_MODEL: undefined, HOME: "/nonexistent", ...extra });

const UNRECORDED = "this step needs an agent: it has no recording (this session replays android, all, tools), and";
const RECORD_IT = "; or record tool calls for it under recording: tools:";

describe("check", () => {
  test("reports the llm: block's wrong types at file:line:col as errors and its unknown keys as warnings (exit 1)", async () => {
    const dir = workspace("check-bad", BAD_LLM);
    const run = await cli(["check", "trails/words", "--agent", "host", "--json"], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.findings.filter((f) => f.kind === "config").map((f) => [f.severity, f.message, f.line, f.col])).toEqual([
      ["error", BAD_TYPE, 4, 13],
      ["error", BAD_VISION, 8, 19],
    ]);
    // With the block unusable, the step that needs the agent says so.
    expect(report.findings.find((f) => f.kind === "trail-step")?.message).toBe(
      `trails/words/open.trail.yaml:4:5 step 1 "Open the settings": ${UNRECORDED} the built-in agent's model cannot be used: its llm: configuration has problems (above)${RECORD_IT}`,
    );
  });

  test("knows the model llm: defaults: model chooses, and says a step with no recording goes to it", async () => {
    const dir = workspace("check-model", GOOD_LLM.replace("      models:", "      future_knob: 3\n      models:"));
    const run = await cli(["check", "trails/words", "--agent", "host", "--json"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.findings.map((f) => [f.severity, f.kind, f.message])).toEqual([
      [
        "warning",
        "config",
        'trailblaze-config/trailblaze.yaml:7:7 llm.providers.gw: unknown key "future_knob", ignored (known: enabled, type, description, base_url, chat_completions_path, headers, auth, models)',
      ],
      [
        "warning",
        "trail-step",
        'trails/words/open.trail.yaml:4:5 step 1 "Open the settings": this step goes to the built-in agent: it has no recording (this session replays android, all, tools), ' +
          "and run gives it to gw/m1 (chosen by trailblaze-config/trailblaze.yaml:10:12 defaults.model), which asks the model on each run until a passing one saves its calls as the step's recording",
      ],
    ]);
  });

  test("with the model turned off by TRAILBLAZE_DEFAULT_MODEL=none, says so", async () => {
    const dir = workspace("check-off", GOOD_LLM);
    const run = await cli(["check", "trails/words", "--agent", "host", "--json"], {
      cwd: dir,
      env: env({ TRAILBLAZE_DEFAULT_MODEL: "none" }),
    });
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.findings.map((f) => f.message)).toEqual([
      `trails/words/open.trail.yaml:4:5 step 1 "Open the settings": ${UNRECORDED} TRAILBLAZE_DEFAULT_MODEL=none turns the built-in agent's model off: give --llm provider/model, or unset TRAILBLAZE_DEFAULT_MODEL (docs/agent.md)${RECORD_IT}`,
    ]);
  });
});

describe("run", () => {
  test("warns of the llm: block's wrong types as of unknown keys, and replays a recorded trail (exit 0)", async () => {
    const dir = workspace("run-bad", BAD_LLM);
    const run = await cli(["run", "trails/login.trail.yaml", "--no-logging"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `warning: ${BAD_TYPE}\nwarning: ${BAD_VISION}\n` +
        "note: the built-in agent cannot use its model until llm: is fixed: a step that goes to it fails\n",
    );
  });

  test.each([
    [
      "--use-recorded-steps",
      ["--use-recorded-steps"],
      {},
      "--use-recorded-steps replays recordings only (no model): run without it to give such a step to the built-in agent",
    ],
    [
      "TRAILBLAZE_DEFAULT_MODEL=none",
      [],
      { TRAILBLAZE_DEFAULT_MODEL: "none" },
      "TRAILBLAZE_DEFAULT_MODEL=none turns the built-in agent's model off: give --llm provider/model, or unset TRAILBLAZE_DEFAULT_MODEL (docs/agent.md)",
    ],
  ])("a step with no recording, the model turned off by %s, says what turned it off", async (_what, flags, extra, why) => {
    const dir = workspace(`run-off-${flags.length}`, GOOD_LLM);
    const run = await cli(["run", "trails/words", "--reporter", "json", "--no-logging", ...flags], { cwd: dir, env: env(extra) });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { trails: { error: string }[] };
    expect(report.trails[0]!.error).toBe(`step 1 failed: ${UNRECORDED} ${why}${RECORD_IT}`);
  });

  test("with no model chosen at all, names the file it reads llm: from (trailblaze-config/ here)", async () => {
    const dir = workspace("run-none");
    const run = await cli(["run", "trails/words", "--reporter", "json", "--no-logging"], { cwd: dir, env: env() });
    const report = JSON.parse(run.stdout) as { trails: { error: string }[] };
    expect(report.trails[0]!.error).toBe(
      `step 1 failed: ${UNRECORDED} no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in trailblaze-config/trailblaze.yaml (docs/agent.md)${RECORD_IT}`,
    );
  });
});

describe("step", () => {
  test("refuses the llm: block's wrong types (exit 2), at file:line:col", async () => {
    const dir = workspace("step-bad", BAD_LLM);
    const run = await cli(["step", "Open the settings", "--target", "myapp"], { cwd: dir, env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: 2 configuration problems:\n  ${BAD_TYPE}\n  ${BAD_VISION}\n`);
  });

  test("with the model turned off, says what turned it off (exit 2)", async () => {
    const dir = workspace("step-off", GOOD_LLM);
    const off = await cli(["step", "Open the settings", "--target", "myapp"], { cwd: dir, env: env({ TRAILBLAZE_DEFAULT_MODEL: "none" }) });
    expect(off).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: step: TRAILBLAZE_DEFAULT_MODEL=none turns the built-in agent's model off: give --llm provider/model, or unset TRAILBLAZE_DEFAULT_MODEL (docs/agent.md)\n",
    });
    const flag = await cli(["verify", "Settings is open", "--target", "myapp", "--llm", "none"], { cwd: dir, env: env() });
    expect(flag.stderr).toBe(
      "error: verify: --llm none turns the built-in agent's model off: give --llm provider/model instead (docs/agent.md)\n",
    );
  });
});
