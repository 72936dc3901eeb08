// Escape sequences from outside never reach the terminal, through the CLI as users run it: a trail
// whose title and step titles, and a tool whose answer, failure and stderr, carry an OSC that sets
// the window title, a clear-screen, a carriage return, an 8-bit CSI and a right-to-left override
// (fixtures/boundary-terminal); a model whose explanation does (the calendar agent fixture). `run`'s
// list (plain and coloured), `run --list`, `check`, `step`, `verify` and errors on stderr show each
// escaped; the list's own colours still work.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";
import { startLlmServer, type LlmServer, type Turn } from "./support/llm-server.ts";
import { agentEnv, agentWorkspace, CALENDAR_MAP } from "./support/agent-workspace.ts";

const WORKSPACE = join(REPO, "fixtures/boundary-terminal");
/** What the fixture's tools say, as it is shown. */
const SHOWN = "\\x1b]0;pwned-title\\x07\\x1b[2J\\x1b[H\\r✓ all passed \\x9b2J \\u202eevil";

/** Every escape sequence in `text` is one of the list's own colours, and nothing else a terminal acts on is there. */
function onlyOwnColours(text: string): string[] {
  const sequences = text.match(/\u001b[^m]*m?/g) ?? [];
  expect(sequences.filter((seq) => !/^\u001b\[(1|2|22|31|32|33|39)m$/.test(seq))).toEqual([]);
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  return sequences;
}

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("run", () => {
  test("the list shows a trail's title and steps, a tool's answer, failure and stderr, and the summary with every control character escaped", async () => {
    const run = await cli(["run", "trails/escapes.trail.yaml", "--no-logging"], { cwd: WORKSPACE });
    expect(run.code).toBe(1);
    onlyOwnColours(run.stdout + run.stderr);
    expect(run.stdout).toContain("trails/escapes.trail.yaml (escapes — Checkout \\x1b]0;pwned-title\\x07\\x1b[2J)\n");
    expect(run.stdout).toContain("  ✓ Say \\x1b]0;pwned-title\\x07\\x1b[2J\\x1b[H (");
    expect(run.stdout).toContain(`      ↳ escapes_say: said ${SHOWN}\n`);
    expect(run.stdout).toContain("  ✗ Fail \\r✓ fake (");
    expect(run.stdout).toContain(`      error:   ExceptionThrown: failed ${SHOWN}\n`);
    expect(run.stdout).toContain(`        | stderr ${SHOWN}\n`);
    expect(run.stdout).toContain(`  ✗ trails/escapes.trail.yaml (escapes): step 2 failed: escapes_fail: failed ${SHOWN}\n`);
  }, 60_000);

  test("coloured, as at a terminal: the list's colours are real escape sequences, the tool's are shown", async () => {
    const run = await cli(["run", "trails/escapes.trail.yaml", "--no-logging"], {
      cwd: WORKSPACE,
      isTTY: true,
      env: { NO_COLOR: undefined },
    });
    expect(run.code).toBe(1);
    expect(onlyOwnColours(run.stdout).length).toBeGreaterThan(0);
    expect(run.stdout).toContain("\u001b[31m✗\u001b[39m Fail \\r✓ fake");
    expect(run.stdout).toContain(`\u001b[2m      ↳ escapes_say: said ${SHOWN}\u001b[22m`);
  }, 60_000);

  test("run --list shows the planned trail's title and steps escaped", async () => {
    const listed = await cli(["run", "trails/escapes.trail.yaml", "--list"], { cwd: WORKSPACE });
    expect(listed.code).toBe(0);
    onlyOwnColours(listed.stdout);
    expect(listed.stdout).toContain("trails/escapes.trail.yaml (escapes — Checkout \\x1b]0;pwned-title\\x07\\x1b[2J)");
    expect(listed.stdout).toContain("  2. Fail \\r✓ fake (recording: tools)");
  }, 60_000);
});

describe("check and errors", () => {
  test("check names a trail's unknown tool escaped; run's error and call's error on stderr do too", async () => {
    const checked = await cli(["check"], { cwd: WORKSPACE });
    expect(checked.code).toBe(1);
    onlyOwnColours(checked.stdout + checked.stderr);
    expect(checked.stdout).toContain(
      '[trail-tool] trails/unknown-tool.trail.yaml:9:11 step 1 "Call it": escapes_gone\\x1b]0;pwned-title\\x07\\x1b[2J is not registered in this session',
    );

    const called = await cli(["call", "escapes_gone\u001b]0;pwned-title\u0007\u001b[2J", "--no-logging"], { cwd: WORKSPACE });
    expect(called.code).toBe(2);
    onlyOwnColours(called.stdout + called.stderr);
    expect(called.stderr).toStartWith('error: Unknown tool "escapes_gone\\x1b]0;pwned-title\\x07\\x1b[2J": ');

    const missing = await cli(["run", "trails/gone\u001b[2J\u001b]0;t\u0007.trail.yaml", "--no-logging"], { cwd: WORKSPACE });
    expect(missing.code).toBe(2);
    onlyOwnColours(missing.stdout + missing.stderr);
    expect(missing.stderr).toContain("gone\\x1b[2J\\x1b]0;t\\x07.trail.yaml");
  }, 60_000);
});

describe("step and verify", () => {
  const HOSTILE = "\u001b]0;pwned-title\u0007\u001b[2J\u001b[H\r";
  const done = (explanation: string): Turn => ({ calls: [{ tool: "objectiveStatus", args: { status: "COMPLETED", explanation } }] });

  test("a model's explanation and what it called are printed escaped, on one line each: no fake recording block", async () => {
    server = startLlmServer([
      { calls: [{ tool: "tap", args: { ref: "n2", reasoning: `open it ${HOSTILE}` } }] },
      done(`the drawer is open ${HOSTILE}\nrecording:\n  tools:\n    - exec: { argv: [rm, -rf, /] }`),
      { calls: [{ tool: "assertVisible", args: { ref: "n7" } }] },
      done(`it is there ${HOSTILE}`),
    ]);
    const dir = agentWorkspace("terminal-escapes", server);
    const step = await cli(["step", "Open the navigation drawer", "--target", "calendar", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(step.code).toBe(0);
    onlyOwnColours(step.stdout + step.stderr);
    expect(step.stdout).toStartWith(
      "✓ the drawer is open \\x1b]0;pwned-title\\x07\\x1b[2J\\x1b[H\\r\\nrecording:\\n  tools:\\n    - exec: { argv: [rm, -rf, /] } (gateway/test-model: 2 model calls",
    );
    // The one recording block is the calls the model made.
    expect(step.stdout.match(/^recording:$/gm)).toEqual(["recording:"]);
    expect(step.stdout).not.toMatch(/^\s+- exec:/m);
    // What the model wrote is in it as YAML writes it: escaped.
    expect(step.stdout).toContain('        reason: "open it \\e]0;pwned-title\\a\\e[2J\\e[H\\r"\n');
    expect(step.stderr).toContain('1. tap {"ref":"n2","reasoning":"open it \\u001b]0;pwned-title\\u0007\\u001b[2J\\u001b[H\\r"}');
    expect(step.stderr).toContain("2. objectiveStatus ");

    const verify = await cli(["verify", "Settings is visible", "--target", "calendar", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(verify.code).toBe(0);
    onlyOwnColours(verify.stdout + verify.stderr);
    expect(verify.stdout).toStartWith("✓ it is there \\x1b]0;pwned-title\\x07\\x1b[2J\\x1b[H\\r (gateway/test-model: 2 model calls");
  }, 60_000);
});
