// An app map crosses a boundary when `map --html` turns it into a page: its waypoint ids,
// descriptions, selectors, shortcut ids and captured texts are whatever the files say. A map whose
// every such text holds markup is rendered through the CLI and loaded in a real headless Chromium:
// no dialog, no injected element or attribute, the text shown as text (on the cards and in the
// graph: node ids, tooltips, edge labels, the search, the card a click opens), the page's links,
// folding findings and script at work; and its CSP (no 'unsafe-inline') would stop markup that got
// in anyway. A "screenshot" beside a capture that is markup, not an image, is not embedded.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { withoutChromium } from "./support/chromium.ts";
import { cli, tempDir } from "./support/cli.ts";
import { openWatchedPage, type WatchedPage } from "./support/watched-page.ts";

const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("boundary-map-shots");
/** A browser and a CLI run on a shared, loaded machine: generous. */
const SLOW = 60_000;

/** Markup that would run script, add elements or attributes, or close the page's <title>, <style>, <a> or <code>, were it not escaped. */
const PAYLOAD = `"><img src=x onerror=alert(1) data-pwned></code></a></title></style></script><script data-pwned>alert(2)</script>'-alert(3)-'<svg onload="alert(4)" data-pwned></svg><style data-pwned>main{display:none}</style><!--`;
const tagged = (label: string) => `${label} ${PAYLOAD}`;

/** The map folder's name holds markup too (no slash: it is one folder); it is the page's title and heading. */
const MAP = `map "><img src=x onerror=alert(5) data-pwned>'-alert(6)-'`;
const HOME = tagged("hostile/home");
const SETTINGS = tagged("hostile/settings");
const TO_SETTINGS = tagged("toSettings");
const BACK = tagged("back");
const STRAY = tagged("stray");
const NOWHERE = tagged("nowhere");
const ELSEWHERE = tagged("elsewhere");
const GO_TEXT = tagged("go button");
const LAUNCH = tagged("launch");
/** What `anchor()` in map-html.ts makes of a waypoint id. */
const anchor = (id: string) => `wp-${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;

const node = (nodeId: number, [left, top, right, bottom]: number[], detail: Record<string, unknown>, children: unknown[] = []) => ({
  nodeId,
  bounds: { left, top, right, bottom },
  driverDetail: { class: "androidAccessibility", packageName: "com.example.hostile", ...detail },
  children,
});

/** Writes the hostile map under `root/MAP` (YAML files written as JSON, which is YAML, so every text is exact). */
function writeMap(root: string): void {
  const dir = join(root, MAP);
  mkdirSync(join(dir, "waypoints"), { recursive: true });
  mkdirSync(join(dir, "shortcuts"), { recursive: true });
  const write = (file: string, data: unknown) => writeFileSync(join(dir, file), JSON.stringify(data, null, 1));
  write("waypoints/home.waypoint.yaml", {
    id: HOME,
    description: tagged("home description"),
    android: {
      required: [
        { description: tagged("required heading"), selector: { androidAccessibility: { textRegex: `Heading '-alert(7)-' <b>` } } },
        { description: "The go button", selector: { androidAccessibility: { resourceIdRegex: "com\\.example\\.hostile:id/go" } } },
      ],
      forbidden: [{ description: tagged("forbidden node"), selector: { androidAccessibility: { textRegex: ".*onerror.*" } } }],
    },
  });
  write("waypoints/home.example.json", {
    waypointId: HOME,
    deviceWidth: 1080,
    deviceHeight: 2400,
    trailblazeNodeTree: node(1, [0, 0, 1080, 2400], { className: "android.widget.FrameLayout" }, [
      node(2, [60, 200, 1020, 320], { className: "android.widget.TextView", text: tagged("node text") }),
      node(3, [60, 900, 1020, 1040], {
        className: "android.widget.Button",
        text: GO_TEXT,
        resourceId: "com.example.hostile:id/go",
        isClickable: true,
      }),
    ]),
  });
  // No capture beside it: a "no capture" card and a warning.
  write("waypoints/settings.waypoint.yaml", { id: SETTINGS, description: tagged("settings description"), android: { required: [] } });
  write("shortcuts/toSettings.shortcut.yaml", {
    id: TO_SETTINGS,
    description: tagged("shortcut description"),
    shortcut: { from: HOME, to: SETTINGS },
    tools: [
      {
        tapOnElementBySelector: {
          reason: tagged("reason"),
          nodeSelector: { androidAccessibility: { resourceIdRegex: "com\\.example\\.hostile:id/go" } },
        },
      },
    ],
  });
  write("shortcuts/back.shortcut.yaml", { id: BACK, shortcut: { from: SETTINGS, to: HOME }, tools: [{ pressBack: {} }] });
  // A trailhead: an edge from "any state", labelled with its id.
  mkdirSync(join(dir, "trailheads"), { recursive: true });
  write("trailheads/launch.trailhead.yaml", {
    id: LAUNCH,
    description: tagged("trailhead description"),
    trailhead: { to: HOME },
    tools: [{ pressBack: {} }],
  });
  // Beside home's capture, a "screenshot" that is markup: not a WebP, PNG or JPEG image, so not embedded.
  writeFileSync(
    join(dir, "waypoints/home.example.webp"),
    `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(8)"><script>alert(9)</script></svg>${PAYLOAD}`,
  );
  // From and to waypoints that are not in the map, and a tap on text no node holds.
  write("shortcuts/stray.shortcut.yaml", {
    id: STRAY,
    shortcut: { from: NOWHERE, to: ELSEWHERE },
    tools: [{ tapOnElementWithText: { text: tagged("no such text") } }],
  });
}

let watched: WatchedPage;
let page: Page;
let written: string;
let dialogs: string[];
let fetched: string[];
let pageErrors: string[];
/** The computed outline style of the card with `id` (":target" outlines it). */
const outline = async (id: string) =>
  (await page.evaluate(`getComputedStyle(document.getElementById(${JSON.stringify(anchor(id))})).outlineStyle`)) as string;
/** Whether the list of findings at the top is open. */
const findingsOpen = async () => (await page.evaluate(`document.querySelector("details.findings").open`)) as boolean;
const violations = () => watched.violations();

const noChromium = withoutChromium();

beforeAll(async () => {
  if (noChromium) return;
  const root = tempDir("boundary-map");
  writeMap(root);
  written = join(root, "page", "map.html");
  const run = await cli(["map", MAP, "--html", "page/map.html"], { cwd: root });
  expect(run).toEqual({ code: 0, stderr: "", stdout: "map page written to page/map.html (2 waypoints, 3 shortcuts, 5 findings)\n" });
  watched = await openWatchedPage(written);
  ({ page, dialogs, fetched, pageErrors } = watched);
}, SLOW);

afterAll(async () => {
  await watched?.context.close();
});

describe.skipIf(noChromium)("an app map full of markup renders inert in Chromium", () => {
  test(
    "no dialog, no injected element or attribute, nothing fetched, no error",
    async () => {
      expect(dialogs).toEqual([]);
      expect(fetched).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(await page.locator("[data-pwned], img, iframe, [onerror], [onload]").count()).toBe(0);
      // One script: the page's own, at the end of <body>.
      expect(await page.evaluate("document.scripts.length")).toBe(1);
      expect(await page.evaluate("document.scripts[0].parentElement === document.body && !document.scripts[0].src")).toBe(true);
      expect(await page.evaluate("document.querySelectorAll('style').length")).toBe(1);
      // Nothing was commented out or hidden: every card is there and shown.
      expect(await page.locator("section.waypoint:visible").count()).toBe(2);
    },
    SLOW,
  );

  test(
    "every text is shown as text, exactly as the files hold it",
    async () => {
      expect(await page.title()).toEndWith(MAP);
      expect(await page.locator("h1 code").innerText()).toBe(MAP);
      expect(await page.locator("section.waypoint h2").allInnerTexts()).toEqual([HOME, SETTINGS]);
      expect(
        await page
          .locator("section.waypoint")
          .evaluateAll((cards) => cards.map((c) => (c as unknown as { dataset: Record<string, string> }).dataset.waypoint)),
      ).toEqual([HOME, SETTINGS]);
      expect(await page.locator(".desc").allInnerTexts()).toEqual([tagged("home description"), tagged("settings description")]);
      expect(await page.locator("li.shortcut code").allInnerTexts()).toEqual([TO_SETTINGS, BACK]);
      expect(
        await page
          .locator("li.shortcut")
          .evaluateAll((items) => items.map((i) => (i as unknown as { dataset: Record<string, string> }).dataset.shortcut)),
      ).toEqual([TO_SETTINGS, BACK]);
      const home = page.locator(`#${anchor(HOME)}`);
      expect(await home.locator("li.shortcut a").innerText()).toBe(SETTINGS);
      expect(await home.locator(".thumb svg.wireframe").count()).toBe(1);
      expect(
        await page
          .locator(`#${anchor(SETTINGS)} .none`)
          .first()
          .innerText(),
      ).toBe("no capture");
      // The orphan shortcut: its id, its unknown from, and its unknown to marked as such.
      expect(await page.locator("div.findings ul li").innerText()).toBe(`${STRAY}: ${NOWHERE} → ${ELSEWHERE} (not in the map)`);
      // Check's findings name the hostile ids, descriptions, selectors and captured texts as they are.
      const findings = await page.locator("details.findings .finding").allInnerTexts();
      const expected = [
        `waypoint ${HOME}: required selector "${tagged("required heading")}"`,
        `(androidAccessibility{textRegex="Heading '-alert(7)-' <b>"}) matches nothing`,
        `waypoint ${HOME}: forbidden selector "${tagged("forbidden node")}"`,
        JSON.stringify(tagged("node text")),
        `shortcut ${STRAY}: from waypoint "${NOWHERE}" is not in the map`,
        `shortcut ${STRAY}: to waypoint "${ELSEWHERE}" is not in the map`,
        `waypoint ${SETTINGS} has no capture beside it`,
      ];
      expect(expected.filter((text) => !findings.some((f) => f.includes(text)))).toEqual([]);
      // A captured text is in the wireframe, as its node's tooltip and (cut to fit) its label.
      const tips = await home.locator("rect[data-node-id] > title").allTextContents();
      expect(tips).toContain(`#2 TextView ${JSON.stringify(tagged("node text"))}`);
      expect(tips).toContain(`#3 Button ${JSON.stringify(GO_TEXT)}`);
      expect((await home.locator("svg.wireframe text").allTextContents()).some((label) => label.startsWith('node text "><img src=x'))).toBe(
        true,
      );
    },
    SLOW,
  );

  test(
    "the page works under its CSP: styled, links lead to their cards, the tapped node marked, findings fold",
    async () => {
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
      expect(csp).toMatch(
        /^default-src 'none'; img-src data:; style-src 'sha256-[A-Za-z0-9+/]+=*'; script-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'$/,
      );
      // The stylesheet applied (allowed by its hash).
      expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(241, 243, 245)");
      // The shortcut's selector taps the go button: marked on the thumbnail.
      await page.locator(`#${anchor(HOME)} rect[data-node-id="3"][data-match]`).waitFor({ state: "visible" });
      expect(await page.locator("rect[data-match]").count()).toBe(1);
      // A shortcut's link leads to its card, which is outlined as the target; and back.
      await page.locator(`#${anchor(HOME)} li.shortcut a`).click();
      expect(new URL(page.url()).hash).toBe(`#${anchor(SETTINGS)}`);
      expect(await outline(SETTINGS)).toBe("solid");
      await page.locator(`#${anchor(SETTINGS)} li.shortcut a`).click();
      expect(new URL(page.url()).hash).toBe(`#${anchor(HOME)}`);
      expect(await outline(HOME)).toBe("solid");
      expect(await outline(SETTINGS)).toBe("none");
      // A short list of findings starts open, and folds and unfolds.
      const details = page.locator("details.findings");
      expect(await findingsOpen()).toBe(true);
      await details.locator("summary").click();
      expect(await findingsOpen()).toBe(false);
      expect(await details.locator(".finding").first().isVisible()).toBe(false);
      await details.locator("summary").click();
      expect(await findingsOpen()).toBe(true);
      expect(await details.locator(".finding").first().isVisible()).toBe(true);
      expect(await details.locator("summary").innerText()).toBe("check: 4 errors, 1 warning");
      await page.screenshot({ path: join(shots, "map-hostile.png"), fullPage: true });
      expect(await violations()).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(dialogs).toEqual([]);
    },
    SLOW,
  );

  test(
    "the graph: every id, label and tooltip as text; search and the card a click opens show them as text too",
    async () => {
      const graph = page.locator("svg.graph");
      // A node per waypoint and per id a shortcut names that is not in the map, one for the trailhead's start.
      expect(
        await graph
          .locator("[data-node]")
          .evaluateAll((nodes) => nodes.map((n) => (n as unknown as { dataset: Record<string, string> }).dataset.node)),
      ).toEqual([HOME, SETTINGS, NOWHERE, ELSEWHERE]);
      expect(await graph.locator(".node.start").count()).toBe(1);
      // An edge per shortcut (in file order) and trailhead, each labelled with its id (no prefix is common to them)
      const edges = graph.locator("[data-edge]");
      expect(await edges.evaluateAll((es) => es.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset.edge))).toEqual([
        BACK,
        STRAY,
        TO_SETTINGS,
        LAUNCH,
      ]);
      // Each label cut to 36 characters (its tooltip below has it whole).
      expect(await graph.locator(".edge > text").allTextContents()).toEqual(
        [BACK, STRAY, TO_SETTINGS, LAUNCH].map((id) => `${id.slice(0, 35)}…`),
      );
      expect(await graph.locator(".edge > title").allTextContents()).toEqual([
        `shortcut ${BACK}: ${SETTINGS} → ${HOME}`,
        `shortcut ${STRAY}: ${NOWHERE} → ${ELSEWHERE}`,
        `shortcut ${TO_SETTINGS}: ${HOME} → ${SETTINGS}`,
        `trailhead ${LAUNCH}: any state → ${HOME}`,
      ]);
      // A node's tooltip: its id and description, exactly; its label the id without the common "hostile/".
      const home = graph.locator("a[data-node]").first();
      expect(await home.locator("> title").textContent()).toBe(`${HOME}\n${tagged("home description")}`);
      expect((await home.locator("> text").textContent())!.startsWith('home "><img src=x')).toBe(true);
      expect(await graph.locator("[data-node].missing > title").allTextContents()).toEqual([
        `${NOWHERE}: not in the map`,
        `${ELSEWHERE}: not in the map`,
      ]);
      // Check's errors on home: a badge with their count.
      expect(await home.locator(".badge > title").textContent()).toBe("check: 2 errors");
      // The disguised screenshot is not in the page; its card says why.
      expect(await page.locator(`#${anchor(HOME)} .none`).allInnerTexts()).toContain(
        "screenshot home.example.webp left out: not a WebP, PNG or JPEG image",
      );
      expect(await page.locator("svg.graph image").count()).toBe(0);
      // Search by a hostile id: one match, the rest dimmed.
      await page.locator("#search").fill(SETTINGS);
      expect(
        await graph
          .locator(".node.match")
          .evaluateAll((ns) => ns.map((n) => (n as unknown as { dataset: Record<string, string> }).dataset.node)),
      ).toEqual([SETTINGS]);
      expect(await page.locator("#found").innerText()).toBe("1 of 4");
      await page.locator("#search").press("Enter");
      expect(await page.locator("#panel .in-panel h2").innerText()).toBe(SETTINGS);
      // A click on home's node opens its card: the same texts, as text; its shortcut's link moves the panel on.
      await page.locator("#search").fill("");
      await home.click();
      const panel = page.locator("#panel");
      expect(await panel.isVisible()).toBe(true);
      expect(await panel.locator(".in-panel h2").innerText()).toBe(HOME);
      expect(await panel.locator(".desc").innerText()).toBe(tagged("home description"));
      expect(await panel.locator("ul.selectors li").first().innerText()).toBe(
        `${tagged("required heading")} androidAccessibility{textRegex="Heading '-alert(7)-' <b>"}`,
      );
      expect(await panel.locator("[id]").count()).toBe(0);
      expect(
        await graph
          .locator(".edge.hi")
          .evaluateAll((es) => es.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset.edge)),
      ).toEqual([BACK, TO_SETTINGS, LAUNCH]);
      await panel.locator("li.shortcut a").click();
      expect(await panel.locator(".in-panel h2").innerText()).toBe(SETTINGS);
      await page.keyboard.press("Escape");
      expect(await panel.isVisible()).toBe(false);
      await page.screenshot({ path: join(shots, "map-hostile-graph.png") });
      expect(await violations()).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(await page.locator("[data-pwned], img, iframe, [onerror], [onload]").count()).toBe(0);
    },
    SLOW,
  );

  test(
    "markup that got into the page anyway could not run or style: no inline handler, script or style attribute is allowed",
    async () => {
      const outcome = await page.evaluate(`(async () => {
      document.body.insertAdjacentHTML("beforeend", '<img id="probe-img" src="data:," onerror="window.handlerRan=true"><p id="probe-style" style="color: rgb(255, 0, 0)">x</p>');
      const script = document.createElement("script");
      script.textContent = "window.scriptRan = true";
      document.body.append(script);
      const style = document.createElement("style");
      style.textContent = "#probe-style { text-decoration: line-through }";
      document.head.append(style);
      // Read once the browser has refused each of them (a refusal is reported as it happens).
      const refused = ["script-src-attr", "script-src-elem", "style-src-attr", "style-src-elem"];
      const allRefused = () => refused.every((d) => window.violations.some((v) => v.startsWith(d + " ")));
      for (let i = 0; i < 1000 && !allRefused(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const probe = getComputedStyle(document.getElementById("probe-style"));
      return { handler: window.handlerRan ?? false, script: window.scriptRan ?? false, color: probe.color, decoration: probe.textDecorationLine };
    })()`);
      expect(outcome).toEqual({ handler: false, script: false, color: "rgb(33, 37, 41)", decoration: "none" });
      const blocked = (await violations()).map((v) => v.split(" ")[0]);
      expect(blocked).toEqual(expect.arrayContaining(["script-src-attr", "script-src-elem", "style-src-attr", "style-src-elem"]));
    },
    SLOW,
  );

  test("the page as written: no markup from the map, no 'unsafe-inline', the folder's name escaped in the title", () => {
    const html = readFileSync(written, "utf8");
    // What matched, not the whole page, when this fails.
    expect(html.match(/<img|<svg onload|data-pwned>|'unsafe-inline'|<image/g)).toBeNull();
    // One <script>: the page's own, allowed by its hash.
    expect(html.match(/<script/g)).toEqual(["<script"]);
    expect(html.match(/<title>[^<]*<\/title>/)?.[0]).toEndWith(
      `${MAP.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")}</title>`,
    );
  });
});
