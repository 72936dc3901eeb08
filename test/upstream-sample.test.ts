// A workspace shaped like upstream's examples/android-sample-app, run exactly as checked out: no
// node_modules anywhere, tools that import @trailblaze/scripting, the MCP SDK and zod. The runtime
// supplies its own copies (bundles, precompiled host servers and sources run with NODE_PATH alike),
// says so once, installs nothing, and lets a package the workspace installs win.
import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cliProcess, REPO } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

/** A fresh copy outside the repository, so no node_modules folder above it can help. */
const checkout = (key: string) =>
  workspaceCopy(join(REPO, "fixtures/upstream-sample"), `upstream-sample-${key}`, { folder: "notes-sample-app", outsideRepo: true });

interface Report {
  summary: { passed: number; failed: number; errors: number; unverified: number };
  trails: { steps: { status: string; unverified?: string; tools: { name: string; result: { message?: string } }[] }[] }[];
}

const NOTE =
  /^note: this workspace does not install (.+), which its tools import: trailblaze-ts supplies its own \((.+)\); install them in the workspace to choose the versions$/gm;

describe("a workspace checked out without node_modules", () => {
  for (const agent of ["host", "on-device"] as const) {
    test(`its trail passes with the ${agent} agent on the packages trailblaze-ts supplies, named once, with nothing installed`, async () => {
      const dir = checkout(agent);
      const run = await cliProcess(["run", "trails", "--agent", agent, "--reporter", "json", "--no-logging"], { cwd: dir });
      expect({ code: run.code, stderr: run.stderr.replace(NOTE, "").trim() }).toEqual({ code: 0, stderr: "" });
      const report = JSON.parse(run.stdout) as Report;
      // notes_checkSaved's assertVisibleWithText, made through ctx.tools, has no screen to check; the
      // trailhead's launchApp and notes_addNote's inputText (through ctx.tools) only acted on a device
      // with no screen. The tools' own results (words counted, a duration formatted) and the memory
      // assertion are checked for real: the trail passes, with those three steps unverified.
      expect(report.summary).toMatchObject({ passed: 1, failed: 0, errors: 0, unverified: 3 });
      expect(report.trails[0]!.steps.map((step) => [step.status, step.unverified])).toEqual([
        ["unverified", "nothing checked: launchApp acted on a simulated device with no screen loaded"],
        ["unverified", "nothing checked: notes_addNote only called inputText, which acted on a simulated device with no screen loaded"],
        ["passed", undefined],
        ["unverified", "assertVisibleWithText (through ctx.tools): no screen loaded"],
        ["passed", undefined],
      ]);
      const results = report.trails[0]!.steps.flatMap((step) => step.tools.map((tool) => [tool.name, tool.result.message]));
      expect(results).toContainEqual(["notes_countWords", '{"words":3}']);
      expect(results).toContainEqual(["notes_formatDuration", "1:15"]);
      // Each package is named in one note only, with its version.
      const named = [...run.stderr.matchAll(NOTE)].flatMap((match) => match[1]!.split(", "));
      expect(named.sort()).toEqual(["@modelcontextprotocol/sdk", "@trailblaze/scripting", "zod"]);
      expect(existsSync(join(dir, "node_modules"))).toBe(false);
      expect(lstatSync(join(dir, ".cache/trailblaze-packages/node_modules/zod")).isSymbolicLink()).toBe(true);
    });
  }

  test("--require-screen fails the first step that checked nothing: the trailhead, whose launchApp had no screen", async () => {
    // (The check notes_checkSaved makes through ctx.tools is unverified too: the test above reads its reason.)
    const run = await cliProcess(["run", "trails", "--agent", "on-device", "--require-screen", "--no-logging"], {
      cwd: checkout("require-screen"),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "step 1 failed: unverified: nothing checked: launchApp acted on a simulated device with no screen loaded, and --require-screen makes that a failure",
    );
  });

  test("a package the workspace installs is its own: the note leaves it out", async () => {
    const dir = checkout("installs-zod");
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(REPO, "node_modules/zod"), join(dir, "node_modules/zod"));
    const run = await cliProcess(["run", "trails", "--agent", "on-device", "--reporter", "json", "--no-logging"], { cwd: dir });
    expect(run.code).toBe(0);
    const named = [...run.stderr.matchAll(NOTE)].flatMap((match) => match[1]!.split(", "));
    expect(named.sort()).toEqual(["@modelcontextprotocol/sdk", "@trailblaze/scripting"]);
  });
});
