// One headless Chromium per process, launched through playwright-core on the Chromium
// find-chromium.ts finds, lazily (the first web session that needs a page), with a fresh
// browser context per session; closed by its owner (the CLI, or a test) and never left behind.

import { readdirSync, readFileSync } from "node:fs";
import type { Browser, BrowserContext } from "playwright-core";
import { BrowserLaunchError } from "../errors.ts";

/** Chromium switches: headless, no sandbox (containers, CI), and nothing that calls home. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A switch Chromium ignores, so a leak check can tell this process's browsers from any other. */
const ownerSwitch = (pid = process.pid) => `--trailblaze-owner=${pid}`;

/** A running Chromium: each `newContext()` is isolated (cookies, storage, pages). */
export class ChromiumBrowser implements AsyncDisposable {
  readonly executable: string;
  readonly #browser: Browser;
  /** The browser's process id (it leads its own process group), where /proc tells it; else undefined. */
  readonly pid: number | undefined;
  #closed: Promise<void> | undefined;

  private constructor(executable: string, browser: Browser, pid: number | undefined) {
    this.executable = executable;
    this.#browser = browser;
    this.pid = pid;
  }

  /** Launches Chromium at `executable`. Throws BrowserLaunchError with Chromium's own message. */
  static async launch(executable: string): Promise<ChromiumBrowser> {
    let browser: Browser;
    try {
      // Loaded here, not at the top: a command that opens no page does not pay for playwright-core.
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({
        executablePath: executable,
        headless: true,
        args: [...CHROMIUM_ARGS, ownerSwitch()],
        // The CLI's reaper closes the browser on a signal; Playwright's own handlers would exit first.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      const detail = (error as Error).message.split("\n").slice(0, 6).join("\n");
      throw new BrowserLaunchError(
        `could not start Chromium at ${executable}: ${detail}\nSet TRAILBLAZE_CHROMIUM to a working Chromium, or run with --browser none to simulate the page.`,
        { cause: error },
      );
    }
    const main = chromiumProcesses()
      .filter((p) => p.main)
      .map((p) => p.pid);
    return new ChromiumBrowser(executable, browser, main.at(-1));
  }

  get connected(): boolean {
    return this.#browser.isConnected() && this.#closed === undefined;
  }

  /** A fresh context: nothing shared with any other session. */
  newContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
    return this.#browser.newContext({ viewport });
  }

  /** Closes the browser and every context; idempotent. */
  close(): Promise<void> {
    this.#closed ??= this.#browser.close().catch(() => {});
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/**
 * The Chromium processes (the browser, `main`, and its helpers) that process `owner` launched and that
 * still run, read from /proc (Linux); empty elsewhere. Zombies (exited, not yet reaped) do not count.
 */
export function chromiumProcesses(owner = process.pid): { pid: number; main: boolean }[] {
  const found: { pid: number; main: boolean }[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  const marker = ownerSwitch(owner);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      found.push({ pid: Number(entry), main: !cmdline.includes("--type=") });
    } catch {
      // gone meanwhile
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

let shared: Promise<ChromiumBrowser> | undefined;
let current: ChromiumBrowser | undefined;

/** The process's browser on `executable`, launched on first use (a failed launch is retried next time). */
export function sharedBrowser(executable: string): Promise<ChromiumBrowser> {
  if (shared === undefined) {
    shared = ChromiumBrowser.launch(executable);
    shared.catch(() => (shared = undefined));
  }
  return shared.then((browser) => {
    current = browser;
    if (browser.connected) return browser;
    shared = undefined;
    return sharedBrowser(executable);
  });
}

/** Closes the process's browser if one was launched; idempotent. */
export async function closeSharedBrowser(): Promise<void> {
  const launching = shared;
  shared = undefined;
  current = undefined;
  if (launching === undefined) return;
  const browser = await launching.catch(() => undefined);
  await browser?.close();
}

/** The shared browser's pid, if one runs (the reaper's last resort on exit kills its process group). */
export function sharedBrowserPid(): number | undefined {
  return current?.connected ? current.pid : undefined;
}
