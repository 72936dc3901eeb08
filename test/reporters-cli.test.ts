// Reporters as plug-ins, through the CLI, on the calendar trails of fixtures/report (theme-picker
// passes, wrong-waypoint fails): several in one run (`--reporter list,json,html,junit`, each output
// checked), the user's own from a path (its events in order, with one worker and two, replayed by
// merge-reports, and when the run stops before it starts), a reporter that throws (the others still
// report, the error is named, a passing run exits 1), paths that are no reporter, the usage errors
// of several reporters, and docs/reporters.md's example run as the page shows it.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir } from "./support/cli.ts";
import { childrenNamed, parseXml } from "./support/xml.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/report");
const SECRET = "Tr0ub4dor-&-3-calendar";
const FLAGS = ["--map", "maps/calendar", "--start", "calendar/android/day_view", "--no-logging", "--secret", `calendarPassword=${SECRET}`];

type Json = Record<string, any>;

/** A copy of fixtures/report with fixtures/reporters/ in its reporters/ folder. */
function workspace(): string {
  const cwd = tempDir("reporters");
  copyFixture(FIXTURE, cwd);
  copyFixture(join(REPO, "fixtures/reporters"), join(cwd, "reporters"));
  return cwd;
}

const readJson = (file: string): Json => JSON.parse(readFileSync(file, "utf8"));
const readEvents = (file: string): Json[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

/** The events a run of `report` tells a reporter, one trail after the other, as the events reporter writes them. */
function expectedEvents(report: Json, workers: number): Json[] {
  const trails = report.trails as Json[];
  return [
    { event: "onBegin", trails: trails.map((t) => t.id), workers },
    ...trails.flatMap((t, index) => [
      { event: "onTrailBegin", trail: t.id, index },
      ...(t.steps as Json[])
        .filter((s) => s.status !== "skipped")
        .map((s) => ({ event: "onStepEnd", trail: t.id, step: s.index, status: s.status })),
      { event: "onTrailEnd", trail: t.id, status: t.status },
    ]),
    { event: "onEnd", summary: { passed: report.summary.passed, failed: report.summary.failed }, problems: 0 },
  ];
}

describe("several reporters in one run", () => {
  test("--reporter list,json=…,html=…,junit=…: the live list on stdout, each report in its file, each saying where", async () => {
    const cwd = workspace();
    const run = await cli(
      ["run", "trails", ...FLAGS, "--reporter", "list,json=out/report.json,html=out/html", "--reporter", "junit=out/junit.xml"],
      { cwd },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout).toStartWith(
      "trails/theme-picker.trail.yaml (theme-picker — Open the theme picker from the day view)\n  ✓ Unlock the calendar",
    );
    expect(run.stdout).toEndWith(
      "json report written to out/report.json\nhtml report written to out/html/index.html\njunit report written to out/junit.xml\n",
    );
    expect(run.stdout).toContain("1 passed, 1 failed (2 trails)");
    expect(run.stdout).not.toContain(SECRET);

    const json = readJson(join(cwd, "out/report.json"));
    expect(json.version).toBe(1);
    expect(json.trails.map((t: Json) => [t.id, t.status])).toEqual([
      ["theme-picker", "passed"],
      ["wrong-waypoint", "failed"],
    ]);
    expect(json.summary).toMatchObject({ passed: 1, failed: 1 });
    expect(Object.keys(json.screens)).toHaveLength(5);

    const page = readFileSync(join(cwd, "out/html/index.html"), "utf8");
    expect(page).toContain("<title>Trailblaze report: 1 of 2 failed</title>");
    expect(page.match(/<template id="screen-[0-9a-f]{12}">/g)).toHaveLength(5);
    expect(page).not.toContain(SECRET);

    const junit = parseXml(readFileSync(join(cwd, "out/junit.xml"), "utf8"));
    expect(junit.attrs).toMatchObject({ tests: "2", failures: "1", errors: "0" });
    expect(childrenNamed(junit, "testsuite").flatMap((suite) => childrenNamed(suite, "testcase").map((c) => c.attrs.name))).toEqual([
      "theme-picker",
      "wrong-waypoint",
    ]);
  });

  test("json on stdout alone, html in its default folder saying so on stderr; --output to the one besides list", async () => {
    const cwd = workspace();
    const run = await cli(["run", "trails", ...FLAGS, "--reporter", "json,html"], { cwd });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).trails).toHaveLength(2);
    expect(run.stderr).toBe("html report written to trailblaze-report/index.html\n");
    expect(existsSync(join(cwd, "trailblaze-report/index.html"))).toBe(true);

    const listAndHtml = await cli(["run", "trails/theme-picker.trail.yaml", ...FLAGS, "--reporter", "list,html", "--output", "mine"], {
      cwd,
    });
    expect(listAndHtml.code).toBe(0);
    expect(listAndHtml.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(listAndHtml.stdout).toEndWith("\nhtml report written to mine/index.html\n");
    expect(existsSync(join(cwd, "mine/index.html"))).toBe(true);
  });

  test("two reporters on stdout, or an --output that could mean two, stop the run before it starts (exit 2)", async () => {
    const cwd = workspace();
    const both = await cli(["run", "trails", ...FLAGS, "--reporter", "list,json"], { cwd });
    expect(both).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: run: --reporter list,json: list and json would each print on stdout, and only one reporter may (their output would interleave); json prints its document there without a file: give it one, e.g. --reporter list,json=report.json\n",
    });
    const ambiguous = await cli(["merge-reports", "x.json", "--reporter", "json,junit", "--output", "x"], { cwd });
    expect(ambiguous).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: merge-reports: --output x is ambiguous: json and junit each write a report; name each one's output instead, e.g. --reporter json=report.json,junit=junit.xml\n",
    });
  });
});

describe("a reporter of your own, from a path", () => {
  test("is made with its options and told onBegin, each trail's onTrailBegin, onStepEnd per step, onTrailEnd, then onEnd; the list is added", async () => {
    const cwd = workspace();
    const run = await cli(["run", "trails", ...FLAGS, "--reporter", "./reporters/events.ts=out/events.jsonl,json=out/report.json"], {
      cwd,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    // events.ts does not print on stdout: the live list is there.
    expect(run.stdout).toContain("  ✓ Unlock the calendar");
    const [made, ...events] = readEvents(join(cwd, "out/events.jsonl"));
    expect(made).toEqual({ event: "constructor", options: { cwd, outputDir: cwd, output: join(cwd, "out/events.jsonl"), command: "run" } });
    const report = readJson(join(cwd, "out/report.json"));
    expect(events).toEqual(expectedEvents(report, 1));
    expect(events.filter((e) => e.event === "onStepEnd")).toHaveLength(11);
    expect(JSON.stringify(events)).not.toContain(SECRET);

    // merge-reports replays the same events from the JSON report.
    const merged = await cli(["merge-reports", "out/report.json", "--reporter", "reporters/events.ts"], { cwd });
    expect(merged.code).toBe(1);
    const [mergeMade, ...replayed] = readEvents(join(cwd, "events.jsonl"));
    expect(mergeMade!.options.command).toBe("merge-reports");
    expect(replayed).toEqual(expectedEvents(report, 1));
  });

  test("with --workers 2: onBegin first and onEnd last, each trail's own events in order", async () => {
    const cwd = workspace();
    const run = await cli(["run", "trails", ...FLAGS, "--workers", "2", "--reporter", "./reporters/events.ts,json=report.json"], { cwd });
    expect(run.code).toBe(1);
    const events = readEvents(join(cwd, "events.jsonl")).slice(1);
    const expected = expectedEvents(readJson(join(cwd, "report.json")), 2);
    expect(events[0]).toEqual(expected[0]!);
    expect(events.at(-1)).toEqual(expected.at(-1)!);
    for (const id of ["theme-picker", "wrong-waypoint"]) {
      expect(events.filter((e) => e.trail === id)).toEqual(expected.filter((e) => e.trail === id));
    }
    expect(events).toHaveLength(expected.length);
  });

  test("a run that stops before it starts: onError, then onEnd with the problems; no onBegin", async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, "trails/broken.trail.yaml"), "config:\n  id: broken\ntrail: [\n");
    const run = await cli(["run", "trails", ...FLAGS, "--reporter", "./reporters/events.ts"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const events = readEvents(join(cwd, "events.jsonl")).map((e) => e.event);
    expect(events).toEqual(["constructor", "onError", "onEnd"]);
    expect(readEvents(join(cwd, "events.jsonl"))[2]).toMatchObject({ problems: 1 });
  });

  test("one that throws in onStepEnd and rejects in onEnd: the list and json still report, the error is named, and a passing run exits 1", async () => {
    const cwd = workspace();
    const run = await cli(
      ["run", "trails/theme-picker.trail.yaml", ...FLAGS, "--reporter", "list,reporters/throws-on-step.ts,json=out/report.json"],
      { cwd },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("  ✓ [verify] The theme picker is showing");
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(run.stdout).toEndWith("json report written to out/report.json\n");
    expect(readJson(join(cwd, "out/report.json")).summary).toMatchObject({ passed: 1, failed: 0 });
    const lines = run.stderr.split("\n");
    expect(lines.filter((line) => line.startsWith("error: "))).toEqual([
      "error: reporter reporters/throws-on-step.ts failed in onStepEnd: cannot read the step",
      "error: reporter reporters/throws-on-step.ts failed in onEnd: upload refused",
      "error: reporter reporters/throws-on-step.ts failed in onStepEnd 5 more times",
    ]);
    // Where it threw: the reporter's own file and line.
    expect(lines[1]).toStartWith(`  at onStepEnd (${join(cwd, "reporters/throws-on-step.ts")}:`);
    // Without it, the same run exits 0.
    expect((await cli(["run", "trails/theme-picker.trail.yaml", ...FLAGS, "--reporter", "list,json=out/report.json"], { cwd })).code).toBe(
      0,
    );
  });

  test("a path that is no reporter is exit 2 naming the file, before anything runs", async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, "reporters/broken.ts"), "export default class Broken {\n  onEnd() { return 1 2 }\n}\n");
    mkdirSync(join(cwd, "reporters/folder.ts"));
    const fails = async (reporter: string) => {
      const run = await cli(["run", "trails", ...FLAGS, "--reporter", `list,${reporter}`], { cwd });
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
      return run.stderr;
    };
    expect(await fails("./reporters/missing.ts")).toBe(
      `error: reporter ./reporters/missing.ts: file not found (resolved against ${cwd}: ${join(cwd, "reporters/missing.ts")}); relative paths resolve against the working directory\n`,
    );
    expect(await fails("./reporters/broken.ts")).toBe(
      `error: reporter ./reporters/broken.ts: does not load: ${join(cwd, "reporters/broken.ts")}:2:22: Expected ";" but found "2"\n`,
    );
    expect(await fails("reporters/no-default.ts")).toBe(
      "error: reporter reporters/no-default.ts: its default export is not a class (got no default export); write `export default class MyReporter { onEnd(result) { … } }`\n",
    );
    expect(await fails("reporters/not-a-class.ts")).toBe(
      "error: reporter reporters/not-a-class.ts: its default export is not a class (got a function that is not a class); write `export default class MyReporter { onEnd(result) { … } }`\n",
    );
    expect(await fails("reporters/folder.ts")).toBe(
      `error: reporter reporters/folder.ts: ${join(cwd, "reporters/folder.ts")} is not a file: name the reporter's module, e.g. ./reporters/my-reporter.ts\n`,
    );
    expect(await fails("xml")).toBe(
      'error: run: --reporter expects list, json, junit, html or the path of your own reporter (./my-reporter.ts), got "xml"\n',
    );
  });
});

describe("docs/reporters.md", () => {
  const page = readFileSync(join(REPO, "docs/reporters.md"), "utf8");

  test("the example reporter is fixtures/reporters/one-line.ts, and runs as the page shows (a real CLI process)", async () => {
    const [, file, code] = page.match(/<!-- file: (\S+) -->\n```ts\n([\s\S]*?\n)```/)!;
    expect(file).toBe("fixtures/reporters/one-line.ts");
    expect(code).toBe(readFileSync(join(REPO, file!), "utf8"));
    const [, command, output] = page.match(/```sh\n\$ npx trailblaze (run [^\n]*--reporter \.\/reporters\/one-line\.ts)\n([\s\S]*?\n)```/)!;
    const cwd = tempDir("reporters-doc");
    copyFixture(FIXTURE, cwd);
    mkdirSync(join(cwd, "reporters"));
    writeFileSync(join(cwd, "reporters/one-line.ts"), code!);
    const run = await cliProcess([...command!.split(" "), "--no-logging"], { cwd, env: { calendarPassword: SECRET } });
    const times = (text: string) => text.replace(/\(\d+ ms\)/g, "(N ms)");
    expect({ code: run.code, stderr: run.stderr, stdout: times(run.stdout) }).toEqual({ code: 1, stderr: "", stdout: times(output!) });
  });
});
