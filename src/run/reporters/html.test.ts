import { describe, expect, test } from "bun:test";
import type { WireframeScreen } from "../../screen/wireframe.ts";
import type { RunReport, StepReport, TrailReport } from "../run-types.ts";
import { cspHash } from "../../core/html-template.ts";
import { failuresFirst, formatHtmlReport, REPORT_CSP } from "./html.ts";

const screen: WireframeScreen = {
  file: "maps/app/waypoints/home.example.json",
  width: 1080,
  height: 2400,
  waypoint: "app/home",
  nodes: [
    { id: 1, bounds: [0, 0, 1080, 2400], type: "FrameLayout" },
    { id: 2, parent: 1, bounds: [60, 200, 1020, 320], type: "TextView", text: "Hello <Ada> & co" },
    { id: 3, parent: 1, bounds: [0, 2200, 540, 2400], type: "Button", text: "Settings", interactive: true },
  ],
};

function step(overrides: Partial<StepReport>): StepReport {
  return { index: 1, kind: "step", title: "Open settings", status: "passed", durationMs: 3, tools: [], line: 5, col: 3, ...overrides };
}

function trail(overrides: Partial<TrailReport>): TrailReport {
  return {
    file: "trails/a.trail.yaml",
    id: "a",
    status: "passed",
    startedAt: "2026-11-25T06:00:00.000Z",
    durationMs: 20,
    steps: [],
    unverified: 0,
    ran: true,
    ...overrides,
  };
}

const web = {
  kind: "web" as const,
  url: "https://shop.example/cart",
  title: "Cart <1>",
  outline: '- heading "Your cart" [level=1]\n- button "Pay <now>"',
  screenshot: "data:image/png;base64,iVBORw0KGgo=",
};

const passing = trail({
  id: "opens-settings",
  tags: ["smoke", "settings"],
  session: { id: "s1", target: "app", driver: "android-ondevice-accessibility", platform: "android", agent: "host" },
  steps: [
    step({
      tools: [
        {
          name: "tapOnElementWithText",
          args: { text: "Settings" },
          result: { status: "success", variant: "Success", message: "tapped" },
          startedAt: "2026-11-25T06:00:00.001Z",
          durationMs: 2,
        },
      ],
      memory: { set: { greeting: "Hello" }, deleted: ["old"] },
      screen: {
        kind: "capture",
        screen: "abc123abc123",
        waypoint: "app/home",
        matched: [3],
        moves: [{ from: "app/home", to: "app/settings", shortcut: "homeToSettings" }],
      },
    }),
  ],
});
const failing = trail({
  file: "trails/b.trail.yaml",
  id: "checks-cart",
  title: "Checks the cart",
  status: "failed",
  error: "step 1 failed: web_verifyText: no <b>",
  tags: ["web"],
  session: { id: "s2", target: "shop", driver: "playwright-native", platform: "web", agent: "host" },
  steps: [
    step({
      status: "failed",
      title: "Verify the total",
      tools: [
        {
          name: "web_verifyText",
          args: { text: "***" },
          result: { status: "error", variant: "ExceptionThrown", message: "no <b>" },
          startedAt: "2026-11-25T06:00:00.002Z",
          durationMs: 1,
        },
      ],
      failure: {
        tool: "web_verifyText",
        variant: "ExceptionThrown",
        message: "no <b>",
        line: 9,
        col: 7,
        stderr: { source: "tools/shop.ts", lines: ["boom <x>"] },
      },
      screen: web,
    }),
    step({ index: 2, status: "skipped", title: "Pay", screen: { ...web, screenshot: "https://tracker.example/pixel.png" } }),
  ],
});
const run: RunReport = {
  trails: [passing, failing],
  summary: { passed: 1, failed: 1, errors: 0, skipped: 0, unverified: 0, durationMs: 40 },
  screens: { abc123abc123: screen },
};

describe("html reporter", () => {
  const page = formatHtmlReport(run);

  test("one self-contained page: CSP allowing nothing from the network, its own style and script only, by their hashes", () => {
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP.replaceAll("'", "&apos;")}">`);
    expect(REPORT_CSP).not.toContain("unsafe");
    const style = /<style>([^]*?)<\/style>/.exec(page)![1]!;
    const script = /<script>([^]*?)<\/script>/.exec(page)![1]!;
    expect(REPORT_CSP).toBe(
      `default-src 'none'; style-src ${cspHash(style)}; script-src ${cspHash(script)}; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(page.match(/<script|<style/g)).toEqual(["<style", "<script"]);
    // A hashed style-src allows no style="…" attribute: the page has none.
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).not.toMatch(/<(?:script|img|link|iframe)[^>]+(?:src|href)="(?!data:)/);
    expect(page).toContain("<title>Trailblaze report: 1 of 2 failed</title>");
  });

  test("failures first, each trail with its status, tags and target for the filters", () => {
    expect(failuresFirst(run.trails).map((t) => t.trail.id)).toEqual(["checks-cart", "opens-settings"]);
    expect(page.indexOf('id="trail-2"')).toBeLessThan(page.indexOf('id="trail-1"'));
    // A failed trail is open from the start; a passed one is not.
    expect(page).toContain(
      `<details class="trail failed" open="" id="trail-2" data-status="failed" data-target="shop" data-tags="[&quot;web&quot;]">`,
    );
    expect(page).toContain(`<details class="trail passed" id="trail-1" `);
    expect(page).toContain(`data-status="passed" data-target="app" data-tags="[&quot;smoke&quot;,&quot;settings&quot;]"`);
    expect(page).toContain(
      `<option value="settings">settings</option><option value="smoke">smoke</option><option value="web">web</option>`,
    );
  });

  test("a step: its call, failure with stderr tail, memory changes, and where the device was", () => {
    expect(page).toContain(`<span class="why">step 1 failed: web_verifyText: no &lt;b&gt;</span>`);
    expect(page).toContain(
      `<div class="failure"><div class="msg">ExceptionThrown: no &lt;b&gt;</div><div class="meta">trails/b.trail.yaml:9:7 · web_verifyText</div><div class="meta">stderr of tools/shop.ts (last 1 lines):</div><pre>boom &lt;x&gt;</pre></div>`,
    );
    expect(page).toContain(`<div class="mem">memory: <code>greeting</code> = <code>"Hello"</code>, <code>old</code> deleted</div>`);
    expect(page).toContain(
      `at <span class="wp">app/home</span> → shortcut <code>homeToSettings</code> → <span class="wp">app/settings</span>`,
    );
  });

  test("a captured screen: stored once as a template, the step refers to it with its marks", () => {
    expect(page.match(/<template id="screen-abc123abc123">/g)).toHaveLength(1);
    expect(page).toContain(
      `<div class="pics"><figure class="pic"><div class="wf" title="click to enlarge" data-screen="abc123abc123" data-match="3" data-required="" data-forbidden=""></div><figcaption>screen</figcaption></figure></div>`,
    );
    expect(page).toContain(
      `<rect data-node-id="2" x="60" y="200" width="960" height="120"><title>#2 TextView "Hello &lt;Ada&gt; &amp; co"</title></rect>`,
    );
  });

  test("a screenshot: drawn under the boxes, once, in the screen's template; the labels left to the picture", () => {
    const shot = `data:image/png;base64,${Buffer.from("\x89PNG\r\n\x1a\n").toString("base64")}`;
    const withShot = formatHtmlReport({ ...run, screens: { abc123abc123: { ...screen, screenshot: shot } } });
    expect(withShot.split(shot)).toHaveLength(2);
    expect(withShot).toContain(`<svg xmlns="http://www.w3.org/2000/svg" class="wireframe shot" viewBox="0 0 1080 2400"`);
    expect(withShot).toContain(`<image href="${shot}" x="0" y="0" width="1080" height="2400" preserveAspectRatio="none"/>`);
    expect(withShot).not.toContain(`<text `);
    // One left out says why, under the wireframe.
    const noted = formatHtmlReport({
      ...run,
      screens: { abc123abc123: { ...screen, screenshotNote: "screenshot home.example.webp left out: <big>" } },
    });
    expect(noted).toContain(`<div class="cap">screenshot home.example.webp left out: &lt;big&gt;</div></template>`);
    expect(noted).not.toContain("<image");
  });

  test("a screenshot that is not a WebP, PNG or JPEG data: URL (a report that skipped validation) is not drawn", () => {
    for (const hostile of [
      "javascript:alert(1)",
      "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
      "data:text/html;base64,PHNjcmlwdD4=",
      `data:image/png;base64,AAAA"><script>alert(1)</script>`,
      "https://tracker.example/p.png",
    ]) {
      const out = formatHtmlReport({ ...run, screens: { abc123abc123: { ...screen, screenshot: hostile } } });
      expect(out).not.toContain("<image");
      expect(out).not.toContain(hostile);
      expect(out).toContain(`class="wireframe" viewBox`);
    }
  });

  test("a step that moved shows the screen before and after; a failed check, the device's screen beside the expected one", () => {
    const moved = formatHtmlReport({
      ...run,
      trails: [
        trail({
          steps: [
            step({
              screen: {
                kind: "capture",
                screen: "abc123abc123",
                matched: [3],
                moves: [{ from: "a", to: "b", shortcut: "aToB" }],
                after: "def456def456",
                afterMatched: [7],
              },
            }),
          ],
        }),
      ],
    });
    expect(moved).toContain(
      `<div class="pics"><figure class="pic"><div class="wf" title="click to enlarge" data-screen="abc123abc123" data-match="3" data-required="" data-forbidden=""></div><figcaption>before</figcaption></figure><span class="arrow">→</span><figure class="pic"><div class="wf" title="click to enlarge" data-screen="def456def456" data-match="7" data-required="" data-forbidden=""></div><figcaption>after</figcaption></figure></div>`,
    );
    const failed = formatHtmlReport({
      ...run,
      trails: [
        trail({
          status: "failed",
          steps: [
            step({
              status: "failed",
              screen: {
                kind: "capture",
                screen: "abc123abc123",
                waypoint: "app/home",
                matched: [2],
                expected: {
                  kind: "waypoint",
                  waypoint: "app/settings",
                  screen: "def456def456",
                  actual: "abc123abc123",
                  conditions: [
                    { role: "required", description: "Title <h1>", ok: true, actual: [2], expected: [4] },
                    { role: "required", description: "Dark option", ok: false, actual: [], expected: [6] },
                    { role: "forbidden", description: "Bottom bar", ok: false, actual: [3], expected: [] },
                  ],
                },
              },
            }),
          ],
        }),
      ],
    });
    expect(failed).toContain(
      `<div class="pics expected"><figure class="pic"><div class="wf" title="click to enlarge" data-screen="abc123abc123" data-match="" data-required="2" data-forbidden="3"></div><figcaption>actual: the device's screen</figcaption></figure><figure class="pic"><div class="wf" title="click to enlarge" data-screen="def456def456" data-match="" data-required="4,6" data-forbidden=""></div><figcaption>expected: app/settings</figcaption></figure></div>`,
    );
    expect(failed).toContain(
      `expected waypoint <span class="wp">app/settings</span>:<ul><li class="ok required"><span class="mark">✓</span> required <b>Title &lt;h1&gt;</b> <span class="meta">found here (#2) · on the expected screen #4</span></li>`,
    );
    expect(failed).toContain(
      `<li class="bad forbidden"><span class="mark">✗</span> forbidden <b>Bottom bar</b> <span class="meta">present here (#3)</span></li>`,
    );
  });

  test("a web page: the outline as text, the screenshot only from a data: URL", () => {
    expect(page).toContain(`page <span class="wp">Cart &lt;1&gt;</span> <code>https://shop.example/cart</code>`);
    expect(page).toContain(`<img alt="screenshot of https://shop.example/cart" src="data:image/png;base64,iVBORw0KGgo=">`);
    expect(page).toContain(`<pre>- heading "Your cart" [level=1]\n- button "Pay &lt;now&gt;"</pre>`);
    expect(page).not.toContain("tracker.example");
  });

  test("a run that never started: the problems, no trails", () => {
    const notRun = formatHtmlReport({
      trails: [],
      summary: { passed: 0, failed: 0, errors: 0, skipped: 0, unverified: 0, durationMs: 0 },
      problems: [{ message: "trail: expected a list", file: "trails/x.trail.yaml", line: 3, col: 1 }],
    });
    expect(notRun).toContain("<title>Trailblaze report: not run</title>");
    expect(notRun).toContain(
      `<h2>The run stopped before any trail started (1 problem)</h2><pre>trails/x.trail.yaml:3:1: trail: expected a list</pre>`,
    );
  });

  test("every value is escaped where it lands, even one of the wrong type (a report that skipped validation)", () => {
    const payload = `"><img src=x onerror=alert(1)>`;
    const wrong = <T>(value: unknown) => value as T;
    const crafted: RunReport = {
      ...run,
      trails: [
        trail({
          status: wrong(`failed${payload}`),
          unverified: wrong(`1${payload}`),
          tags: [payload],
          session: { id: payload, target: payload, driver: payload, platform: payload, agent: payload },
          steps: [
            step({
              index: wrong(payload),
              status: wrong(payload),
              kind: wrong(payload),
              line: wrong(payload),
              screen: { kind: "capture", screen: payload, matched: wrong([payload]) },
            }),
          ],
        }),
      ],
      summary: { ...run.summary, passed: wrong(payload), failed: wrong(payload) },
      shard: wrong({ index: payload, total: payload }),
      screens: {
        [payload]: {
          ...screen,
          width: wrong(payload),
          height: wrong(payload),
          nodes: [{ id: wrong(payload), bounds: wrong([payload, "1", 2, 3]), text: payload }],
        },
      },
    };
    const out = formatHtmlReport(crafted);
    expect(out).not.toContain("<img");
    expect(out).not.toContain(`onerror=alert(1)>`);
    expect(out).toContain(`&quot;&gt;&lt;img src=x onerror=alert(1)&gt;`);
    // Coordinates that are not numbers are drawn at 0.
    expect(out).toContain(`<svg xmlns="http://www.w3.org/2000/svg" class="wireframe" viewBox="0 0 1 1" width="190" height="190"`);
    expect(out).toContain(`<rect data-node-id="0" x="0" y="0" width="2" height="3">`);
  });

  test("100 trails on a few screens stay small: each screen once", () => {
    const many: TrailReport[] = Array.from({ length: 100 }, (_, i) => ({
      ...passing,
      id: `trail-${i}`,
      steps: Array.from({ length: 6 }, (_, n) => ({ ...passing.steps[0]!, index: n + 1 })),
    }));
    const big = formatHtmlReport({ ...run, trails: many, summary: { ...run.summary, passed: 100, failed: 0 } });
    expect(big.match(/<template /g)).toHaveLength(1);
    expect(big.match(/<li class="step /g)).toHaveLength(600);
    expect(big.length).toBeLessThan(1_500_000);
  });
});
