// Set-of-mark screenshots in a real headless Chromium: a page's elements marked by their refs for
// one screenshot and the page left as it was; a capture's screenshot drawn with its refs, scaled.
// A ref is text in the picture, never markup.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ariaElements } from "../src/browser/aria-elements.ts";
import { ChromiumBrowser, chromiumProcesses } from "../src/browser/chromium-browser.ts";
import { findChromium } from "../src/browser/find-chromium.ts";
import { markedCapture, markedPageScreenshot } from "../src/browser/set-of-mark.ts";
import { WebPage } from "../src/browser/web-page.ts";
import { embedScreenshot } from "../src/screen/screenshot.ts";
import { REPO } from "./support/cli.ts";

const PAGES = join(REPO, "fixtures/web/pages");
const DAY_VIEW = join(REPO, "fixtures/agent/trails/config/trailmaps/calendar/waypoints/calendar_android_day_view.example.webp");

setDefaultTimeout(60_000);

let browser: ChromiumBrowser;
beforeAll(async () => {
  browser = await ChromiumBrowser.launch(findChromium());
});
afterAll(async () => {
  await browser?.close();
  expect(chromiumProcesses()).toEqual([]);
});

/** A JPEG's size, from its start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  for (let at = 2; at < jpeg.length; ) {
    const marker = jpeg[at + 1]!;
    const length = jpeg.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  throw new Error("no start-of-frame segment");
}

describe("set-of-mark", () => {
  test("a page: its elements marked for one screenshot, then the page as it was; a ref is shown as text", async () => {
    const web = new WebPage({ browser: async () => browser, viewport: { width: 800, height: 600 }, baseDirs: [PAGES], cwd: REPO });
    try {
      const page = await web.page();
      await page.goto(pathToFileURL(join(PAGES, "shop.html")).href);
      const plain = await page.screenshot({ type: "jpeg", quality: 50 });
      // After Playwright's own screenshot, which leaves an empty style attribute on a field it hid the caret of.
      const before = await page.content();
      const list = ariaElements(await page.locator(":root").ariaSnapshot());
      const marked = await web.markedScreenshot(list);
      expect(marked).toStartWith("data:image/jpeg;base64,");
      expect(Buffer.from(marked!.slice("data:image/jpeg;base64,".length), "base64").equals(plain)).toBe(false);
      // The layer is gone: the page is as it was.
      expect(await page.content()).toBe(before);

      // A ref that looks like markup is drawn as its text: no element is made of it.
      const hostile = '<img src=x onerror="document.title=1">';
      await markedPageScreenshot(page, [{ ref: hostile, box: { x: 10, y: 10, width: 50, height: 20 } }], 5000);
      expect(await page.title()).toBe("Corner Shop");
      expect(await page.content()).toBe(before);
    } finally {
      await web.close();
    }
  });

  test("a capture: its screenshot with the boxes, scaled to 540 pixels wide", async () => {
    const embedded = embedScreenshot(DAY_VIEW);
    if (!("screenshot" in embedded)) throw new Error(`no screenshot at ${DAY_VIEW}`);
    const marks = [{ ref: "n2", box: { x: 0, y: 80, width: 160, height: 140 } }];
    const jpeg = await markedCapture(browser, embedded.screenshot, { width: 1080, height: 2400 }, marks);
    expect(jpegSize(jpeg)).toEqual({ width: 540, height: 1200 });
    const unmarked = await markedCapture(browser, embedded.screenshot, { width: 1080, height: 2400 }, []);
    expect(jpeg.equals(unmarked)).toBe(false);
  });
});
