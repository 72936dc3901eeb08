// An agent's step is what its calls checked, as a recorded step is: on a device with no screen, a
// step in words whose calls could not check (a tap, an assertion) or only acted (a tap at a point)
// is unverified, its turns say why, and --require-screen fails it. A call that checks for real (the
// target's own tool) passes. The model is the local
// wire-format server (test/support/llm-server.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { call, startLlmServer, type LlmServer, type Turn } from "./support/llm-server.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/agent");
const KEY = "sk-test-unverified-9a1b";
const THEME = "trails/calendar/theme-in-words.trail.yaml";
const NO_SCREEN = "no screen loaded";
const ACTED = "nothing checked: tapOnPoint acted on a simulated device with no screen loaded";

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const done = (explanation: string): Turn => call("objectiveStatus", { status: "COMPLETED", explanation });

/** The three steps of theme-in-words, done with no screen: a tap by ref, a tap at a point, an assertion by ref. */
const NO_SCREEN_TURNS: Turn[] = [
  call("tap", { ref: "n3" }),
  done("tapped the drawer button"),
  call("tapOnPoint", { x: 40, y: 60 }),
  done("tapped through to Theme"),
  call("assertVisible", { ref: "n7" }),
  done("Dark is offered"),
];

interface Report {
  trails: {
    status: string;
    unverified: number;
    steps: { status: string; unverified?: string; failure?: { message: string }; agent?: { turns: { unverified?: string }[] } }[];
  }[];
  summary: Record<string, number>;
}

/** A copy of the agent fixture whose gateway is `llm`. */
function workspace(key: string, llm: LlmServer): string {
  const dir = workspaceCopy(FIXTURE, `agent-unverified-${key}`);
  const anchor = join(dir, "trails/config/trailblaze.yaml");
  writeFileSync(anchor, readFileSync(anchor, "utf8").replace("http://127.0.0.1:9/v1", `${llm.url}/v1`));
  return dir;
}

const env = () => ({ GATEWAY_API_KEY: KEY, HOME: tempDir("agent-unverified-home") });

async function runJson(dir: string, args: string[]) {
  const run = await cli(["run", ...args, "--reporter", "json", "--no-logging"], { cwd: dir, env: env() });
  return { ...run, report: JSON.parse(run.stdout) as Report };
}

describe("steps in words on a device with no screen", () => {
  test("are unverified, each turn saying why; the trail ran with nothing verified, and saves only what names something", async () => {
    server = startLlmServer(NO_SCREEN_TURNS);
    const dir = workspace("trail", server);
    const { code, report } = await runJson(dir, [THEME]);
    expect(code).toBe(0);
    const [trail] = report.trails;
    expect(trail!.status).toBe("unverified");
    expect(trail!.steps.map((s) => [s.status, s.unverified])).toEqual([
      ["unverified", NO_SCREEN],
      ["unverified", ACTED],
      ["unverified", NO_SCREEN],
    ]);
    // The call's turn carries what it checked; objectiveStatus's turn checks nothing and says nothing.
    expect(trail!.steps.map((s) => s.agent!.turns.map((t) => t.unverified))).toEqual([
      [NO_SCREEN, undefined],
      ["acted on a simulated device with no screen loaded", undefined],
      [NO_SCREEN, undefined],
    ]);
    expect(report.summary).toMatchObject({ passed: 0, unverifiedTrails: 1, unverified: 3 });

    // What it saved: the tap at a point; a ref the agent acted on names no node without a screen, so
    // those steps keep no recording (the next run asks the model again).
    const saved = readFileSync(join(dir, THEME), "utf8");
    expect(saved).toContain("  - step: Open Settings, then General, then Theme\n    recording:\n      android:\n        - tapOnPoint:");
    expect(saved).toContain("  - step: Open the navigation drawer\n  - step:");
  });

  test("the list marks them ⚠, not ✓, and says why the one that only acted checked nothing", async () => {
    server = startLlmServer(NO_SCREEN_TURNS);
    const dir = workspace("list", server);
    const run = await cli(["run", THEME, "--no-logging", "--no-save-recording"], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("✓");
    expect(run.stdout).toMatch(/\n {2}⚠ Open Settings, then General, then Theme \(\d+ ms\)\n/);
    expect(run.stdout).toContain(`      ⚠ ${ACTED}\n`);
    expect(run.stdout).toMatch(/\n {2}⚠ \[verify\] The theme picker offers a dark theme \(\d+ ms\)\n/);
    expect(run.stdout).toContain("  nothing verified: no step checked anything for real (3 unverified steps;");
    expect(run.stdout).toContain("\n0 passed, 1 ran with nothing verified, 0 failed, 3 unverified steps (1 trail)");
  });

  test("--require-screen fails the first, as it fails a recorded step", async () => {
    server = startLlmServer(NO_SCREEN_TURNS);
    const dir = workspace("require", server);
    const { code, report } = await runJson(dir, [THEME, "--require-screen", "--no-save-recording"]);
    expect(code).toBe(1);
    const [trail] = report.trails;
    expect(trail!.status).toBe("failed");
    expect(trail!.steps.map((s) => s.status)).toEqual(["failed", "skipped", "skipped"]);
    expect(trail!.steps[0]!.failure!.message).toBe(`unverified: ${NO_SCREEN}, and --require-screen makes that a failure`);
  });

  test("a step whose call checks for real (the target's own tool) passes", async () => {
    server = startLlmServer([call("notes_addNote", { text: "oat milk" }), done("added")]);
    const dir = workspace("checked", server);
    const { code, report } = await runJson(dir, ["trails/notes/add-note-in-words.trail.yaml", "--require-screen", "--no-save-recording"]);
    expect(code).toBe(0);
    expect(report.trails[0]!.status).toBe("passed");
    expect(report.trails[0]!.steps[0]!.agent!.turns.map((t) => t.unverified)).toEqual([undefined, undefined]);
  });
});

describe("verify at the terminal with no screen", () => {
  test("prints ⚠ and why, exits 0; --json says unverified; --require-screen exits 1", async () => {
    const turns = [call("assertVisible", { ref: "n7" }), done("Dark is offered")];
    server = startLlmServer([...turns, ...turns, ...turns]);
    const dir = workspace("verify", server);
    const words = ["verify", "Dark is offered", "--target", "calendar", "--no-logging"];
    const plain = await cli(words, { cwd: dir, env: env() });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toStartWith(`⚠ Dark is offered (gateway/test-model: 2 model calls`);
    expect(plain.stdout).toContain(`\nunverified: ${NO_SCREEN}\n`);
    const json = await cli([...words, "--json"], { cwd: dir, env: env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "completed", unverified: NO_SCREEN });
    const required = await cli([...words, "--require-screen"], { cwd: dir, env: env() });
    expect(required.code).toBe(1);
  });
});
