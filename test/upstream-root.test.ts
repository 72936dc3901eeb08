// A workspace shaped like upstream's root one: several target trailmaps, no default target,
// framework library trailmaps (mobile, android) as dependencies and framework toolsets in
// tool_sets. A trail that names no target runs where upstream runs it: on the built-in default
// target when it calls only framework tools, on the one target that declares the tools it calls;
// a trail recorded only under desktop: runs on the Compose desktop driver.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";

const ROOT = join(REPO, "fixtures/upstream-root");

interface Report {
  trails: { id: string; status: string; error?: string; session?: { target: string; driver: string } }[];
}

async function run(...paths: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const result = await cli(["run", ...paths, "--reporter", "json", "--no-logging"], { cwd: ROOT });
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

describe("a trail that names no target, in a workspace of several", () => {
  test("calling only framework tools, it runs on the built-in default target, and says why", async () => {
    const { code, report, stderr } = await run("trails/clock/framework-only.trail.yaml");
    expect(code).toBe(0);
    expect(report.trails[0]).toMatchObject({ status: "passed", session: { target: "default", driver: "android-ondevice-accessibility" } });
    expect(stderr).toContain("note: target default: the trail names no target and calls only framework tools");
  });

  test("calling one target's per-file tool, it runs on that target", async () => {
    const { code, report, stderr } = await run("trails/notes/own-tool.trail.yaml");
    expect(code).toBe(0);
    expect(report.trails[0]).toMatchObject({ status: "passed", session: { target: "notes" } });
    expect(stderr).toContain("note: target notes: the trail names no target and calls its tools (notes_addNote)");
  });

  test("recorded only under desktop:, it runs on the Compose desktop driver", async () => {
    const { code, report } = await run("trails/desktop/desktop-only.trail.yaml");
    expect(code).toBe(0);
    expect(report.trails[0]).toMatchObject({ status: "passed", session: { target: "default", driver: "compose" } });
  });

  test("calling a tool no target declares, it is an error that names the tool and what to do", async () => {
    const { code, report } = await run("trails/mixed/unknown-tool.trail.yaml");
    expect(code).toBe(2);
    expect(report.trails[0]!.error).toContain(
      `several targets in ${join(ROOT, "trails/config")} (clock, notes) and the trail names none; no target declares all the tools it calls (somewhere_doThing) in its tools: or toolsets; pick one with --target ID`,
    );
  });
});

test("framework library trailmaps and toolsets need no folder or file: check finds only the planted trail", async () => {
  const result = await cli(["check", "--json"], { cwd: ROOT });
  const findings = (JSON.parse(result.stdout) as { findings: { severity: string; kind: string; file?: string }[] }).findings;
  expect(findings.map((finding) => [finding.severity, finding.kind, finding.file])).toEqual([["error", "trail", "trails/mixed/unknown-tool.trail.yaml"]]);
});
