// The eval's reporters on what comes from outside: a model's label (the user's config), a trail's
// file, id and step words (the trail), an error (a tool, a server, a model): the list replaces their
// control characters, the page escapes them, the json keeps them as they are; and the table lines up.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrailReport } from "../run-types.ts";
import { evalResult, type EvalPlan } from "./aggregate.ts";
import { EvalListReporter } from "./eval-list.ts";
import { EVAL_CSP, formatEvalHtml } from "./eval-html.ts";
import { formatEvalJson } from "./eval-reporters.ts";
import type { EvalRun } from "./eval-types.ts";

const HOSTILE = 'x\u001B[2J\u001B]0;pwned\u0007<img src=x onerror=alert(1)></script><script>alert(2)</script>"\r\u0008\u009B2Jy';
const MODEL = `evil/${HOSTILE}`;

const failed: TrailReport = {
  file: `trails/${HOSTILE}.trail.yaml`,
  id: `t [${MODEL} #1]`,
  status: "failed",
  startedAt: "2026-11-25T06:00:00.000Z",
  durationMs: 40,
  unverified: 0,
  ran: true,
  error: `step 1 failed: ${HOSTILE}`,
  steps: [
    {
      index: 1,
      kind: "step",
      title: `Tap ${HOSTILE}`,
      status: "failed",
      durationMs: 30,
      tools: [],
      failure: { message: `the agent (${MODEL}): ${HOSTILE}` },
      agent: {
        model: MODEL,
        why: "words",
        turns: [
          {
            turn: 1,
            shown: `[n1] Button ${HOSTILE}`,
            image: false,
            requestBytes: 100,
            called: { tool: "tap", args: { ref: HOSTILE } },
            outcome: HOSTILE,
            ok: false,
            tokens: { input: 100, output: 10 },
            durationMs: 5,
          },
        ],
        tokens: { input: 100, output: 10 },
        costUsd: 0.00012,
      },
      line: 3,
      col: 3,
    },
  ],
};
const passed: TrailReport = { ...failed, id: "t [ok/model #1]", status: "passed", error: undefined, steps: [] } as TrailReport;

const plan: EvalPlan = {
  models: [
    { model: MODEL, priced: true },
    { model: "ok/model", priced: false },
  ],
  trails: [{ file: failed.file, id: "t", title: `Title ${HOSTILE}` }],
  repeat: 1,
  minPassRate: 0.5,
};
const runs: EvalRun[] = [
  { model: MODEL, file: failed.file, id: "t", rep: 1, report: failed },
  { model: "ok/model", file: failed.file, id: "t", rep: 1, report: passed },
];
const result = evalResult(runs, plan, {}, 50);

/** Control characters but the line ends. */
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;

describe("the list", () => {
  test("shows the control characters of everything from outside escaped, in the run lines and the table", () => {
    const list = new EvalListReporter(() => {}, { color: false });
    const text = [list.runLine(runs[0]!), list.runLine(runs[1]!), list.format(result.report)].join("\n");
    expect(text).not.toMatch(CONTROL);
    // Shown escaped, as the run's list shows them: the title sequence reads as its characters.
    expect(text).toContain("x\\x1b[2J\\x1b]0;pwned\\x07<img src=x onerror=alert(1)>");
    expect(text).toContain('"\\r\\b\\x9b2Jy');
    expect(text).toContain("below 50%");
  });

  test("lines up its columns, whatever the lengths of the names", () => {
    const list = new EvalListReporter(() => {}, { color: false });
    const table = list.format(result.report).split("\n\n")[0]!.split("\n");
    const at = (line: string, word: string) => line.indexOf(word);
    expect(table).toHaveLength(3);
    // Each number column ends where its header ends.
    for (const [header, value] of [
      ["pass rate", "0%"],
      ["tokens", "110"],
    ] as const) {
      expect(at(table[1]!, value) + value.length).toBe(at(table[0]!, header) + header.length);
    }
  });

  test("with colours, paints the pass rates and nothing else of the text", () => {
    let out = "";
    const list = new EvalListReporter((text) => void (out += text), { color: true });
    list.onEnd(result);
    expect(out).toMatch(/\u001B\[31m +0%\u001B\[39m/);
    expect(out).toMatch(/\u001B\[32m +100%\u001B\[39m/);
    expect(out.replace(/\u001B\[\d+m/g, "")).not.toMatch(CONTROL);
  });
});

test("the list's file (list=FILE) holds the table without colours, and says where it went", () => {
  const dir = mkdtempSync(join(tmpdir(), "eval-list-"));
  try {
    let out = "";
    const path = join(dir, "eval.txt");
    new EvalListReporter((text) => void (out += text), { color: true, file: { path, shown: "eval.txt" } }).onEnd(result);
    const text = readFileSync(path, "utf8");
    expect(text).toContain("pass rate");
    expect(text).not.toContain("\u001B[");
    expect(out).toContain("\u001B[");
    expect(out).toEndWith("list report written to eval.txt\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("the page", () => {
  const page = formatEvalHtml(result);

  test("escapes everything it shows: no markup of a model, a file, a step or an error gets in", () => {
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    // The page's one script is its own, allowed by its hash alone.
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).toContain(`content="${EVAL_CSP.replaceAll("'", "&apos;")}"`);
    expect(EVAL_CSP).toContain("default-src 'none'");
  });

  test("shows the models side by side, the chart, the table, the failed steps and the failed run", () => {
    expect(page.match(/<article class="card/g)).toHaveLength(2);
    expect(page).toContain('<figure class="chart">');
    // One model lists no prices: the chart is against tokens, and says why.
    expect(page).toContain("plotted against tokens a run");
    expect(page).toContain('id="failed-most"');
    expect(page.match(/<details class="trail failed"/g)).toHaveLength(1);
    expect(page).toContain("below --min-pass-rate 50%");
  });
});

describe("the json", () => {
  test("is the report as it is, values unchanged", () => {
    const json = JSON.parse(formatEvalJson(result)) as typeof result.report;
    expect(json).toEqual(result.report);
    expect(json.models[0]!.model).toBe(MODEL);
    expect(json.models[0]!.trails[0]!.failures[0]!.lastError).toBe(`the agent (${MODEL}): ${HOSTILE}`);
  });
});
