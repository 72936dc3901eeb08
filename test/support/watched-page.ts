// A page of ours (a report, a map) opened in headless Chromium the way the boundary tests look at it:
// every dialog, page error, request that leaves the file and CSP violation is recorded from before
// the page's first script, so a test can say none happened.

import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../../src/browser/chromium-browser.ts";
import { findChromium } from "../../src/browser/find-chromium.ts";

/** The runtime's own Chromium switches, which the tests launch with too. */
export { CHROMIUM_ARGS };

let shared: Promise<Browser> | undefined;

/**
 * One headless Chromium per test process for the pages tests look at (reports, maps), launched on
 * first use and closed after the last test (preload.ts): a launch costs ~2.5 s of CPU. Each test
 * opens its own context, so nothing carries over between them. Not for the runtime's own browser:
 * the CLI launches and closes that, and the tests check it does.
 */
export function testBrowser(): Promise<Browser> {
  shared ??= import("playwright-core").then(({ chromium }) => chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS }));
  return shared;
}

/** Closes every context (and so every page) open in testBrowser's Chromium: what a file opened, at its end. */
export async function closeTestPages(): Promise<void> {
  const browser = await shared?.catch(() => undefined);
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** Closes testBrowser's Chromium, if one was launched. */
export async function closeTestBrowser(): Promise<void> {
  const launched = shared;
  shared = undefined;
  await (await launched?.catch(() => undefined))?.close();
}

export interface WatchedPage {
  /** The page's own context (close it when done), in the process's test browser. */
  context: BrowserContext;
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

/** Opens `file` (an absolute path) in a fresh context of the test browser; close `context` when done. */
export async function openWatchedPage(file: string): Promise<WatchedPage> {
  const context = await (await testBrowser()).newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const watched: WatchedPage = {
    context,
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
