// A tool call's line in the HTML report, read as a user sees it in a real Chromium: the time and
// the result are separate words whether or not the call had arguments (`10 msSuccess` before).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { formatHtmlReport } from "../src/run/reporters/html.ts";
import type { RunReport, ToolCallReport } from "../src/run/run-types.ts";
import { tempDir } from "./support/cli.ts";
import { withoutChromium } from "./support/chromium.ts";
import { closeTestPages, testBrowser } from "./support/watched-page.ts";

const SLOW = 60_000;
const noChromium = withoutChromium();
let browser: Browser;

beforeAll(async () => {
  if (noChromium) return;
  browser = await testBrowser();
}, SLOW);

afterAll(closeTestPages);

const call = (name: string, args: Record<string, unknown>): ToolCallReport => ({
  name,
  args,
  result: { status: "success", variant: "Success" },
  startedAt: "2026-11-27T06:00:00.000Z",
  durationMs: 10,
});

test.skipIf(noChromium)(
  "a call without arguments reads 'hideKeyboard 10 ms Success'; one with arguments puts them on a line of their own",
  async () => {
    const report: RunReport = {
      trails: [
        {
          file: "trails/a.trail.yaml",
          id: "a",
          status: "passed",
          startedAt: "2026-11-27T06:00:00.000Z",
          durationMs: 30,
          unverified: 0,
          ran: true,
          steps: [
            {
              index: 1,
              kind: "step",
              title: "Type and hide",
              status: "passed",
              durationMs: 20,
              line: 5,
              col: 3,
              tools: [call("hideKeyboard", {}), call("inputText", { text: "hi" })],
            },
          ],
        },
      ],
      summary: { passed: 1, failed: 0, errors: 0, skipped: 0, unverified: 0, durationMs: 30 },
    };
    const file = join(tempDir("report-call-line"), "index.html");
    writeFileSync(file, formatHtmlReport(report));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`file://${file}`);
    await page.locator("details.trail > summary").click();
    expect(await page.locator(".call").allInnerTexts()).toEqual(["hideKeyboard 10 ms Success", 'inputText 10 ms\n{"text":"hi"}\nSuccess']);
    await page.close();
  },
  SLOW,
);
