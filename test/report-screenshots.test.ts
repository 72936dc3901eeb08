// The HTML report with the captures' own screenshots, in a real headless Chromium: the calendar
// map walk of fixtures/report (whose waypoints carry drawn screenshots, one left without) plus a
// trail whose selector matches nothing, run by the CLI to a JSON report and merged to HTML (so the
// screenshots cross the JSON format's check). Each screenshot is embedded once and decodes under
// the page's CSP; failed trails are open; a failed assertWaypoint shows the device's screen beside
// the expected waypoint's, its required nodes marked; a failed selector shows the waypoint where
// it does match; a step that moved shows the screen before and after. Screenshots of the page are
// kept when TRAILBLAZE_SCREENSHOTS names a folder (else in a temporary one), for a person to look at.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { openWatchedPage, type WatchedPage } from "./support/watched-page.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("report-screenshots-shots");
/** A browser and CLI runs on a shared, loaded machine: generous. */
const SLOW = 60_000;

/** Taps Theme on Settings, one screen before the one that has it: the selector matches nothing. */
const WRONG_SELECTOR = `config:
  id: wrong-selector
  title: Taps Theme while Settings is showing
  target: calendar
  driver: ANDROID_ONDEVICE_ACCESSIBILITY
trail:
  - step: Open the drawer
    recording:
      android:
        - tapOnElementBySelector:
            nodeSelector:
              androidAccessibility: { contentDescriptionRegex: Open the calendar drawer }
  - step: Open Settings
    recording:
      android:
        - tapOnElementWithText: { text: Settings }
  - step: Open Theme
    recording:
      android:
        - tapOnElementBySelector:
            nodeSelector:
              androidAccessibility: { textRegex: Theme }
`;

const workspace = tempDir("report-screenshots");
let report: { screens: Record<string, { screenshot?: string; waypoint?: string }> };
let page: Page;
let watched: WatchedPage;
let html: string;

beforeAll(async () => {
  copyFixture(join(REPO, "fixtures/report"), workspace);
  writeFileSync(join(workspace, "trails/wrong-selector.trail.yaml"), WRONG_SELECTOR);
  const flags = ["--map", "maps/calendar", "--start", "calendar/android/day_view", "--no-logging", "--secret", "calendarPassword=hunter2"];
  const run = await cli(["run", "trails", ...flags, "--reporter", "json", "--output", "report.json"], { cwd: workspace });
  expect(run.code).toBe(1);
  report = JSON.parse(readFileSync(join(workspace, "report.json"), "utf8"));
  const merged = await cli(["merge-reports", "report.json", "--reporter", "html", "--output", "out"], { cwd: workspace });
  expect(merged.stderr).toBe("note: merged 1 report: 3 trails\n");
  html = readFileSync(join(workspace, "out/index.html"), "utf8");
  watched = await openWatchedPage(join(workspace, "out/index.html"));
  page = watched.page;
}, SLOW);

afterAll(async () => {
  await watched?.context.close();
});

const trail = (id: string) => page.locator(`details.trail:has(.meta:text-is("${id}"))`);
const stepOf = (id: string, n: number) =>
  trail(id)
    .locator("li.step")
    .nth(n - 1);
/** The captions of a step's pictures. */
const captions = (step: Locator) => step.locator("figcaption").allInnerTexts();

describe("screenshots in the HTML report", () => {
  test("the JSON report holds each screenshot once, in its screen table; the page embeds each once", () => {
    const shot = Object.values(report.screens).filter((s) => s.screenshot !== undefined);
    expect(shot.map((s) => s.waypoint).sort()).toEqual([
      "calendar/android/day_view",
      "calendar/android/settings_general",
      "calendar/android/settings_root",
      "calendar/android/theme_picker",
    ]);
    expect(Object.values(report.screens).find((s) => s.waypoint === "calendar/android/drawer_open")?.screenshot).toBeUndefined();
    for (const s of shot) expect(html.split(s.screenshot!)).toHaveLength(2);
    const png = readFileSync(join(REPO, "fixtures/report/maps/calendar/waypoints/calendar_android_theme_picker.example.png"));
    expect(shot.find((s) => s.waypoint === "calendar/android/theme_picker")!.screenshot).toBe(
      `data:image/png;base64,${png.toString("base64")}`,
    );
  });

  test(
    "failed trails are open from the start; every picture in them is drawn, and every screenshot decodes under the page's CSP",
    async () => {
      expect(await page.locator("details.trail[open] .tname").allInnerTexts()).toEqual([
        "Taps Theme while Settings is showing",
        "Expects the theme picker one tap too early",
      ]);
      expect(await page.locator("details.trail.passed[open]").count()).toBe(0);
      expect(await page.locator("details.trail[open] .wf[data-screen]:not([data-drawn])").count()).toBe(0);
      const images = page.locator("details.trail[open] svg.wireframe.shot image");
      expect(await images.count()).toBeGreaterThan(4);
      // Every distinct screenshot, decoded by the browser as the page's own image: 360 px wide (a third of the device).
      const widths =
        await page.evaluate(`Promise.all([...new Set([...document.querySelectorAll("svg image")].map((i) => i.getAttribute("href")))].map(async (href) => {
      const img = new Image();
      img.src = href;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }))`);
      expect(widths).toEqual([
        [360, 800],
        [360, 800],
        [360, 800],
        [360, 800],
      ]);
      // Each drawn image fills its picture.
      const box = (await images.first().boundingBox())!;
      const svg = (await page.locator("details.trail[open] svg.wireframe.shot").first().boundingBox())!;
      expect(Math.round(box.width)).toBe(Math.round(svg.width - 2));
    },
    SLOW,
  );

  test(
    "a failed assertWaypoint: the device's screen beside the expected waypoint's screenshot, its required nodes marked",
    async () => {
      const step = stepOf("wrong-waypoint", 5);
      expect(await captions(step)).toEqual(["actual: the device's screen", "expected: calendar/android/theme_picker"]);
      const [actual, expected] = [step.locator("figure.pic").nth(0), step.locator("figure.pic").nth(1)];
      expect(await actual.locator("svg.wireframe.shot rect[data-node-id]").count()).toBe(11);
      expect(await actual.locator("rect[data-required], rect[data-forbidden]").count()).toBe(0);
      expect(await expected.locator("svg.wireframe.shot image").count()).toBe(1);
      expect(
        await expected.locator("rect[data-required]").evaluateAll((rects) => rects.map((r) => r.getAttribute("data-node-id"))),
      ).toEqual(["3", "6", "7"]);
      await expected.locator('rect[data-node-id="6"][data-required]').waitFor({ state: "visible" });
      expect(await step.locator(".conds").innerText()).toBe(
        [
          "expected waypoint calendar/android/theme_picker:",
          "✗ required Dialog title not found here · on the expected screen #3",
          "✗ required Dark option not found here · on the expected screen #6",
          "✗ required Cancel button not found here · on the expected screen #7",
        ].join("\n"),
      );
      await step.screenshot({ path: join(shots, "report-expected-waypoint.png") });
    },
    SLOW,
  );

  test(
    "a selector that matched nothing: the device's screen beside the waypoint where it matches, the node marked",
    async () => {
      const step = stepOf("wrong-selector", 3);
      expect(await captions(step)).toEqual(["actual: the device's screen", "where it matches: calendar/android/settings_general"]);
      expect(await step.locator(".conds").innerText()).toStartWith(
        "the selector matches nothing here; it matches on waypoint calendar/android/settings_general:\n✗ selector ",
      );
      expect(
        await step
          .locator("figure.pic")
          .nth(1)
          .locator("rect[data-match]")
          .evaluateAll((rects) => rects.map((r) => r.getAttribute("data-node-id"))),
      ).toEqual(["11"]);
      await step.screenshot({ path: join(shots, "report-expected-selector.png") });
    },
    SLOW,
  );

  test(
    "a step that moved: the screen before (its screenshot, the tapped node marked) and after (a wireframe: no screenshot there)",
    async () => {
      const step = stepOf("wrong-selector", 1);
      expect(await captions(step)).toEqual(["before", "after"]);
      const [before, after] = [step.locator("figure.pic").nth(0), step.locator("figure.pic").nth(1)];
      expect(await before.locator("svg.wireframe.shot image").count()).toBe(1);
      await before.locator('rect[data-node-id="2"][data-match]').waitFor({ state: "visible" });
      expect(await after.locator("svg.wireframe:not(.shot)").count()).toBe(1);
      expect(await after.locator("svg.wireframe text").allTextContents()).toContain("Settings");
      // A step that stayed on its screen shows it once.
      expect(await captions(stepOf("wrong-waypoint", 1))).toEqual(["screen"]);
    },
    SLOW,
  );

  test(
    "the page threw nothing, fetched nothing, and its CSP refused nothing",
    async () => {
      await page.screenshot({ path: join(shots, "report-screenshots.png"), fullPage: true });
      expect(watched.pageErrors).toEqual([]);
      expect(watched.fetched).toEqual([]);
      expect(await watched.violations()).toEqual([]);
    },
    SLOW,
  );
});
