// How the HTML report reads what was not checked, in a real headless Chromium: the demo's trails with
// no screen loaded (four pass by a step checked for real, the map walk checks nothing). The trail
// that checked nothing reads "unverified" in its summary and under its filter, each of its steps ⚠
// with why, and a call that only acted is marked so. Screenshots are kept when
// TRAILBLAZE_SCREENSHOTS names a folder (else in a temporary one), for a person to look at.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";
import { withoutChromium } from "./support/chromium.ts";
import { closeTestPages, testBrowser } from "./support/watched-page.ts";

const DEMO = join(REPO, "fixtures/demo");
const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("report-unverified-shots");
/** A browser and a CLI subprocess on a shared, loaded machine: generous. */
const SLOW = 60_000;

const noChromium = withoutChromium();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (noChromium) return;
  const dir = tempDir("report-unverified");
  const run = await cliProcess(["run", "trails", "trails-map", "--no-logging", "--reporter", "html", "--output", dir], { cwd: DEMO });
  expect(run.code).toBe(0);
  browser = await testBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.route("**", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  await page.goto(`file://${join(dir, "index.html")}`);
}, SLOW);

afterAll(closeTestPages);

describe.skipIf(noChromium)("an unverified trail in the HTML report", () => {
  test(
    "the title, the summary and the filters count it apart from the passed ones",
    async () => {
      expect(await page.title()).toBe("Trailblaze report: 4 passed, 1 with nothing verified");
      const chips = await page.locator(".summary .chip").allInnerTexts();
      expect(chips.slice(0, 4)).toEqual(["5 trails", "4 passed", "1 ran with nothing verified", "12 unverified steps"]);
      await page.getByRole("button", { name: "unverified" }).click();
      expect(await page.locator("details.trail:visible .tname").allInnerTexts()).toEqual(["Log in, open Settings, then the profile"]);
      expect(await page.locator("details.trail:visible .status").first().textContent()).toBe("unverified");
      await page.getByRole("button", { name: "passed" }).click();
      expect(await page.locator("details.trail:visible").count()).toBe(4);
      await page.getByRole("button", { name: "all" }).click();
    },
    SLOW,
  );

  test(
    "opened, each step reads ⚠ with why, and a call that only acted is marked",
    async () => {
      const trail = page.locator("details.trail.unverified");
      await trail.locator("summary").click();
      const steps = trail.locator("li.step");
      expect(await steps.locator(".mark").allInnerTexts()).toEqual(["⚠", "⚠", "⚠", "⚠", "⚠"]);
      expect(await steps.first().locator(".note").innerText()).toStartWith("⚠ unverified: ");
      // A trail with a step that only acted: the settings trail's trailhead launches the app.
      const settings = page.locator("details.trail", { hasText: "Open settings and go back" });
      await settings.locator("summary").click();
      const launch = settings.locator("li.step").first();
      expect(await launch.locator(".mark").innerText()).toBe("⚠");
      expect(await launch.locator(".note").innerText()).toBe(
        "⚠ unverified: nothing checked: launchApp acted on a simulated device with no screen loaded",
      );
      expect(await launch.locator(".call .unv").last().innerText()).toBe(
        "⚠ nothing checked: acted on a simulated device with no screen loaded",
      );
      // Its result is in the colour of unverified (#d9480f), not of a pass.
      const colour = await page.evaluate(
        `getComputedStyle(document.querySelector("details.trail.passed[open] li.step .call .variant")).color`,
      );
      expect(colour).toBe("rgb(217, 72, 15)");
      // Its assertion on memory is a plain pass beside it.
      expect(await settings.locator("li.step.passed .mark").allInnerTexts()).toEqual(["✓"]);
      await page.screenshot({ path: join(shots, "report-unverified.png"), fullPage: true });
    },
    SLOW,
  );
});
