// A page of ours (a report, a map) opened in headless Chromium the way the boundary tests look at it:
// every dialog, page error, request that leaves the file and CSP violation is recorded from before
// the page's first script, so a test can say none happened.

import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../../src/browser/chromium-browser.ts";
import { findChromium } from "../../src/browser/find-chromium.ts";

/** The runtime's own Chromium switches, which the tests launch with too. */
export { CHROMIUM_ARGS };

export interface WatchedPage {
  browser: Browser;
  page: Page;
  /** Messages of the dialogs that opened (each dismissed). */
  dialogs: string[];
  /** Uncaught errors of the page's scripts. */
  pageErrors: string[];
  /** URLs the page asked for that are not files (each refused). */
  fetched: string[];
  /** CSP violations the page reported: `directive blockedURI sample`. */
  violations(): Promise<string[]>;
}

/** Opens `file` (an absolute path) in a fresh headless Chromium; close `browser` when done. */
export async function openWatchedPage(file: string): Promise<WatchedPage> {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watched: WatchedPage = {
    browser,
    page,
    dialogs: [],
    pageErrors: [],
    fetched: [],
    violations: async () => (await page.evaluate("window.violations")) as string[],
  };
  page.on("dialog", (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => watched.pageErrors.push(String(error)));
  // Page code is given as text: this project type-checks without the DOM's types.
  await page.addInitScript(`window.violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.effectiveDirective + " " + e.blockedURI + " " + e.sample));`);
  await page.route("**", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    watched.fetched.push(url);
    return route.abort();
  });
  await page.goto(`file://${file}`);
  return watched;
}
