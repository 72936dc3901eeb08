// Bench W3's baseline: a plain playwright-core script doing what fixtures/web/bench/counter.trail.yaml
// does, on the same page and the same Chromium with the same switches; prints the time of the actions
// after navigation (ms) as JSON.

import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../src/browser/chromium-browser.ts";
import { findChromium } from "../src/browser/find-chromium.ts";

const page0 = pathToFileURL(join(resolve(import.meta.dir, "../fixtures/web/pages"), "shop.html")).href;
const browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
await page.goto(page0);
const started = performance.now();
for (let i = 0; i < 3; i++) await page.locator("css=#plus").first().click();
await page.getByText("Items in basket: 3").first().waitFor({ state: "visible" });
await page.locator("css=#minus").first().click();
await page.getByText("Items in basket: 2").first().waitFor({ state: "visible" });
const actionsMs = performance.now() - started;
await browser.close();
console.log(JSON.stringify({ actionsMs, actions: 6 }));
