// The playwright-native driver's web_* tools on a real headless Chromium, against our own page
// (fixtures/web/pages): one browser for the file, a fresh browser context (and page) per test.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ChromiumBrowser, chromiumProcesses } from "../src/browser/chromium-browser.ts";
import { findChromium } from "../src/browser/find-chromium.ts";
import { WebPage } from "../src/browser/web-page.ts";
import { BrowserLaunchError } from "../src/errors.ts";
import { frameworkTools, SimulatedDevice } from "../src/builtins/index.ts";
import { buildContext } from "../src/core/context.ts";
import type { ToolResult } from "../src/core/tool-result.ts";
import { withoutChromium } from "./support/chromium.ts";
import { REPO } from "./support/cli.ts";

const PAGES = join(REPO, "fixtures/web/pages");
const SHOP = pathToFileURL(join(PAGES, "shop.html")).href;
const context = buildContext(
  { sessionId: "web-browser", invocationId: "call-1" },
  { platform: "WEB", widthPixels: 1280, heightPixels: 800, driverType: "playwright-native" },
  {},
);

// Generous: the machine is shared, and a cold Chromium takes seconds.
setDefaultTimeout(60_000);

const noChromium = withoutChromium();
let browser: ChromiumBrowser;
beforeAll(async () => {
  if (noChromium) return;
  browser = await ChromiumBrowser.launch(findChromium());
});
afterAll(async () => {
  await browser?.close();
  expect(chromiumProcesses()).toEqual([]);
});

/**
 * The waits of a call meant to pass: generous, so a loaded machine cannot fail it (a click that
 * waited 1.5 s for its element did). A call meant to fail waits them out in full, so those calls
 * (`fails`) get the short waits their messages name.
 */
const WAITS = { findTimeoutMs: 30_000, checkTimeoutMs: 30_000 };
const SHORT_WAITS = { findTimeoutMs: 1500, checkTimeoutMs: 1000 };

/** A session's page and its framework tools: `call` for what should pass, `fails` for what should fail. */
async function session(url: string | null = "shop.html") {
  const web = new WebPage({ browser: async () => browser, viewport: { width: 1280, height: 800 }, baseDirs: [PAGES], cwd: REPO, ...WAITS });
  const device = new SimulatedDevice();
  const toolsNow = () => new Map(frameworkTools(device, web).map((t) => [t.name, t]));
  const tools = toolsNow();
  const call = (name: string, args: Record<string, unknown> = {}) => tools.get(name)!.invoke({ args, context });
  // Only this test changes a page's waits, for one call: the tools made then read the short ones.
  const waits = web as { findTimeoutMs: number; checkTimeoutMs: number };
  const fails = async (name: string, args: Record<string, unknown> = {}) => {
    Object.assign(waits, SHORT_WAITS);
    try {
      return await toolsNow().get(name)!.invoke({ args, context });
    } finally {
      Object.assign(waits, WAITS);
    }
  };
  if (url !== null) expect(await call("web_navigate", { url })).toMatchObject({ variant: "Success" });
  return { web, call, fails, [Symbol.asyncDispose]: () => web.close() };
}

const ok = (result: ToolResult) => ({
  variant: result.variant,
  message: result.message,
  unverified: (result as { unverified?: string }).unverified,
});
const passed = (message: string) => ({ variant: "Success", message, unverified: undefined });
const failed = (message: string) => ({ variant: "ExceptionThrown", message, unverified: undefined });

describe.skipIf(noChromium)("web_* on a real page", () => {
  test("navigate resolves a relative URL against the trail's folder; back and forward; currentUrl and waitForUrl", async () => {
    await using s = await session();
    expect(ok(await s.call("web_currentUrl"))).toEqual(passed(SHOP));
    expect(ok(await s.call("web_click", { ref: "css=#to-other" }))).toEqual(
      passed(`Clicked ref "css=#to-other". The page navigated to ${pathToFileURL(join(PAGES, "other.html")).href}.`),
    );
    expect(ok(await s.call("web_navigate", { action: "back" }))).toEqual(passed(`Navigated back to ${SHOP}`));
    expect(ok(await s.call("web_navigate", { action: "FORWARD" }))).toEqual(
      passed(`Navigated forward to ${pathToFileURL(join(PAGES, "other.html")).href}`),
    );
    expect(ok(await s.call("web_waitForUrl", { pattern: "other\\.html$", timeoutMs: 30_000 }))).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_waitForUrl", { pattern: "shop\\.html$", timeoutMs: 300 }))).toEqual(
      failed(
        `web_waitForUrl: the page URL ${JSON.stringify(pathToFileURL(join(PAGES, "other.html")).href)} did not match "shop\\\\.html$" within 300 ms`,
      ),
    );
    expect(ok(await s.fails("web_navigate", { action: "FORWARD" }))).toEqual(
      failed(`web_navigate: nothing to go forward to; the page is ${pathToFileURL(join(PAGES, "other.html")).href}`),
    );
  });

  test("the counter: clicks by css ref, by element id and by nodeSelector; a wrong expected text fails", async () => {
    await using s = await session();
    const list = await s.web.elements();
    const plus = list.elements.find((e) => e.descriptor === 'button "Add one"')!;
    expect(plus.ref).toMatch(/^e\d+$/);
    await s.call("web_click", { ref: plus.ref });
    await s.call("web_click", { nodeSelector: { web: { cssSelector: "#plus" } } });
    await s.call("web_click", { ref: 'button "Add one"' });
    expect(
      ok(await s.call("web_click", { ref: "css=#minus", nodeSelector: { web: { ariaRole: "button", ariaNameRegex: "^Remove one$" } } })),
    ).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Items in basket: 2" }))).toEqual(
      passed('Verified "Items in basket: 2" is visible on the page.'),
    );
    expect(ok(await s.fails("web_verifyTextVisible", { text: "Items in basket: 3" }))).toEqual(
      failed('web_verifyTextVisible: "Items in basket: 3" is not visible on the page (waited 1000 ms)'),
    );
    expect(ok(await s.call("web_verifyValue", { ref: "css=#count", expected: "basket: 2" }))).toEqual(
      passed('Verified the text of ref "css=#count" is "basket: 2".'),
    );
    expect(ok(await s.fails("web_verifyValue", { ref: "css=#count", expected: "basket: 5" }))).toEqual(
      failed('web_verifyValue: the text of ref "css=#count" is "Items in basket: 2", expected it to contain "basket: 5" (waited 1000 ms)'),
    );
  });

  test("an element that is not there fails naming what was looked for", async () => {
    await using s = await session();
    const count = (await s.web.elements()).elements.length;
    expect(ok(await s.fails("web_click", { ref: "e999" }))).toEqual(
      failed(`web_click: the page has no element e999 (its element list has ${count}: e1…e${count}; web_snapshot lists them)`),
    );
    expect(ok(await s.fails("web_click", { nodeSelector: { web: { cssSelector: "#nope" } } }))).toEqual(
      failed(
        `web_click: nothing on the page matches nodeSelector {"web":{"cssSelector":"#nope"}} (waited 1500 ms; web_snapshot lists the page's elements)`,
      ),
    );
    expect(ok(await s.fails("web_click", {}))).toEqual(failed("web_click: give the element's ref or nodeSelector"));
  });

  test("the form: type, selectOption, verifyValue VALUE and ATTRIBUTE, pressKey", async () => {
    await using s = await session();
    expect(ok(await s.call("web_type", { text: "Ada", ref: 'textbox "Your name"' }))).toEqual(
      passed(`Filled "Ada" into ref "textbox \\"Your name\\"".`),
    );
    await s.call("web_type", { text: " L.", nodeSelector: { web: { cssSelector: "#name" } }, clearFirst: false });
    expect(ok(await s.call("web_verifyValue", { ref: "css=#name", type: "value", expected: "Ada L." }))).toMatchObject({
      variant: "Success",
    });
    expect(ok(await s.fails("web_verifyValue", { ref: "css=#name", type: "value", expected: "Ada" }))).toEqual(
      failed('web_verifyValue: the value of ref "css=#name" is "Ada L.", expected "Ada" (waited 1000 ms)'),
    );
    expect(ok(await s.call("web_selectOption", { values: ["Large"], nodeSelector: { web: { cssSelector: "#size" } } }))).toMatchObject({
      variant: "Success",
    });
    expect(ok(await s.call("web_verifyValue", { ref: "css=#size", type: "VALUE", expected: "l" }))).toMatchObject({ variant: "Success" });
    expect(
      ok(await s.call("web_verifyValue", { ref: "css=#note", type: "attribute", attribute: "data-kind", expected: "free-text" })),
    ).toMatchObject({ variant: "Success" });
    expect(ok(await s.fails("web_verifyValue", { ref: "css=#note", type: "attribute", attribute: "data-kind", expected: "x" }))).toEqual(
      failed('web_verifyValue: the attribute data-kind of ref "css=#note" is "free-text", expected "x" (waited 1000 ms)'),
    );
    await s.call("web_click", { ref: 'button "Send order"' });
    expect(ok(await s.call("web_verifyElementVisible", { nodeSelector: { web: { cssSelector: "#sent" } } }))).toMatchObject({
      variant: "Success",
    });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Order sent for Ada L. (l)" }))).toMatchObject({ variant: "Success" });
    await s.call("web_click", { ref: "css=#keys" });
    expect(ok(await s.call("web_pressKey", { key: "Enter" }))).toEqual(passed("Pressed Enter."));
    expect(ok(await s.call("web_verifyTextVisible", { text: "Last key: Enter" }))).toMatchObject({ variant: "Success" });
  });

  test("a list with duplicate names: element ids pick the right duplicate, as do nthIndex and verifyListVisible", async () => {
    await using s = await session();
    const views = (await s.web.elements()).elements.filter((e) => e.descriptor === 'button "View"');
    expect(views.map((e) => e.nth)).toEqual([0, 1, 2]);
    await s.call("web_click", { ref: views[1]!.ref });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Selected cable-2" }))).toMatchObject({ variant: "Success" });
    await s.call("web_click", { nodeSelector: { web: { ariaRole: "button", ariaNameRegex: "View", nthIndex: 2 } } });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Selected plug-1" }))).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_verifyListVisible", { ref: "css=#products", items: ["Cable", "Plug"] }))).toEqual(
      passed('Verified ref "css=#products" shows all 2 items.'),
    );
    expect(ok(await s.fails("web_verifyListVisible", { ref: "css=#products", items: ["Cable", "Lamp", "Fuse"] }))).toEqual(
      failed('web_verifyListVisible: ref "css=#products" is missing "Lamp", "Fuse" (waited 1000 ms)'),
    );
    expect(ok(await s.fails("web_verifyElementVisible", { ref: "css=#sent" }))).toEqual(
      failed('web_verifyElementVisible: ref "css=#sent" is on the page but not visible (waited 1000 ms)'),
    );
  });

  test("scroll a container (the mouse over it) and the page; hover", async () => {
    await using s = await session();
    expect(ok(await s.call("web_scroll", { ref: 'region "Long panel"', amount: 200 }))).toEqual(
      passed('Scrolled ref "region \\"Long panel\\"" DOWN by 200 px.'),
    );
    expect(ok(await s.call("web_verifyTextVisible", { text: "Panel scrolled" }))).toMatchObject({ variant: "Success" });
    expect(
      ok(await s.call("web_scroll", { direction: "up", amount: 1000, nodeSelector: { web: { cssSelector: "#panel" } } })),
    ).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Panel at top" }))).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_scroll", {}))).toEqual(passed("Scrolled the page DOWN by 500 px."));
    expect(ok(await s.fails("web_verifyTextVisible", { text: "Tip shown" }))).toMatchObject({ variant: "ExceptionThrown" });
    await s.call("web_hover", { ref: "css=#hover-target" });
    expect(ok(await s.call("web_verifyTextVisible", { text: "Tip shown" }))).toMatchObject({ variant: "Success" });
  });

  test("snapshot lists element ids; evaluate; cookies stay in their session's context", async () => {
    await using a = await session();
    await using b = await session();
    const snap = await a.call("web_snapshot", { screenName: "home" });
    expect(snap.message).toStartWith(`home: ${SHOP}\n`);
    expect(snap.message).toContain('[e1] heading "Corner Shop"');
    expect(ok(await a.call("web_evaluate", { script: "document.title" }))).toEqual(passed('"Corner Shop"'));
    await a.call("web_navigate", { url: "http://127.0.0.1:9/" }).catch(() => {});
    const cookie = JSON.stringify([{ name: "basket", value: "3", url: "http://127.0.0.1:9/" }]);
    expect(ok(await a.call("web_applyCookies", { cookiesJson: cookie }))).toEqual(passed("Applied 1 cookie."));
    const state = (r: ToolResult) =>
      (r as unknown as { structuredContent: { cookies: { name: string }[] } }).structuredContent.cookies.map((c) => c.name);
    expect(state(await a.call("web_getStorageState"))).toEqual(["basket"]);
    expect(state(await b.call("web_getStorageState"))).toEqual([]);
  });

  test("the page's state for reports: URL, title, ARIA outline and a small JPEG of the viewport", async () => {
    await using s = await session(null);
    expect(await s.web.snapshot()).toBeUndefined();
    await s.call("web_navigate", { url: "shop.html" });
    const snapshot = (await s.web.snapshot())!;
    expect({ kind: snapshot.kind, url: snapshot.url, title: snapshot.title }).toEqual({ kind: "web", url: SHOP, title: "Corner Shop" });
    expect(snapshot.outline).toContain('- heading "Corner Shop" [level=1]');
    expect(snapshot.screenshot).toStartWith("data:image/jpeg;base64,/9j/");
    expect(snapshot.screenshot!.length).toBeLessThan(200_000);
  });

  test("web_assertNetworkEvent passes on an event in a request's URL or body, and fails saying how many requests it saw", async () => {
    // A page on a local server that sends an analytics beacon (a body) and a pixel (a URL).
    using server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        new URL(request.url).pathname === "/"
          ? new Response(
              `<!doctype html><title>Checkout</title><img src="/pixel?e=Page-View" alt=""><button onclick="navigator.sendBeacon('/collect', 'event=checkout-started')">Pay</button>`,
              { headers: { "content-type": "text/html" } },
            )
          : new Response(""),
    });
    await using s = await session(null);
    await s.call("web_navigate", { url: `http://127.0.0.1:${server.port}/` });
    expect(ok(await s.call("web_assertNetworkEvent", { eventName: "page-view" }))).toEqual(
      passed(`Network event "page-view" seen in a request to http://127.0.0.1:${server.port}/pixel?e=Page-View.`),
    );
    expect(ok(await s.call("web_click", { ref: 'button "Pay"' }))).toMatchObject({ variant: "Success" });
    expect(ok(await s.call("web_assertNetworkEvent", { eventName: "checkout-started" }))).toEqual(
      passed(`Network event "checkout-started" seen in a request to http://127.0.0.1:${server.port}/collect.`),
    );
    expect(ok(await s.call("web_assertNetworkEvent", { eventName: "refund-issued", timeoutMs: 300 }))).toEqual(
      failed(
        `web_assertNetworkEvent: no request of this session carried "refund-issued" in its URL or body (${s.web.requests.length} requests seen, waited 300 ms)`,
      ),
    );
    expect(s.web.requests.length).toBeGreaterThanOrEqual(3);
  });
});

describe("launching", () => {
  test("a Chromium that does not start is a BrowserLaunchError saying what to do", async () => {
    const error = await ChromiumBrowser.launch("/bin/false").catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(BrowserLaunchError);
    expect((error as BrowserLaunchError).code).toBe("BROWSER_LAUNCH");
    expect((error as Error).message).toStartWith("could not start Chromium at /bin/false: ");
    expect((error as Error).message).toEndWith(
      "\nSet TRAILBLAZE_CHROMIUM to a working Chromium, or run with --browser none to simulate the page.",
    );
  });
});
