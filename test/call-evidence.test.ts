// What a call leaves behind comes back with its result (Session.callWithEvidence): a tool that
// writes lines to stderr (the guest console on-device) and throws at once has exactly its own
// lines in the evidence, call after call, on every transport, with nothing slept; a trail's failed
// step shows them; and what a call did on the simulated screen is its own.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const WORKSPACE = join(REPO, "fixtures/evidence");
const SOURCE = "tools/complain.ts";
/** Calls in a row: each must have its lines, with no time given for them to arrive. */
const CALLS = 60;

async function start(flags: SessionFlags, env: Record<string, string> = {}): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: WORKSPACE }));
  const spec = resolveSessionSpec(
    workspace,
    { "no-logging": true, target: "evidence", ...flags },
    { cwd: WORKSPACE, env: { ...process.env, PATH: TEST_PATH, ...env } },
  );
  return Session.start(spec, {});
}

const WHERE = [
  ["on the host (stdio), precompiled: its failed answers marked on stderr", { agent: "host" }, {}],
  ["on the host (stdio), from source: no marks", { agent: "host" }, { TRAILBLAZE_PRECOMPILE: "0" }],
  ["on-device", { agent: "on-device" }, {}],
] as const;

describe.each(WHERE)("a tool that writes lines and throws, %s", (_where, flags, env) => {
  test(`each of ${CALLS} calls comes back with its own lines, and a success with none`, async () => {
    const session = await start(flags, env);
    try {
      for (let call = 1; call <= CALLS; call++) {
        const lines = 1 + (call % 4);
        const { result, evidence } = await session.callWithEvidence("evidence_complain", { call, lines });
        expect(result.variant).toBe("ExceptionThrown");
        const prefix = flags.agent === "host" ? "" : "error ";
        expect({ call, output: evidence.output }).toEqual({
          call,
          output: { source: SOURCE, lines: Array.from({ length: lines }, (_, i) => `${prefix}call ${call} line ${i + 1}`) },
        });
      }
      // A success carries no output: it is evidence of a failure.
      expect((await session.callWithEvidence("evidence_mutter", { call: 0 })).evidence).toEqual({});
    } finally {
      await session.close();
    }
  }, 60_000);
});

describe("the simulated screen", () => {
  test("each call comes back with what it did there, and nothing of the call before", async () => {
    const session = await start({ agent: "host", capture: join(REPO, "fixtures/screens/android-login.json") });
    try {
      const seen = await session.callWithEvidence("assertVisibleWithText", { text: "Remember me" });
      expect(seen.result.variant).toBe("Success");
      expect(seen.evidence.screen).toMatchObject({ moves: [], checks: [], misses: [] });
      expect(seen.evidence.screen!.nodes).toHaveLength(1);
      const missed = await session.callWithEvidence("assertVisibleWithText", { text: "Not on this screen" });
      expect(missed.result.variant).not.toBe("Success");
      // A built-in has no server output; the earlier call's node is not this one's.
      expect(missed.evidence.output).toBeUndefined();
      expect(missed.evidence.screen!.nodes).toEqual([]);
      expect(missed.evidence.screen!.misses).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe("a trail's failed step", () => {
  // The session on the main thread, and on a run thread (TRAILBLAZE_RUN_THREADS=2).
  for (const [where, threads] of [
    ["host", "0"],
    ["host", "2"],
    ["on-device", "0"],
    ["on-device", "2"],
  ] as const) {
    test(`shows the lines its call wrote, not an earlier step's (${where}, TRAILBLAZE_RUN_THREADS=${threads})`, async () => {
      const logs = tempDir("call-evidence-logs");
      const run = await cli(
        ["run", "trails/complain.trail.yaml", "--agent", where, "--reporter", "json", "--logs", logs, "--workers", "2"],
        { cwd: WORKSPACE, env: { TRAILBLAZE_RUN_THREADS: threads } },
      );
      const trail = JSON.parse(run.stdout).trails[0];
      const step = trail.steps[1];
      const prefix = where === "host" ? "" : "error ";
      expect(step.failure).toEqual({
        tool: "evidence_complain",
        args: { call: 2, lines: 2 },
        variant: "ExceptionThrown",
        message: "call 2 gave up",
        line: 14,
        col: 11,
        stderr: { source: SOURCE, lines: [`${prefix}call 2 line 1`, `${prefix}call 2 line 2`] },
      });
      // The mark a host server writes before each answer (core/answer-mark.ts) is in no log.
      if (where === "host") {
        expect(readFileSync(join(logs, trail.session.id, "subprocess_stderr_tools_complain.log"), "utf8")).toBe(
          "call 1 went fine\ncall 2 line 1\ncall 2 line 2\n",
        );
      }
    }, 60_000);
  }
});
