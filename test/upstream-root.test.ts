// A workspace shaped like upstream's root one: several target trailmaps, no default target,
// framework library trailmaps (mobile, android) as dependencies and framework toolsets in
// tool_sets. A trail that names no target runs where upstream runs it: on the built-in default
// target when it calls only framework tools, on the one target that declares the tools it calls;
// a trail recorded only under desktop: runs on the Compose desktop driver. And upstream's run
// flags: --tags, --args-file, --device, --all-devices, --test-name.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { cli, REPO, tempDir } from "./support/cli.ts";

const ROOT = join(REPO, "fixtures/upstream-root");

interface Report {
  trails: { id: string; status: string; error?: string; session?: { id: string; target: string; driver: string } }[];
}

async function run(...args: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const result = await cli(["run", ...args, "--reporter", "json", "--no-logging"], { cwd: ROOT });
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

test("check: framework library trailmaps and toolsets need no file; trail_validation.exempt makes a target's trail findings warnings", async () => {
  const result = await cli(["check", "--json"], { cwd: ROOT });
  const findings = (JSON.parse(result.stdout) as { findings: { severity: string; kind: string; file?: string; message: string }[] })
    .findings;
  expect(findings.map((finding) => [finding.severity, finding.kind, finding.file])).toEqual([
    ["error", "trail", "trails/mixed/unknown-tool.trail.yaml"],
    ["warning", "trail-tool", "trails/clock/registered-later.trail.yaml"],
  ]);
  expect(findings[1]!.message).toEndWith("(exempt: alarm tools are registered at session start by a server check does not know)");
  expect(result.code).toBe(1);
});

describe("upstream's run flags", () => {
  test("--tags: only trails carrying any of them run (repeatable or comma-separated); untagged ones are left out, with a note", async () => {
    const comma = await run("trails", "--tags", "smoke,alarms");
    expect(comma.report.trails.map((t) => t.id).sort()).toEqual(["clock/alarm-args", "clock/framework-only", "notes/own-tool"]);
    const repeated = await run("trails", "--tags", "notes", "--tags", "nothing");
    expect(repeated.report.trails.map((t) => t.id)).toEqual(["notes/own-tool"]);
    expect(repeated.stderr).toContain("note: --tags notes,nothing: 5 of 6 trail(s) carry none of these tags and are left out");
  });

  test("--args-file: a YAML map of args, lists as JSON, applied before --arg; a null value is an error at its line", async () => {
    const fromFile = await run("trails/clock/alarm-args.trail.yaml", "--args-file", "args/alarm.yaml");
    expect(fromFile.report.trails[0]).toMatchObject({ status: "passed" });
    const overridden = await run("trails/clock/alarm-args.trail.yaml", "--args-file", "args/alarm.yaml", "--arg", "time=07:00");
    expect(overridden.report.trails[0]).toMatchObject({ status: "failed" });
    const dir = tempDir("args-file");
    writeFileSync(join(dir, "bad.yaml"), "time: '06:45'\ndays:\n");
    const bad = await cli(["run", "trails/clock/alarm-args.trail.yaml", "--args-file", join(dir, "bad.yaml")], { cwd: ROOT });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(dir, "bad.yaml")}:2:1 days: an arg has no null value; write '' for an empty string`);
  });

  test("--device: each trail once per platform, each result labelled; --all-devices: the platforms a trail records for", async () => {
    const both = await run("trails/desktop/desktop-only.trail.yaml", "--device", "android,desktop");
    expect(both.report.trails.map((t) => [t.id, t.status, t.session?.driver])).toEqual([
      ["desktop/desktop-only [android]", "failed", "android-ondevice-accessibility"],
      ["desktop/desktop-only [desktop]", "passed", "compose"],
    ]);
    const all = await run("trails/desktop/desktop-only.trail.yaml", "--all-devices");
    expect(all.report.trails.map((t) => [t.id, t.status])).toEqual([["desktop/desktop-only [desktop]", "passed"]]);
    const unknown = await cli(["run", "trails", "--device", "pixel-8"], { cwd: ROOT });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("run: --device pixel-8: name a platform (android, ios, web or desktop)");
  });

  test("--test-name seeds each session id", async () => {
    const { report } = await run("trails/clock/framework-only.trail.yaml", "--test-name", "Nightly / clock suite");
    expect(report.trails[0]!.session!.id).toMatch(/^Nightly-clock-suite-\d{8}-\d{6}-[0-9a-f]{6}$/);
  });
});
