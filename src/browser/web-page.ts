// One session's page in the real browser: its own browser context (cookies, storage and pages
// never shared), opened on first use and closed with the session; the element list of the page
// as it is now, URL resolution against the trail's folder, the requests its pages sent, the page's
// state for reports, and its screenshot with the elements' refs marked for a model with vision.

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { ariaElements, type AriaElementList } from "./aria-elements.ts";
import type { ChromiumBrowser } from "./chromium-browser.ts";
import { locate, type ElementTarget } from "./locate.ts";
import { markedPageScreenshot, type Mark } from "./set-of-mark.ts";

/** The page's state at a step, for reports. */
export interface WebPageSnapshot {
  kind: "web";
  url: string;
  title: string;
  /** The page's ARIA snapshot (Playwright's `ariaSnapshot()` text). */
  outline: string;
  /** The viewport as a small JPEG: `data:image/jpeg;base64,…`. */
  screenshot?: string;
}

interface WebPageOptions {
  /** The browser to open the context in (called once, on first use). */
  browser(): Promise<ChromiumBrowser>;
  /** Viewport in CSS pixels. */
  viewport: { width: number; height: number };
  /** Folders a relative URL is looked up in, first match wins (the trail's folder); else it resolves against `cwd`. */
  baseDirs: readonly string[];
  cwd: string;
  /** How long an element lookup waits for the element to be attached, ms. Default 10 000. */
  findTimeoutMs?: number;
  /** How long a check (visible, value, URL) waits to come true, ms. Default 5 000. */
  checkTimeoutMs?: number;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
/** The most requests a session keeps for web_assertNetworkEvent: a long session's first ones go. */
const MAX_REQUESTS = 5000;
/** The most elements a marked screenshot marks (the first in the list): more boxes hide the page. */
const MAX_MARKS = 150;

/** A URL as `web_navigate` takes it: with a scheme as is, else a path, looked up in `baseDirs` first, else against `cwd`, as a file: URL. */
export function resolvePageUrl(url: string, baseDirs: readonly string[], cwd: string): string {
  if (SCHEME.test(url) && !/^[a-zA-Z]:[\\/]/.test(url)) return url;
  for (const dir of baseDirs) {
    const file = resolve(dir, url);
    if (existsSync(file)) return pathToFileURL(file).href;
  }
  return pathToFileURL(resolve(cwd, url)).href;
}

export class WebPage implements AsyncDisposable {
  readonly findTimeoutMs: number;
  readonly checkTimeoutMs: number;
  readonly #options: WebPageOptions;
  #opening: Promise<{ context: BrowserContext; page: Page }> | undefined;
  #closed: Promise<void> | undefined;
  readonly #requests: { url: string; body: string }[] = [];

  constructor(options: WebPageOptions) {
    this.#options = options;
    this.findTimeoutMs = options.findTimeoutMs ?? 10_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 5_000;
  }

  /** Whether the context is open (a tool has used the page). */
  get opened(): boolean {
    return this.#opening !== undefined;
  }

  async #open(): Promise<{ context: BrowserContext; page: Page }> {
    if (this.#closed) throw new Error("the session's page is closed");
    this.#opening ??= (async () => {
      const browser = await this.#options.browser();
      const context = await browser.newContext(this.#options.viewport);
      // Every request the session's pages send, for web_assertNetworkEvent (upstream's network capture).
      context.on("request", (request) => {
        if (this.#requests.length >= MAX_REQUESTS) this.#requests.shift();
        this.#requests.push({ url: request.url(), body: request.postData() ?? "" });
      });
      return { context, page: await context.newPage() };
    })();
    this.#opening.catch(() => (this.#opening = undefined));
    return this.#opening;
  }

  /** The session's page, opening the browser context on first use. */
  async page(): Promise<Page> {
    return (await this.#open()).page;
  }

  async context(): Promise<BrowserContext> {
    return (await this.#open()).context;
  }

  /** The requests the session's pages sent so far (the last MAX_REQUESTS), URL and body, oldest first. */
  get requests(): readonly { url: string; body: string }[] {
    return this.#requests;
  }

  /** The page's numbered elements as they are now (upstream's element ids: what `ref: e5` means). */
  async elements(): Promise<AriaElementList> {
    const page = await this.page();
    return ariaElements(await page.locator(":root").ariaSnapshot());
  }

  /** The element a tool names (waited for unless `wait` is false), or a message saying why none was found. */
  async locate(target: ElementTarget, wait = true): Promise<Locator | string> {
    return locate(await this.page(), target, () => this.elements(), this.findTimeoutMs, wait);
  }

  /** A URL as `web_navigate` takes it: with a scheme as is, else a path, looked up in the base folders first. */
  resolveUrl(url: string): string {
    return resolvePageUrl(url, this.#options.baseDirs, this.#options.cwd);
  }

  /** The page's state now, for a report; undefined when no tool has opened the page. */
  async snapshot(options: { screenshot?: boolean } = {}): Promise<WebPageSnapshot | undefined> {
    if (!this.#opening || this.#closed) return undefined;
    const { page } = await this.#opening;
    const outline = await page
      .locator(":root")
      .ariaSnapshot({ timeout: this.checkTimeoutMs })
      .catch(() => "");
    const snapshot: WebPageSnapshot = { kind: "web", url: page.url(), title: await page.title().catch(() => ""), outline };
    if (options.screenshot !== false) {
      const jpeg = await page.screenshot({ type: "jpeg", quality: 50, timeout: this.checkTimeoutMs }).catch(() => undefined);
      if (jpeg) snapshot.screenshot = `data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}`;
    }
    return snapshot;
  }

  /**
   * The page's screenshot with each of `list`'s elements marked by its ref (set-of-mark: what a
   * model with vision sees beside the element list), as a JPEG data URL; undefined when no tool has
   * opened the page. An element that is not on the page now, or not in view, is left unmarked.
   */
  async markedScreenshot(list: AriaElementList): Promise<string | undefined> {
    if (!this.#opening || this.#closed) return undefined;
    const { page } = await this.#opening;
    const { width, height } = this.#options.viewport;
    const boxes = await Promise.all(
      list.elements.slice(0, MAX_MARKS).map(async (element): Promise<Mark | undefined> => {
        const found = await locate(page, { ref: element.ref }, async () => list, 0, false).catch(() => undefined);
        if (found === undefined || typeof found === "string") return undefined;
        const box = await found
          .first()
          .boundingBox({ timeout: 2000 })
          .catch(() => null);
        if (!box || box.x + box.width < 0 || box.y + box.height < 0 || box.x > width || box.y > height) return undefined;
        return { ref: element.ref, box };
      }),
    );
    const jpeg = await markedPageScreenshot(
      page,
      boxes.filter((mark) => mark !== undefined),
      this.checkTimeoutMs,
    ).catch(() => undefined);
    return jpeg ? `data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}` : undefined;
  }

  /** Closes the session's browser context (the browser stays for other sessions); idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      const opening = this.#opening;
      if (!opening) return;
      const opened = await opening.catch(() => undefined);
      await opened?.context.close().catch(() => {});
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
