// Reports of a real run on the calendar-shaped app map (fixtures/report): `run --reporter html`
// with the live list and a secret, reports written when the run stops before it starts,
// `merge-reports` of two shards against the unsharded run, and `map` as an outline and a page.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { childrenNamed, parseXml } from "./support/xml.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/report");
const SECRET = "Tr0ub4dor-&-3-calendar";
const MAP_FLAGS = ["--map", "maps/calendar", "--start", "calendar/android/day_view", "--no-logging"];
const opts = { cwd: FIXTURE };

type Json = Record<string, any>;

/** A report with what differs between two runs of the same trails blanked: times (durations, start times, the simulated device's action times), session ids. */
function normalisedJson(text: string): Json {
  return JSON.parse(text, (key, value) => {
    if (key === "startedAt" || key === "durationMs" || key === "at") return 0;
    if (key === "session") return { ...value, id: "<id>" };
    return value;
  });
}

/** JUnit XML with times blanked: time="…", timestamp="…", ISO times and durations in the step log, session ids. */
const normalisedJunit = (xml: string) =>
  xml
    .replace(/ time="[^"]*"/g, ' time="0"')
    .replace(/ timestamp="[^"]*"/g, ' timestamp="0"')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>")
    .replace(/\(\d+ ms\)/g, "(0 ms)");

describe("run --reporter html on the calendar map", () => {
  test("writes DIR/index.html beside the live list; both trails, the failure named; the secret nowhere", async () => {
    const dir = join(tempDir("report-html"), "out");
    const run = await cli(
      ["run", "trails", ...MAP_FLAGS, "--secret", `calendarPassword=${SECRET}`, "--reporter", "html", "--output", dir],
      opts,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain(
      "trails/theme-picker.trail.yaml (theme-picker — Open the theme picker from the day view)\n  ✓ Unlock the calendar",
    );
    expect(run.stdout).toContain("1 passed, 1 failed (2 trails)");
    expect(run.stdout.endsWith(`html report written to ${dir}/index.html\n`)).toBe(true);
    expect(readdirSync(dir)).toEqual(["index.html"]);
    const page = readFileSync(join(dir, "index.html"), "utf8");
    expect(page).not.toContain(SECRET);
    expect(page).not.toContain(SECRET.replaceAll("&", "&amp;"));
    expect(page).toContain(
      `<span class="why">step 5 failed: assertWaypoint: the screen is not at waypoint &quot;calendar/android/theme_picker&quot;`.replaceAll(
        "&quot;",
        '"',
      ),
    );
    // Failing first; five distinct screens, each stored once.
    expect(page.indexOf('data-status="failed"')).toBeLessThan(page.indexOf('data-status="passed"'));
    expect(page.match(/<template id="screen-[0-9a-f]{12}">/g)).toHaveLength(5);
    expect(page).toContain(
      `at <span class="wp">calendar/android/settings_root</span> → shortcut <code>calendar_android_settingsToGeneral</code> → <span class="wp">calendar/android/settings_general</span><span class="meta"> · marked #5</span>`,
    );
  });

  test("the default folder is trailblaze-report/, and json still prints its document alone", async () => {
    const cwd = tempDir("report-default");
    copyFixture(FIXTURE, cwd);
    const run = await cli(
      ["run", "trails/theme-picker.trail.yaml", ...MAP_FLAGS, "--secret", `calendarPassword=${SECRET}`, "--reporter", "html"],
      { cwd },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith("html report written to trailblaze-report/index.html\n")).toBe(true);
    expect(readFileSync(join(cwd, "trailblaze-report/index.html"), "utf8")).toContain("<title>Trailblaze report: 1 passed</title>");
    const json = await cli(
      ["run", "trails/theme-picker.trail.yaml", ...MAP_FLAGS, "--secret", `calendarPassword=${SECRET}`, "--reporter", "json"],
      { cwd },
    );
    const doc = JSON.parse(json.stdout);
    expect(doc.trails[0].tags).toEqual(["settings", "smoke"]);
    expect(doc.trails[0].steps[1].screen).toEqual({
      kind: "capture",
      screen: expect.stringMatching(/^[0-9a-f]{12}$/),
      waypoint: "calendar/android/day_view",
      matched: [2],
      moves: [{ from: "calendar/android/day_view", to: "calendar/android/drawer_open", shortcut: "calendar_android_dayToDrawer" }],
      after: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    // The screen the step ended on is in the table too: the drawer, which has no screenshot.
    expect(doc.screens[doc.trails[0].steps[1].screen.after]).toMatchObject({ waypoint: "calendar/android/drawer_open" });
    expect(doc.screens[doc.trails[0].steps[1].screen.after].screenshot).toBeUndefined();
    expect(doc.screens[doc.trails[0].steps[1].screen.screen].screenshot).toStartWith("data:image/webp;base64,UklGR");
    expect(Object.keys(doc.screens)).toHaveLength(5);
    expect(doc.screens[doc.trails[0].steps[1].screen.screen].nodes).toHaveLength(7);
    expect(json.stdout).not.toContain(SECRET);
  });
});

describe("a run that stops before any trail starts still writes its report", () => {
  const broken = () => {
    const cwd = tempDir("report-broken");
    copyFixture(FIXTURE, cwd);
    writeFileSync(join(cwd, "trails/broken.trail.yaml"), "config:\n  id: broken\ntrail: [\n");
    return cwd;
  };

  test("json on stdout lists the problems; exit 2 with the error on stderr", async () => {
    const run = await cli(["run", "trails", ...MAP_FLAGS, "--reporter", "json"], { cwd: broken() });
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith("error: trails/broken.trail.yaml:");
    const doc = JSON.parse(run.stdout);
    expect(doc.trails).toEqual([]);
    expect(doc.summary).toEqual({ passed: 0, failed: 0, errors: 0, skipped: 0, unverified: 0, unverifiedTrails: 0, durationMs: 0 });
    expect(doc.problems).toHaveLength(1);
    expect(doc.problems[0]).toMatchObject({ file: "trails/broken.trail.yaml", line: expect.any(Number), col: expect.any(Number) });
  });

  test("junit: one erroring testcase naming the file; html: the problems banner", async () => {
    const cwd = broken();
    const junit = await cli(["run", "trails", ...MAP_FLAGS, "--reporter", "junit", "--output", "out/junit.xml"], { cwd });
    expect(junit.code).toBe(2);
    expect(junit.stdout).toBe("junit report written to out/junit.xml\n");
    const doc = parseXml(readFileSync(join(cwd, "out/junit.xml"), "utf8"));
    expect(doc.attrs).toMatchObject({ tests: "1", errors: "1", failures: "0" });
    const error = childrenNamed(childrenNamed(childrenNamed(doc, "testsuite")[0]!, "testcase")[0]!, "error")[0]!;
    expect(error.attrs.type).toBe("RunNotStarted");
    expect(error.text).toStartWith("trails/broken.trail.yaml:");
    const html = await cli(["run", "trails", ...MAP_FLAGS, "--reporter", "html"], { cwd });
    expect(html.code).toBe(2);
    expect(html.stdout).toBe("html report written to trailblaze-report/index.html\n");
    expect(readFileSync(join(cwd, "trailblaze-report/index.html"), "utf8")).toContain(
      "<h2>The run stopped before any trail started (1 problem)</h2><pre>trails/broken.trail.yaml:",
    );
  });
});

describe("merge-reports", () => {
  const dir = tempDir("report-merge");
  const runTo = async (name: string, extra: string[], reporter = "json") => {
    const run = await cli(
      [
        "run",
        "trails",
        ...MAP_FLAGS,
        "--secret",
        `calendarPassword=${SECRET}`,
        "--reporter",
        reporter,
        "--output",
        join(dir, name),
        ...extra,
      ],
      opts,
    );
    expect(run.code === 0 || run.code === 1).toBe(true);
    return readFileSync(join(dir, name), "utf8");
  };

  test("shards 1/2 and 2/2 merged equal the unsharded run, in JSON and in JUnit (times and session ids aside)", async () => {
    const whole = await runTo("whole.json", []);
    const wholeJunit = await runTo("whole.xml", [], "junit");
    const shard1 = JSON.parse(await runTo("s1.json", ["--shard", "1/2"]));
    await runTo("s2.json", ["--shard", "2/2"]);
    expect(shard1.trails.map((t: Json) => t.id)).toEqual(["theme-picker"]);
    // Given in any order: merged in shard order.
    const merged = await cli(["merge-reports", join(dir, "s2.json"), join(dir, "s1.json"), "--reporter", "json"], opts);
    expect(merged.code).toBe(1);
    expect(merged.stderr).toBe("note: merged 2 reports: 2 trails\n");
    expect(normalisedJson(merged.stdout)).toEqual(normalisedJson(whole));
    const mergedJunit = await cli(["merge-reports", join(dir, "s1.json"), join(dir, "s2.json"), "--reporter", "junit"], opts);
    expect(normalisedJunit(mergedJunit.stdout)).toBe(normalisedJunit(wholeJunit));
    const html = await cli(
      ["merge-reports", join(dir, "s1.json"), join(dir, "s2.json"), "--reporter", "html", "--output", join(dir, "html")],
      opts,
    );
    expect(html.stdout).toBe(`html report written to ${join(dir, "html")}/index.html\n`);
    expect(readFileSync(join(dir, "html/index.html"), "utf8").match(/<template id="screen-/g)).toHaveLength(5);
  });

  test("a missing shard is warned about; a shard twice, or a file that is no report, is exit 2", async () => {
    const s1 = join(dir, "s1.json");
    const partial = await cli(["merge-reports", s1], opts);
    expect(partial.stderr).toBe(
      "warning: shard 2/2 missing: the merged report holds only the shards given\nnote: merged 1 report: 1 trail\n",
    );
    expect(partial.code).toBe(0);
    expect(partial.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(await cli(["merge-reports", s1, s1], opts)).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: ${s1}: shard 1/2 is also ${s1}: give each shard's report once\n`,
    });
    const junk = join(dir, "junk.json");
    writeFileSync(junk, '{"hello": 1}');
    expect(await cli(["merge-reports", junk], opts)).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: ${junk}: expected a report written by \`npx trailblaze run --reporter json\` ({trails: […], summary: {…}})\n`,
    });
    expect((await cli(["merge-reports", join(dir, "nope.json")], opts)).stderr).toBe(`error: ${join(dir, "nope.json")}: file not found\n`);
  });
});

describe("map", () => {
  test("without --html: each waypoint, its shortcuts, then check's findings", async () => {
    expect(await cli(["map", "maps/calendar"], opts)).toEqual({
      code: 0,
      stderr: "",
      stdout: `maps/calendar: 5 waypoints, 4 shortcuts
  calendar/android/day_view
    → calendar/android/drawer_open  (calendar_android_dayToDrawer)
  calendar/android/drawer_open
    → calendar/android/settings_root  (calendar_android_drawerToSettings)
  calendar/android/settings_general
    → calendar/android/theme_picker  (calendar_android_generalToTheme)
  calendar/android/settings_root
    → calendar/android/settings_general  (calendar_android_settingsToGeneral)
  calendar/android/theme_picker
check: no findings
`,
    });
  });

  test("--html: a card per waypoint with its wireframe, every shortcut a link, findings on their cards", async () => {
    const out = join(tempDir("map-html"), "map.html");
    const run = await cli(["map", "../screens/maps/broken", "--html", out], opts);
    expect(run).toEqual({ code: 0, stderr: "", stdout: `map page written to ${out} (3 waypoints, 2 shortcuts, 10 findings)\n` });
    const page = readFileSync(out, "utf8");
    expect([...page.matchAll(/data-waypoint="([^"]+)"/g)].map((m) => m[1])).toEqual(["broken/login", "broken/nocapture", "broken/typo"]);
    expect([...page.matchAll(/data-shortcut="([^"]+)"/g)].map((m) => m[1])).toEqual(["broken_loginForgot", "broken_loginToNowhere"]);
    expect(page).toContain(`→ <a href="#wp-broken_nocapture">broken/nocapture</a>`);
    expect(page).toContain(`→ <span class="finding error">broken/nowhere (not in the map)</span>`);
    // One wireframe (the only capture that loads), drawn on its card and, small, in the graph.
    expect(page.match(/<svg [^>]*class="wireframe"/g)).toHaveLength(1);
    expect(page.match(/<svg [^>]*class="mini"/g)).toHaveLength(1);
    expect(page).toContain("✗ login.waypoint.yaml:8:7: waypoint broken/login: required selector");
  });

  test("usage errors", async () => {
    expect(await cli(["map"], opts)).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: map: expected one app map folder, got none\nRun `npx trailblaze map --help` for usage.\n",
    });
    expect((await cli(["map", "trails"], opts)).stderr).toBe(
      "error: trails: not an app map: it has no waypoints/ folder (an app map holds waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)\n",
    );

    expect(await cli(["map", "/no/such/dir"], opts)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: /no/such/dir: the folder does not exist (an app map is a folder holding waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)\n",
    });
  });

  test("a map outside the working directory: its paths print absolute, not as ../../…", async () => {
    const map = join(REPO, "fixtures/screens/maps/broken");
    const run = await cli(["map", map], { cwd: tempDir("map-elsewhere") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`  ✗ ${map}/waypoints/login.waypoint.yaml:8:7: waypoint broken/login: required selector`);
    expect(run.stdout).not.toContain("../");
    expect((await cli(["map", "/tmp"], opts)).stderr).toBe(
      "error: /tmp: not an app map: it has no waypoints/ folder (an app map holds waypoints/*.waypoint.yaml and shortcuts/*.shortcut.yaml)\n",
    );
  });
});
