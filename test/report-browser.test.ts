// The HTML report and the map page in a real headless Chromium (Debian's, found by findChromium):
// the report of the calendar map walk, made by the CLI as users run it, opens from file:// with
// every non-file request blocked and none made; the failing trail is open on its steps, whose
// pictures show the marked nodes; filters hide and show trails. Screenshots are kept when
// TRAILBLAZE_SCREENSHOTS names a folder (else in a temporary one), for a person to look at.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";
import { withoutChromium } from "./support/chromium.ts";
import { closeTestPages, testBrowser } from "./support/watched-page.ts";

const FIXTURE = join(REPO, "fixtures/report");
const SECRET = "Tr0ub4dor-&-3-calendar";
const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("report-shots");
/** A browser and a CLI subprocess on a shared, loaded machine: generous. */
const SLOW = 60_000;

const noChromium = withoutChromium();
let browser: Browser;
const fetched: string[] = [];
const pageErrors: string[] = [];

/** A page at 1280 px wide that lets file: URLs load and records (and aborts) every other request. */
async function open(file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await page.route("**", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    fetched.push(url);
    return route.abort();
  });
  await page.goto(`file://${file}`);
  return page;
}

beforeAll(async () => {
  if (noChromium) return;
  browser = await testBrowser();
}, SLOW);

afterAll(closeTestPages);

describe.skipIf(noChromium)("the HTML report in Chromium", () => {
  const dir = tempDir("report-browser");
  let page: Page;

  beforeAll(async () => {
    const run = await cliProcess(
      [
        "run",
        "trails",
        "--map",
        "maps/calendar",
        "--start",
        "calendar/android/day_view",
        "--no-logging",
        "--secret",
        `calendarPassword=${SECRET}`,
        "--reporter",
        "html",
        "--output",
        dir,
      ],
      { cwd: FIXTURE },
    );
    expect(run.code).toBe(1);
    page = await open(join(dir, "index.html"));
  }, SLOW);

  test(
    "summary and both trails, the failing one first and named",
    async () => {
      expect(await page.locator(".summary").innerText()).toBe(
        `2 trails\n1 failed\n1 passed\n${await page.locator(".summary .chip").last().innerText()}`,
      );
      expect(await page.locator("details.trail .tname").allInnerTexts()).toEqual([
        "Expects the theme picker one tap too early",
        "Open the theme picker from the day view",
      ]);
      expect(await page.locator("details.trail.failed .why").innerText()).toStartWith(
        'step 5 failed: assertWaypoint: the screen is not at waypoint "calendar/android/theme_picker"',
      );
      // The failing trail is open from the start, its pictures drawn; the passing one is closed.
      expect(await page.locator("details.trail[open]").count()).toBe(1);
      expect(await page.locator("details.trail.failed[open]").count()).toBe(1);
      expect(await page.locator("details.trail.passed svg.wireframe:visible").count()).toBe(0);
    },
    SLOW,
  );

  test(
    "the failing trail draws each step's screens with the nodes it acted on marked",
    async () => {
      const steps = page.locator("details.trail.failed li.step");
      expect(await steps.count()).toBe(6);
      // Step 4 tapped "General" on the settings root: node #5 is marked, visible, inside its "before" picture.
      const general = steps.nth(3).locator('rect[data-node-id="5"][data-match]');
      await general.waitFor({ state: "visible" });
      const box = (await general.boundingBox())!;
      const picture = (await steps.nth(3).locator("svg.wireframe").first().boundingBox())!;
      expect(box.width).toBeGreaterThan(10);
      expect(box.x).toBeGreaterThanOrEqual(picture.x);
      expect(box.x + box.width).toBeLessThanOrEqual(picture.x + picture.width + 1);
      expect(await steps.nth(3).locator("rect[data-match]").count()).toBe(1);
      expect(await steps.nth(3).locator("figcaption").allInnerTexts()).toEqual(["before", "after"]);
      // The failed step shows where the device really was, beside the waypoint it expected.
      expect(await steps.nth(4).locator(".where").innerText()).toBe("at calendar/android/settings_general");
      expect(await steps.nth(4).locator("figure.pic").first().locator("svg.wireframe rect[data-node-id]").count()).toBe(11);
      await page.screenshot({ path: join(shots, "report-failing-trail.png"), fullPage: true });
    },
    SLOW,
  );

  test(
    "filters: by status and by tag",
    async () => {
      await page.getByRole("button", { name: "passed" }).click();
      expect(await page.locator("details.trail:visible .tname").allInnerTexts()).toEqual(["Open the theme picker from the day view"]);
      expect(await page.locator("#count").innerText()).toBe("1 of 2 trails");
      await page.getByRole("button", { name: "all" }).click();
      await page.locator("#f-tag").selectOption("smoke");
      expect(await page.locator("details.trail:visible .tname").allInnerTexts()).toEqual(["Open the theme picker from the day view"]);
      await page.locator("#f-tag").selectOption("");
      expect(await page.locator("details.trail:visible").count()).toBe(2);
    },
    SLOW,
  );

  test("the secret is nowhere in the folder; the page fetched nothing and threw nothing", () => {
    expect(readFileSync(join(dir, "index.html"), "utf8")).not.toContain(SECRET.replaceAll("&", "&amp;"));
    expect(readFileSync(join(dir, "index.html"), "utf8")).not.toContain(SECRET);
    expect(fetched).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe.skipIf(noChromium)("the map page in Chromium", () => {
  test(
    "every waypoint a card with its wireframe, every shortcut a link that leads to its card",
    async () => {
      const out = join(tempDir("map-browser"), "map.html");
      const run = await cliProcess(["map", "maps/calendar", "--html", out], { cwd: FIXTURE });
      expect(run.stdout).toBe(`map page written to ${out} (5 waypoints, 4 shortcuts, 0 findings)\n`);
      const page = await open(out);
      expect(await page.locator("section.waypoint h2").allInnerTexts()).toEqual([
        "calendar/android/day_view",
        "calendar/android/drawer_open",
        "calendar/android/settings_general",
        "calendar/android/settings_root",
        "calendar/android/theme_picker",
      ]);
      expect(await page.locator("section.waypoint svg.wireframe").count()).toBe(5);
      expect(await page.locator("li.shortcut").count()).toBe(4);
      await page.locator('li.shortcut[data-shortcut="calendar_android_generalToTheme"] a').click();
      expect(new URL(page.url()).hash).toBe("#wp-calendar_android_theme_picker");
      // The day view's drawer button, which its shortcut taps, is marked on its thumbnail.
      await page.locator('#wp-calendar_android_day_view rect[data-node-id="2"][data-match]').waitFor({ state: "visible" });
      await page.screenshot({ path: join(shots, "map.png"), fullPage: true });
      expect(fetched).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    SLOW,
  );
});
