// The map page as a person uses it: `map --html` on fixtures/map-graph/shop (a small trailmap shaped
// like upstream's, with our own PNG and WebP screenshots beside its captures) opened in a real
// headless Chromium from file://. The page loads with no script error and fetches nothing, every
// screenshot decodes, the graph has a node per waypoint and an edge per shortcut and trailhead,
// search finds a waypoint, a click opens its card, pan and zoom move the view; without script the
// graph is still drawn and its nodes link to the cards. Screenshots are kept with TRAILBLAZE_SCREENSHOTS.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { withoutChromium } from "./support/chromium.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { openWatchedPage, testBrowser, type WatchedPage } from "./support/watched-page.ts";

const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("map-graph-shots");
/** A browser and a CLI run on a shared, loaded machine: generous. */
const SLOW = 60_000;

const WAYPOINTS = ["about", "cart", "catalog", "checkout", "home", "product"].map((name) => `shop/android/${name}`);
const SHORTCUTS = ["cartBack", "cartToCheckout", "catalogToProduct", "homeToCart", "homeToCatalog", "productToCart"].map(
  (name) => `shop_android_${name}`,
);
const TRAILHEAD = "shop_android_launchApp";

let watched: WatchedPage;
let page: Page;
let out: string;
/** The `data-<key>` of each element `selector` finds. */
const data = (selector: string, key: string) =>
  page
    .locator(selector)
    .evaluateAll((elements, k) => elements.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset[k]), key);
const transform = () => page.locator("#viewport").getAttribute("transform");

const noChromium = withoutChromium();

beforeAll(async () => {
  if (noChromium) return;
  out = join(tempDir("map-graph"), "map.html");
  const run = await cli(["map", "fixtures/map-graph/shop", "--html", out], { cwd: REPO });
  expect(run).toEqual({ code: 0, stderr: "", stdout: `map page written to ${out} (6 waypoints, 6 shortcuts, 1 findings)\n` });
  watched = await openWatchedPage(out);
  page = watched.page;
}, SLOW);

afterAll(async () => {
  await watched?.context.close();
});

describe.skipIf(noChromium)("the map page's graph in Chromium", () => {
  test(
    "loads: no script error, no dialog, nothing fetched, no CSP violation; the whole map in view",
    async () => {
      expect(watched.pageErrors).toEqual([]);
      expect(watched.dialogs).toEqual([]);
      expect(watched.fetched).toEqual([]);
      expect(await watched.violations()).toEqual([]);
      expect(await page.locator("#controls").isVisible()).toBe(true);
      expect(await page.locator(".sub").innerText()).toBe("6 waypoints · 6 shortcuts · 1 trailheads · 5 captures checked · 4 screenshots");
      // The first view fits the whole drawing in the box.
      const box = (await page.locator("#graph-box").boundingBox())!;
      const drawn = (await page.locator("#viewport").boundingBox())!;
      expect(drawn.x).toBeGreaterThanOrEqual(box.x - 1);
      expect(drawn.y).toBeGreaterThanOrEqual(box.y - 1);
      expect(drawn.x + drawn.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(drawn.y + drawn.height).toBeLessThanOrEqual(box.y + box.height + 1);
      await page.screenshot({ path: join(shots, "map-graph.png") });
    },
    SLOW,
  );

  test(
    "every screenshot is embedded once and decodes; nodes and cards draw it, the wireframe where there is none",
    async () => {
      const images = (await page.locator("svg.graph defs image").evaluateAll((els) => els.map((e) => e.getAttribute("href")))) as string[];
      expect(images.map((href) => href.slice(0, href.indexOf(",")))).toEqual([
        "data:image/webp;base64",
        "data:image/png;base64",
        "data:image/png;base64",
        "data:image/png;base64",
      ]);
      const decoded = await page.evaluate(`Promise.all(${JSON.stringify(images)}.map(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }))`);
      expect(decoded).toEqual([
        [270, 600],
        [270, 600],
        [270, 600],
        [270, 600],
      ]);
      // In the graph: a <use> of its screenshot per node that has one; checkout's wireframe; about has no capture.
      const uses = await page.locator("svg.graph a[data-node] use").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
      expect(uses).toEqual(["#shot-1", "#shot-2", "#shot-4", "#shot-5"]);
      expect(await page.locator('svg.graph a[data-node="shop/android/checkout"] svg.mini rect').count()).toBe(2);
      expect(await page.locator('svg.graph a[data-node="shop/android/about"] .none').textContent()).toBe("no capture");
      // Drawn at its size: the home node's picture is as large as its frame.
      const picture = (await page.locator('svg.graph a[data-node="shop/android/home"] use').boundingBox())!;
      const frame = (await page.locator('svg.graph a[data-node="shop/android/home"] .frame').boundingBox())!;
      expect(picture.height).toBeGreaterThan(frame.height * 0.9);
      // On the cards: the same screenshot with the capture's boxes over it, the tapped nodes marked.
      expect(await page.locator('section.waypoint[data-waypoint="shop/android/home"] svg.wireframe.shot use').getAttribute("href")).toBe(
        "#shot-4",
      );
      expect(await page.locator('section.waypoint[data-waypoint="shop/android/home"] rect[data-match] > title').allTextContents()).toEqual([
        '#3 Button "Catalog"',
        '#4 Button "Cart"',
      ]);
      expect(await page.locator('section.waypoint[data-waypoint="shop/android/checkout"] svg.wireframe:not(.shot)').count()).toBe(1);
    },
    SLOW,
  );

  test(
    "a node per waypoint, one for the trailhead's start; an edge per shortcut and trailhead, labelled, with an arrow",
    async () => {
      const graph = page.locator("svg.graph");
      expect(await data("svg.graph [data-node]", "node")).toEqual(WAYPOINTS);
      expect(await graph.locator(".node.start").count()).toBe(1);
      expect(await data("svg.graph [data-edge]", "edge")).toEqual([...SHORTCUTS, TRAILHEAD]);
      expect(await graph.locator(".edge > text").allTextContents()).toEqual([
        "cartBack",
        "cartToCheckout",
        "catalogToProduct",
        "homeToCart",
        "homeToCatalog",
        "productToCart",
        "launchApp",
      ]);
      expect(await graph.locator(".edge.trailhead").getAttribute("data-to")).toBe("shop/android/home");
      const paths = await graph
        .locator(".edge path")
        .evaluateAll((els) => els.map((e) => [e.getAttribute("d")!.length > 0, e.getAttribute("marker-end")]));
      expect(paths).toEqual([...SHORTCUTS.map(() => [true, "url(#arrow)"]), [true, "url(#arrow-start)"]]);
      // Labels are shown once zoomed in enough to read them.
      await page.locator('[data-zoom="in"]').click();
      await page.locator('[data-zoom="in"]').click();
      expect(await graph.locator(".edge > text").first().isVisible()).toBe(true);
    },
    SLOW,
  );

  test(
    "search finds a waypoint by id: matches marked, the rest dimmed; Enter opens its card",
    async () => {
      await page.locator("#search").fill("prod");
      expect(await data("svg.graph .node.match", "node")).toEqual(["shop/android/product"]);
      expect(await page.locator("svg.graph .node.dim").count()).toBe(5);
      expect(await page.locator("#found").innerText()).toBe("1 of 6");
      await page.locator("#search").press("Enter");
      const panel = page.locator("#panel");
      expect(await panel.isVisible()).toBe(true);
      expect(await panel.locator(".in-panel h2").innerText()).toBe("shop/android/product");
      // Its screenshot at full size in the panel, the node its shortcut taps marked.
      const shot = (await panel.locator("svg.wireframe.shot").boundingBox())!;
      expect(shot.width).toBeGreaterThan(400);
      expect(await panel.locator("rect[data-match] > title").allTextContents()).toEqual(['#4 Button "Add to cart"']);
      expect(await panel.locator("ul.selectors li").allInnerTexts()).toEqual([
        'Red shoes is shown androidAccessibility{textRegex="Red shoes"}',
      ]);
      await page.screenshot({ path: join(shots, "map-graph-search.png") });
      await page.locator("#search").fill("");
      expect(await page.locator("svg.graph .dim").count()).toBe(0);
    },
    SLOW,
  );

  test(
    "a click on a node opens its card beside the graph, its shortcuts highlighted; a link in the card moves on; Escape closes",
    async () => {
      // The search centred the view on product: back to the whole map, where home is in view.
      await page.locator('[data-zoom="fit"]').click();
      await page.locator('svg.graph a[data-node="shop/android/home"]').click();
      const panel = page.locator("#panel");
      expect(await panel.locator(".in-panel h2").innerText()).toBe("shop/android/home");
      expect(await panel.locator(".desc").innerText()).toBe("The shop's home, where the app opens.");
      expect(await data("svg.graph .node.selected", "node")).toEqual(["shop/android/home"]);
      expect(await data("svg.graph .edge.hi", "edge")).toEqual([
        "shop_android_cartBack",
        "shop_android_homeToCart",
        "shop_android_homeToCatalog",
        TRAILHEAD,
      ]);
      // The panel narrowed the graph's box; the chosen node is still in view.
      const inView = async (id: string) => {
        const box = (await page.locator("#graph-box").boundingBox())!;
        const node = (await page.locator(`svg.graph a[data-node="${id}"]`).boundingBox())!;
        return node.x >= box.x && node.x + node.width <= box.x + box.width && node.y >= box.y && node.y + node.height <= box.y + box.height;
      };
      expect(await inView("shop/android/home")).toBe(true);
      // The URL did not change: the card opened in the panel, not by following the link.
      expect(new URL(page.url()).hash).toBe("");
      await panel.locator('li.shortcut[data-shortcut="shop_android_homeToCatalog"] a').click();
      expect(await panel.locator(".in-panel h2").innerText()).toBe("shop/android/catalog");
      expect(await data("svg.graph .node.selected", "node")).toEqual(["shop/android/catalog"]);
      expect(await inView("shop/android/catalog")).toBe(true);
      await page.screenshot({ path: join(shots, "map-graph-card.png") });
      await page.keyboard.press("Escape");
      expect(await panel.isVisible()).toBe(false);
      expect(await page.locator("svg.graph .selected, svg.graph .hi").count()).toBe(0);
    },
    SLOW,
  );

  test(
    "pan and zoom: the wheel zooms, a drag pans, fit shows the whole map again",
    async () => {
      await page.locator('[data-zoom="fit"]').click();
      const fitted = await transform();
      const box = (await page.locator("#graph-box").boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      const zoomed = await transform();
      expect(zoomed).not.toBe(fitted);
      const scale = (t: string | null) => Number(/scale\(([^)]+)\)/.exec(t ?? "")?.[1]);
      expect(scale(zoomed)).toBeGreaterThan(scale(fitted));
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2 - 100, { steps: 5 });
      await page.mouse.up();
      const panned = await transform();
      const translate = (t: string | null) => (/translate\(([^,]+),([^)]+)\)/.exec(t ?? "") ?? []).slice(1).map(Number);
      const [zx, zy] = translate(zoomed);
      const [px, py] = translate(panned);
      expect(px! - zx!).toBeCloseTo(-200, 0);
      expect(py! - zy!).toBeCloseTo(-100, 0);
      expect(scale(panned)).toBe(scale(zoomed));
      // A drag that ends on a node does not open it.
      expect(await page.locator("#panel").isVisible()).toBe(false);
      await page.locator('[data-zoom="fit"]').click();
      expect(await transform()).toBe(fitted);
      expect(watched.pageErrors).toEqual([]);
      expect(await watched.violations()).toEqual([]);
    },
    SLOW,
  );
});

describe.skipIf(noChromium)("the map page without script", () => {
  test(
    "the graph is drawn at its own size, its nodes link to the cards, every card is shown",
    async () => {
      const context = await (await testBrowser()).newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      try {
        const plain = await context.newPage();
        await plain.goto(`file://${out}`);
        expect(await plain.locator("#controls").isVisible()).toBe(false);
        expect(await plain.locator("svg.graph [data-node]").count()).toBe(6);
        expect(await plain.locator("section.waypoint:visible").count()).toBe(6);
        await plain.locator('svg.graph a[data-node="shop/android/cart"]').click();
        expect(new URL(plain.url()).hash).toBe("#wp-shop_android_cart");
        expect(await plain.evaluate(`getComputedStyle(document.getElementById("wp-shop_android_cart")).outlineStyle`)).toBe("solid");
        await plain.screenshot({ path: join(shots, "map-graph-no-script.png"), fullPage: true });
      } finally {
        await context.close();
      }
    },
    SLOW,
  );
});
