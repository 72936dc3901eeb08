// Reports cross a boundary when `merge-reports` reads them: each JSON report is checked against
// the versioned format on the way in (a crafted field is refused with exit 2 naming the file and
// the field, a newer format asks for an upgrade, a report without a version reads as format 1),
// and the HTML page escapes every value on the way out, under a CSP that runs only the page's own
// script and style. The page of a valid report whose text fields all hold markup is loaded in a
// real headless Chromium: no dialog, no injected element, the text shown as text, the script at work.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { withoutChromium } from "./support/chromium.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { openWatchedPage, type WatchedPage } from "./support/watched-page.ts";

const FIXTURE = join(REPO, "fixtures/report");
const MAP_FLAGS = [
  "--map",
  "maps/calendar",
  "--start",
  "calendar/android/day_view",
  "--no-logging",
  "--secret",
  "calendarPassword=hunter2",
];
const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("boundary-shots");
/** A browser and CLI runs on a shared, loaded machine: generous. */
const SLOW = 60_000;

type Json = Record<string, any>;

const dir = tempDir("boundary-reports");
/** The JSON report of the calendar walk (one trail passes, one fails), as `run --reporter json` writes it. */
let base: Json;

beforeAll(async () => {
  const run = await cli(["run", "trails", ...MAP_FLAGS, "--reporter", "json", "--output", join(dir, "base.json")], { cwd: FIXTURE });
  expect(run.code).toBe(1);
  base = JSON.parse(readFileSync(join(dir, "base.json"), "utf8"));
}, SLOW);

/** The first step that ran on a captured screen: its trail and step index, and the screen's id. */
function captureStep(report: Json): { t: number; s: number; id: string } {
  for (const [t, trail] of report.trails.entries()) {
    for (const [s, step] of trail.steps.entries())
      if (step.screen?.kind === "capture" && step.screen.matched.length > 0) return { t, s, id: step.screen.screen };
  }
  throw new Error("no step on a captured screen");
}

/** `merge-reports shard-1.json --reporter html` of `base` changed by `edit`, in a folder of its own. */
async function mergeEdited(edit: (report: Json) => void, reporter = "html") {
  const cwd = tempDir("boundary-merge");
  const report = structuredClone(base);
  edit(report);
  writeFileSync(join(cwd, "shard-1.json"), JSON.stringify(report, null, 2));
  const run = await cli(["merge-reports", "shard-1.json", "--reporter", reporter, "--output", "out"], { cwd });
  return { ...run, cwd, written: existsSync(join(cwd, "out")) };
}

/** Exit 2, nothing on stdout, the one line on stderr, and no report written. */
async function refused(edit: (report: Json) => void, message: string) {
  const run = await mergeEdited(edit);
  expect({ code: run.code, stdout: run.stdout, stderr: run.stderr, written: run.written }).toEqual({
    code: 2,
    stdout: "",
    stderr: `error: shard-1.json: ${message}\n`,
    written: false,
  });
}

describe("merge-reports refuses a report that does not fit the format (exit 2, the file and the field named)", () => {
  test("run --reporter json stamps the format it writes", () => {
    expect(Object.keys(base)[0]).toBe("version");
    expect(base.version).toBe(1);
  });

  test("a status that would break out of its attribute", async () => {
    await refused(
      (r) => void (r.trails[0].status = `failed"><img src=x onerror=alert(1)>`),
      `trails[0].status: expected one of passed, unverified, failed, error, skipped, got "failed\\"><img src=x onerror=alert(1)>"`,
    );
  });

  test(
    "a step status, a screen kind and a screen reference holding markup",
    async () => {
      const { t, s } = captureStep(base);
      await refused(
        (r) => void (r.trails[t].steps[s].status = `<script>alert(1)</script>`),
        `trails[${t}].steps[${s}].status: expected one of passed, healed, failed, skipped, unverified, interrupted, got "<script>alert(1)</script>"`,
      );
      await refused(
        (r) => void (r.trails[t].steps[s].screen.kind = `<img onerror=alert(1)>`),
        `trails[${t}].steps[${s}].screen.kind: expected one of capture, web, got "<img onerror=alert(1)>"`,
      );
      await refused(
        (r) => void (r.trails[t].steps[s].screen.screen = `x"><img src=x onerror=alert(1)>`),
        `trails[${t}].steps[${s}].screen.screen: expected 12 lowercase hex digits, got "x\\"><img src=x onerror=alert(1)>"`,
      );
    },
    SLOW,
  );

  test(
    "a matched node id, a node's data-node-id, its x and the viewBox's width that are not numbers",
    async () => {
      const { t, s, id } = captureStep(base);
      await refused(
        (r) => void (r.trails[t].steps[s].screen.matched[0] = `2"><script>alert(1)</script>`),
        `trails[${t}].steps[${s}].screen.matched[0]: expected a number, got "2\\"><script>alert(1)</script>"`,
      );
      await refused(
        (r) => void (r.screens[id].nodes[1].id = `1"><img src=x onerror=alert(1)>`),
        `screens["${id}"].nodes[1].id: expected a number, got "1\\"><img src=x onerror=alert(1)>"`,
      );
      await refused(
        (r) => void (r.screens[id].nodes[1].bounds[0] = "10"),
        `screens["${id}"].nodes[1].bounds[0]: expected a number, got "10"`,
      );
      await refused(
        (r) => void (r.screens[id].width = `1080"><script>alert(1)</script>`),
        `screens["${id}"].width: expected a number, got "1080\\"><script>alert(1)</script>"`,
      );
      await refused((r) => void (r.screens[id].nodes[1].id = 1.5), `screens["${id}"].nodes[1].id: expected an integer, got 1.5`);
    },
    SLOW,
  );

  test(
    "a screen id that is not one, a text that is not text, a shard past its total",
    async () => {
      const { id } = captureStep(base);
      await refused(
        (r) => void (r.screens[`"></template><script>alert(1)</script>`] = r.screens[id]),
        `screens["\\"></template><script>alert(1)</script>"]: expected a key of 12 lowercase hex digits`,
      );
      await refused(
        (r) => void (r.screens[id].nodes[1].text = { toString: "<b>" }),
        `screens["${id}"].nodes[1].text: expected a string, got an object`,
      );
      await refused((r) => void (r.shard = { index: 3, total: 2 }), "shard.index: expected index at most total, got 3");
    },
    SLOW,
  );

  test(
    "a screenshot that is not a WebP, PNG or JPEG data: URL, or is larger than a page embeds",
    async () => {
      const { id } = captureStep(base);
      const at = `screens["${id}"].screenshot`;
      const expected = "expected a data:image/webp, png or jpeg;base64 URL";
      await refused(
        (r) => void (r.screens[id].screenshot = "javascript:alert(document.domain)"),
        `${at}: ${expected}, got "javascript:alert(document.domain)"`,
      );
      await refused(
        (r) => void (r.screens[id].screenshot = "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
        `${at}: ${expected}, got "data:text/html;base64,PHNjcmlwdD5hbGVydC…"`,
      );
      await refused(
        (r) => void (r.screens[id].screenshot = "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"),
        `${at}: ${expected}, got "data:image/svg+xml;base64,PHN2ZyBvbmxvYW…"`,
      );
      await refused(
        (r) => void (r.screens[id].screenshot = `data:image/webp;base64,AA" onload="alert(1)`),
        `${at}: ${expected}, got "data:image/webp;base64,AA\\" onload=\\"alert…"`,
      );
      // 8 MB of base64: refused by its length before anything reads it as an image.
      await refused(
        (r) => void (r.screens[id].screenshot = `data:image/png;base64,${"A".repeat(8_000_000)}`),
        `${at}: expected a screenshot of at most 512 KB, got a string of 8000022 characters`,
      );
      await refused(
        (r) => void (r.screens[id].screenshotNote = "x".repeat(5000)),
        `screens["${id}"].screenshotNote: expected a note of at most 1000 characters, got a string of 5000 characters`,
      );
    },
    SLOW,
  );

  test(
    "every field that does not fit is listed, a long value cut short",
    async () => {
      const long = `failed"><img src=x onerror=alert(document.domain)>`;
      await refused(
        (r) => {
          r.trails[0].status = long;
          r.summary.passed = "1";
          delete r.trails[1].steps;
        },
        `3 fields do not fit the JSON report format:
  trails[0].status: expected one of passed, unverified, failed, error, skipped, got "failed\\"><img src=x onerror=alert(documen…"
  trails[1].steps: expected a list, got nothing
  summary.passed: expected a number, got "1"`,
      );
    },
    SLOW,
  );
});

describe("the report's version", () => {
  test(
    "a newer format is refused: upgrade",
    async () => {
      await refused(
        (r) => void (r.version = 2),
        "written by a newer trailblaze-ts (format 2, this one reads up to 1): upgrade trailblaze-ts to merge it",
      );
      // Even when the rest no longer looks like a report this build knows.
      await refused(
        (r) => void ((r.version = 3), delete r.trails),
        "written by a newer trailblaze-ts (format 3, this one reads up to 1): upgrade trailblaze-ts to merge it",
      );
    },
    SLOW,
  );

  test(
    "a version that is not one is a field that does not fit",
    async () => {
      await refused((r) => void (r.version = "1"), `version: expected 1, got "1"`);
      await refused((r) => void (r.version = 0), "version: expected 1, got 0");
    },
    SLOW,
  );

  test(
    "a report without a version (written before formats were numbered) reads as format 1, and the merge is stamped",
    async () => {
      const run = await mergeEdited((r) => void delete r.version, "json");
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("note: merged 1 report: 2 trails\n");
      const merged = JSON.parse(readFileSync(join(run.cwd, "out"), "utf8"));
      expect(merged.version).toBe(1);
      expect(merged.trails).toEqual(base.trails);
    },
    SLOW,
  );
});

/** Markup that would run script, add elements or attributes, or close the page's <template>, <script> or <title>, were it not escaped. */
const PAYLOAD = `</title></textarea></script></template></svg>"'><img src=x onerror="alert('img')" data-pwned><svg onload="alert('svg')" data-pwned></svg><script data-pwned>alert('script')</script><!--`;
const tagged = (label: string) => `${label} ${PAYLOAD}`;

/** The base report with every text field a reporter shows replaced by markup: still a valid report. */
function hostile(report: Json): void {
  const { t, s, id } = captureStep(report);
  for (const [i, trail] of report.trails.entries()) {
    trail.title = tagged(`title${i}`);
    trail.tags = [tagged(`tag${i}`), "smoke"];
    trail.session.target = tagged(`target${i}`);
    trail.session.platform = tagged("platform");
    trail.memory = { [tagged("key")]: tagged("memory value") };
    if (trail.error !== undefined) trail.error = tagged("trail error");
    for (const step of trail.steps) {
      step.title = tagged("step title");
      for (const tool of step.tools) {
        tool.args = { text: tagged("arg"), nested: [tagged("nested arg")] };
        tool.result.message = tagged("result message");
      }
      if (step.failure) {
        step.failure.message = tagged("failure message");
        step.failure.stderr = { source: tagged("stderr source"), lines: [tagged("stderr line")] };
      }
    }
  }
  const step = report.trails[t].steps[s];
  step.unverified = tagged("unverified reason");
  step.memory = { set: { [tagged("set key")]: tagged("set value") }, deleted: [tagged("deleted key")] };
  step.screen.waypoint = tagged("waypoint");
  step.screen.moves = [{ from: "a", to: tagged("to"), shortcut: tagged("shortcut") }];
  // A web step beside it: its page title, URL, outline and a screenshot that is not an image.
  report.trails[t].steps.push({
    ...structuredClone(step),
    index: report.trails[t].steps.length + 1,
    screen: {
      kind: "web",
      url: tagged("url"),
      title: tagged("page title"),
      outline: tagged("outline"),
      screenshot: `data:text/html,<script>alert('shot')</script>`,
    },
  });
  const screen = report.screens[id];
  screen.file = tagged("screen file");
  screen.waypoint = tagged("screen waypoint");
  screen.nodes[1].text = tagged("node text");
  screen.nodes[1].type = tagged("node type");
  report.interrupted = tagged("interrupted");
}

describe.skipIf(withoutChromium())("a valid report full of markup renders inert in Chromium", () => {
  let watched: WatchedPage;
  let page: Page;
  let dialogs: string[];
  let fetched: string[];
  let pageErrors: string[];
  const violations = () => watched.violations();

  beforeAll(async () => {
    const run = await mergeEdited(hostile);
    expect(run.stderr).toBe("note: merged 1 report: 2 trails\n");
    expect(run.code).toBe(1);
    watched = await openWatchedPage(join(run.cwd, "out/index.html"));
    ({ page, dialogs, fetched, pageErrors } = watched);
  }, SLOW);

  afterAll(async () => {
    await watched?.context.close();
  });

  test(
    "the page's own script runs under its CSP: filters work, every trail opens and draws its wireframes",
    async () => {
      expect(await page.locator("#count").innerText()).toBe("2 of 2 trails");
      await page.getByRole("button", { name: "passed", exact: true }).click();
      expect(await page.locator("#count").innerText()).toBe("1 of 2 trails");
      await page.getByRole("button", { name: "all", exact: true }).click();
      await page.locator("#f-tag").selectOption(tagged("tag0"));
      expect(await page.locator("#count").innerText()).toBe("1 of 2 trails");
      await page.locator("#f-tag").selectOption("");
      // The failed trail is open from the start; the passed one opens on a click.
      expect(await page.locator("details.trail[open]").count()).toBe(1);
      for (const summary of await page.locator("details.trail:not([open]) > summary").all()) await summary.click();
      expect(await page.locator("details.trail[open]").count()).toBe(2);
      // A trail's pictures are drawn on its toggle event, which fires after the click returns.
      await page.waitForFunction("!document.querySelector('.wf[data-screen]:not([data-drawn])')", undefined, { timeout: 10_000 });
      const drawn = await page.locator(".wf[data-drawn] svg.wireframe").count();
      expect(drawn).toBe(await page.locator(".wf[data-screen]").count());
      expect(drawn).toBeGreaterThan(0);
      expect(await page.locator(".wf[data-drawn] rect[data-match]").count()).toBeGreaterThan(0);
      await page.screenshot({ path: join(shots, "report-hostile.png"), fullPage: true });
      expect(await violations()).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    SLOW,
  );

  test(
    "no dialog, no injected element or attribute, nothing fetched: the markup is shown as text",
    async () => {
      expect(dialogs).toEqual([]);
      expect(fetched).toEqual([]);
      expect(await page.locator("[data-pwned], img[src='x'], [onerror], [onload]").count()).toBe(0);
      expect(await page.evaluate("document.scripts.length")).toBe(1);
      // The templates the wireframes are cloned from hold no injected element either.
      expect(
        await page.evaluate(
          `[...document.querySelectorAll("template")].some((t) => t.content.querySelector("[data-pwned], script, img, [onload]"))`,
        ),
      ).toBe(false);
      expect(await page.locator("details.trail .tname").allInnerTexts()).toEqual(
        expect.arrayContaining([tagged("title0"), tagged("title1")]),
      );
      expect(await page.locator(".sub").innerText()).toStartWith("started ");
      const text = await page.locator("main").innerText();
      // Each text as it was given (values of arguments and memory as JSON).
      const shownAs = (label: string) => (label === "arg" || label === "set value" ? JSON.stringify(tagged(label)) : tagged(label));
      const labels = [
        "step title",
        "arg",
        "result message",
        "failure message",
        "stderr line",
        "set key",
        "set value",
        "unverified reason",
        "waypoint",
        "shortcut",
        "page title",
        "url",
        "outline",
        "interrupted",
        "tag0",
        "target0",
        "trail error",
      ];
      expect(labels.filter((label) => !text.includes(shownAs(label)))).toEqual([]);
      // A screen's node text is in its wireframe, as the rect's tooltip.
      const tips = await page.locator(".wf[data-drawn] rect[data-node-id] > title").allTextContents();
      expect(tips.some((tip) => tip.includes(JSON.stringify(tagged("node text"))))).toBe(true);
      // A screenshot that is not a data:image/ URL is not shown.
      expect(await page.locator(".web img").count()).toBe(0);
    },
    SLOW,
  );

  test(
    "markup that got into the page anyway could not run: no inline handler, inline script or style attribute is allowed",
    async () => {
      const outcome = await page.evaluate(`(async () => {
      document.body.insertAdjacentHTML("beforeend", '<img id="probe-img" src="data:," onerror="window.handlerRan=true"><p id="probe-style" style="color: rgb(255, 0, 0)">x</p>');
      const script = document.createElement("script");
      script.textContent = "window.scriptRan = true";
      document.body.append(script);
      // Read once the browser has refused each of them (a refusal is reported as it happens).
      const refused = ["script-src-attr", "script-src-elem", "style-src-attr"];
      const allRefused = () => refused.every((d) => window.violations.some((v) => v.startsWith(d + " ")));
      for (let i = 0; i < 1000 && !allRefused(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return { handler: window.handlerRan ?? false, script: window.scriptRan ?? false, color: getComputedStyle(document.getElementById("probe-style")).color };
    })()`);
      expect(outcome).toEqual({ handler: false, script: false, color: expect.not.stringMatching(/^rgb\(255, 0, 0\)$/) });
      const blocked = (await violations()).map((v) => v.split(" ")[0]);
      expect(blocked).toEqual(expect.arrayContaining(["script-src-attr", "script-src-elem", "style-src-attr"]));
    },
    SLOW,
  );
});
