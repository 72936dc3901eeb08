// `trailblaze eval` on model benchmark trails shaped like upstream's (trails/benchmarks/llm-model/*
// on its playwright-native sample app, fixtures/eval-web): the sample app served over HTTP, every
// step driven by a scripted model in a real Chromium; one model keeps count and passes every trail,
// the other presses a button once however many times a step asks and fails the trails that count.
// Then the eval's page in Chromium: the models side by side, the chart, a failed run's turns, with
// nothing fetched and no script error; its screenshot is kept (TRAILBLAZE_SCREENSHOTS names the
// folder; docs/images/eval-page.png is one, made so).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { withoutChromium } from "./support/chromium.ts";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";
import { startLlmServer, type LlmServer } from "./support/llm-server.ts";
import { byModel, capable, type PlannedCall } from "./support/scripted-models.ts";
import { closeTestPages, testBrowser } from "./support/watched-page.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/eval-web");
const TRAILS = "trails/benchmarks/llm-model";
const shots = process.env.TRAILBLAZE_SCREENSHOTS ?? tempDir("eval-web-shots");
/** Chromium and the CLI on a shared, loaded machine: generous. */
const SLOW = 240_000;
const noChromium = withoutChromium();

const click = (on: string): PlannedCall => ({ tool: "web_click", on });
const counterIs = (value: number): PlannedCall[] => [{ tool: "web_verifyValue", args: { ref: "css=#value", expected: String(value) } }];
const textVisible = (text: string): PlannedCall[] => [{ tool: "web_verifyTextVisible", args: { text } }];
const typeInto = (field: string, text: string): PlannedCall[] => [{ tool: "web_type", on: `textbox "${field}"`, args: { text } }];

/** Each benchmark objective's calls; `presses(n)` is how many times the model presses a button a step asks for n times. */
function benchmarkPlans(base: string, presses: (n: number) => number): Record<string, PlannedCall[]> {
  const press = (button: string, n: number) => Array.from({ length: presses(n) }, () => click(`button "${button}"`));
  return {
    [`Navigate to ${base}/index.html`]: [{ tool: "web_navigate", args: { url: `${base}/index.html` } }],
    'Click the "Counter" navigation link': [click('link "Counter"')],
    'Click the "Form" navigation link': [click('link "Form"')],
    'Click the "About" navigation link': [click('link "About"')],
    'Verify the counter value is "0"': counterIs(0),
    'Verify the counter value is "2"': counterIs(2),
    'Verify the counter value is "3"': counterIs(3),
    "Press the Increment button twice": press("Increment", 2),
    "Press the Increment button three times": press("Increment", 3),
    "Press the Increment button four times": press("Increment", 4),
    "Press the Decrement button once": press("Decrement", 1),
    "Press the Reset button": [click('button "Reset"')],
    'Type "Ada Lovelace" into the Name field': typeInto("Name", "Ada Lovelace"),
    'Type "ada@example.com" into the Email field': typeInto("Email", "ada@example.com"),
    'Type "Measured on a laptop" into the Message field': typeInto("Message", "Measured on a laptop"),
    'Choose "Feedback" in the Topic list': [{ tool: "web_selectOption", on: 'combobox "Topic"', args: { values: ["Feedback"] } }],
    'Click the "Send" button': [click('button "Send"')],
    'Verify the text "Message sent!" is visible': textVisible("Message sent!"),
    'Verify the text "From Ada Lovelace about feedback" is visible': textVisible("From Ada Lovelace about feedback"),
    'Verify the text "where models are measured" is visible': textVisible("where models are measured"),
  };
}

/** The sample app over HTTP, from the copy's sample-app/. */
function serveSampleApp(dir: string) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const name = new URL(request.url).pathname.slice(1) || "index.html";
      const file = join(dir, "sample-app", name);
      if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
}

interface EvalJson {
  models: {
    model: string;
    runs: number;
    passed: number;
    calls: number;
    costUsd?: number;
    trails: {
      file: string;
      passed: number;
      runs: number;
      calls: number;
      tokens: number;
      failures: { index: number; step: string; lastError: string }[];
    }[];
  }[];
}

describe.skipIf(noChromium)("eval of the model benchmark trails on the sample app in Chromium", () => {
  let llm: LlmServer;
  let app: ReturnType<typeof Bun.serve>;
  let dir: string;
  let run: Awaited<ReturnType<typeof cliProcess>>;
  let trailHashes: string[];
  const page = tempDir("eval-web-page");
  let browser: Browser;

  const trailFiles = () => readdirSync(join(dir, TRAILS)).map((name) => join(dir, TRAILS, name, "trail.yaml"));
  const hashAll = () => trailFiles().map((file) => createHash("sha256").update(readFileSync(file)).digest("hex"));

  beforeAll(async () => {
    dir = workspaceCopy(FIXTURE, "eval-web");
    app = serveSampleApp(dir);
    llm = startLlmServer([]);
    // The trails and the target name the app at localhost:8765, as upstream's do: here, where it is served.
    const base = `http://127.0.0.1:${app.port}`;
    for (const file of [...trailFiles(), join(dir, "trails/config/trailmaps/sampleApp/trailmap.yaml")])
      writeFileSync(file, readFileSync(file, "utf8").replaceAll("http://localhost:8765", base));
    const anchor = join(dir, "trails/config/trailblaze.yaml");
    writeFileSync(anchor, readFileSync(anchor, "utf8").replace("http://127.0.0.1:9/v1", `${llm.url}/v1`));
    llm.after = byModel({
      steady: capable(
        benchmarkPlans(base, (n) => n),
        { input: 900, output: 30 },
      ),
      flaky: capable(
        benchmarkPlans(base, () => 1),
        { input: 700, output: 20 },
      ),
    });
    trailHashes = hashAll();
    run = await cliProcess(
      [
        "eval",
        TRAILS,
        "--llm",
        "bench/steady,bench/flaky",
        "--repeat",
        "1",
        "--workers",
        "2",
        "--reporter",
        `json,html=${page}`,
        "--no-logging",
      ],
      { cwd: dir, env: { HOME: tempDir("eval-web-home") } },
    );
    browser = await testBrowser();
  }, SLOW);

  afterAll(async () => {
    await closeTestPages();
    await llm?.stop();
    await app?.stop(true);
  });

  test("every step goes to the agent on the real page: one model passes every trail, the other the one that does not count", () => {
    expect(run.stderr).toBe(`html report written to ${join(page, "index.html")}\n`);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as EvalJson;
    const [steady, flaky] = report.models;
    expect(steady!.trails.map((t) => [t.file.split("/").at(-2), t.passed, t.runs])).toEqual([
      ["counter-arithmetic", 1, 1],
      ["counter", 1, 1],
      ["form", 1, 1],
      ["multi-section", 1, 1],
    ]);
    // counter: 7 steps, each its calls (one, and three presses in one) then objectiveStatus.
    expect(steady!.trails[1]).toMatchObject({ calls: 7 * 2 + 2, tokens: (7 * 2 + 2) * 930 });
    expect(flaky).toMatchObject({ model: "bench/flaky", runs: 4, passed: 1 });
    const failures = Object.fromEntries(flaky!.trails.map((t) => [t.file.split("/").at(-2), t.failures.map((f) => [f.index, f.step])]));
    expect(failures).toEqual({
      counter: [[5, 'Verify the counter value is "3"']],
      "counter-arithmetic": [[5, 'Verify the counter value is "3"']],
      form: [],
      "multi-section": [[7, 'Verify the counter value is "2"']],
    });
    // The page said what it showed: the failed check names the value it saw.
    expect(flaky!.trails[1]!.failures[0]!.lastError).toContain('is "1", expected it to contain "3"');
    expect(steady!.costUsd).toBeGreaterThan(flaky!.costUsd!);
    expect(hashAll()).toEqual(trailHashes);
  });

  describe("the page", () => {
    let view: Page;
    const fetched: string[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      view = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      view.on("pageerror", (error) => errors.push(String(error)));
      view.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
      await view.route("**", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        fetched.push(url);
        return route.abort();
      });
      await view.goto(`file://${join(page, "index.html")}`);
    }, SLOW);

    test("shows the models side by side, the chart, each trail by model, and fetches nothing", async () => {
      expect(await view.locator("article.card h2").allInnerTexts()).toEqual(["bench/steady", "bench/flaky"]);
      expect(await view.locator("article.card .rate").allInnerTexts()).toEqual(["100%", "25%"]);
      expect(await view.locator("figure.chart circle").count()).toBe(2);
      expect(await view.locator("figure.chart svg").getAttribute("aria-label")).toBe("pass rate against cost per run (USD, mean)");
      expect(await view.locator("table.by-model tbody tr").count()).toBe(5);
      expect(await view.locator("#failed-runs details.trail").count()).toBe(3);
      expect(fetched).toEqual([]);
      expect(errors).toEqual([]);
    });

    test(
      "a failed run opens on its steps and the agent's turns, with the page it ended on; the screenshot is kept",
      async () => {
        const first = view.locator("#failed-runs details.trail").first();
        await first.locator(":scope > summary").click();
        const failedStep = first.locator("li.step.failed");
        await expect(failedStep.locator(".agent .turns li").first().innerText()).resolves.toContain("web_verifyValue");
        expect(await failedStep.locator(".failure .msg").innerText()).toContain('expected it to contain "3"');
        expect(await failedStep.locator(".web img").count()).toBe(1);
        // The top of the page down into the open run (docs/images/eval-page.png), and the whole page beside it.
        const height = (await view.evaluate("document.documentElement.scrollHeight")) as number;
        await view.screenshot({
          path: join(shots, "eval-page.png"),
          fullPage: true,
          clip: { x: 0, y: 0, width: 1280, height: Math.min(height, 2300) },
        });
        await view.screenshot({ path: join(shots, "eval-page-full.png"), fullPage: true });
        expect(statSync(join(shots, "eval-page.png")).size).toBeGreaterThan(10_000);
        expect(errors).toEqual([]);
      },
      SLOW,
    );
  });
});
