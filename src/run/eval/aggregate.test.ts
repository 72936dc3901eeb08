import { describe, expect, test } from "bun:test";
import type { AgentStepReport, StepReport, TrailReport } from "../run-types.ts";
import { evalResult, median, runUsage, summarizeEval, type EvalPlan } from "./aggregate.ts";
import type { EvalRun } from "./eval-types.ts";

function agent(calls: number, tokens: { input: number; output: number }, costUsd?: number): AgentStepReport {
  const turn = { turn: 1, shown: "", image: false, requestBytes: 10, tokens: { input: 0, output: 0 }, durationMs: 1 };
  return {
    model: "p/m",
    why: "words",
    turns: Array.from({ length: calls }, (_, i) => ({ ...turn, turn: i + 1 })),
    tokens,
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

function step(index: number, overrides: Partial<StepReport> = {}): StepReport {
  return { index, kind: "step", title: `step ${index}`, status: "passed", durationMs: 1, tools: [], line: index, col: 3, ...overrides };
}

function report(status: TrailReport["status"], durationMs: number, steps: StepReport[], extra: Partial<TrailReport> = {}): TrailReport {
  return {
    file: "t.trail.yaml",
    id: "t [p/m #1]",
    status,
    startedAt: "2026-11-25T06:00:00.000Z",
    durationMs,
    steps,
    unverified: 0,
    ran: true,
    ...extra,
  };
}

const run = (model: string, rep: number, trailReport: TrailReport, file = "t.trail.yaml"): EvalRun => ({
  model,
  file,
  id: file.replace(".trail.yaml", ""),
  rep,
  report: trailReport,
});

const plan: EvalPlan = {
  models: [
    { model: "a/priced", priced: true },
    { model: "b/free", priced: false },
  ],
  trails: [
    { file: "t.trail.yaml", id: "t", title: "T" },
    { file: "u.trail.yaml", id: "u" },
  ],
  repeat: 3,
};

describe("median", () => {
  test("of an odd and an even number of values, and of none", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe("runUsage", () => {
  test("sums the model calls, tokens and cost of every step the agent ran", () => {
    const r = report("passed", 10, [
      step(1, { agent: agent(2, { input: 100, output: 10 }, 0.001) }),
      step(2),
      step(3, { agent: agent(3, { input: 200, output: 20 }, 0.002) }),
    ]);
    expect(runUsage(r)).toEqual({ calls: 5, tokens: 330, costUsd: 0.003 });
  });
});

describe("summarizeEval", () => {
  const runs: EvalRun[] = [
    run("a/priced", 1, report("passed", 100, [step(1, { agent: agent(2, { input: 100, output: 10 }, 0.01) })])),
    run("a/priced", 2, report("passed", 300, [step(1, { agent: agent(4, { input: 300, output: 30 }, 0.03) })])),
    run(
      "a/priced",
      3,
      report("failed", 200, [
        step(1, { agent: agent(1, { input: 50, output: 5 }, 0.005) }),
        step(2, { status: "failed", title: "Tap Pay", failure: { message: "first" }, agent: agent(5, { input: 10, output: 1 }, 0.001) }),
      ]),
    ),
    run("a/priced", 1, report("skipped", 0, [], { skipReason: "not on web" }), "u.trail.yaml"),
    run("b/free", 1, report("failed", 50, [step(1, { status: "failed", title: "Tap Pay", failure: { message: "older" } })])),
    run("b/free", 2, report("failed", 70, [step(1, { status: "failed", title: "Tap Pay", failure: { message: "newest" } })])),
    run("b/free", 3, report("error", 10, [], { error: "server crashed at start", ran: false })),
    run("b/free", 1, report("unverified", 20, [step(1, { status: "unverified" })]), "u.trail.yaml"),
  ];

  test("per model and trail: runs, passes, rate, a run's calls and tokens (means), cost when priced, time (median)", () => {
    const eval_ = summarizeEval(runs, plan, 1234.4);
    expect(eval_).toMatchObject({ version: 1, repeat: 3, durationMs: 1234 });
    const [a, b] = eval_.models;
    expect(a!.trails[0]).toMatchObject({
      file: "t.trail.yaml",
      id: "t",
      title: "T",
      runs: 3,
      passed: 2,
      passRate: 0.6667,
      calls: 4,
      durationMs: 200,
    });
    expect(a!.trails[0]!.tokens).toBe(Math.round((110 + 330 + 66) / 3));
    expect(a!.trails[0]!.costUsd).toBeCloseTo((0.01 + 0.03 + 0.006) / 3, 6);
    // A trail skipped on the device is no run: none ran, one skipped.
    expect(a!.trails[1]).toMatchObject({ runs: 0, passed: 0, passRate: 0, skipped: 1, costUsd: 0, durationMs: 0, failures: [] });
    expect(a).toMatchObject({ model: "a/priced", runs: 3, passed: 2, skipped: 1 });
    // A model without prices has no cost, anywhere.
    expect(b!.costUsd).toBeUndefined();
    expect(b!.trails.every((t) => t.costUsd === undefined)).toBe(true);
    expect(b).toMatchObject({ runs: 4, passed: 0, passRate: 0 });
  });

  test("the steps that failed most come first, each with the error of the last run it failed in", () => {
    const [, b] = summarizeEval(runs, plan, 0).models;
    expect(b!.trails[0]!.failures).toEqual([
      { index: 1, step: "Tap Pay", count: 2, lastError: "newest" },
      { index: 0, step: "before the first step", count: 1, lastError: "server crashed at start" },
    ]);
    // A run that verified nothing is not a pass, and says why.
    expect(b!.trails[1]!.failures).toEqual([
      { index: 0, step: "nothing verified", count: 1, lastError: expect.stringContaining("nothing to check against") },
    ]);
  });

  test("--min-pass-rate marks each model below it; an interrupted eval says so", () => {
    const eval_ = summarizeEval(runs, { ...plan, minPassRate: 0.5 }, 0, "interrupted by SIGINT");
    expect(eval_.minPassRate).toBe(0.5);
    expect(eval_.models.map((m) => m.belowMinPassRate ?? false)).toEqual([false, true]);
    expect(eval_.interrupted).toBe("interrupted by SIGINT");
  });

  test("the reporters get the runs that did not pass and the screens their steps show, and no others", () => {
    const capture = (id: string) => ({ file: `${id}.json`, width: 10, height: 10, nodes: [] });
    const withScreen = report("failed", 5, [
      step(1, {
        status: "failed",
        failure: { message: "x" },
        screen: { kind: "capture", screen: "aaaaaaaaaaaa", matched: [], after: "bbbbbbbbbbbb" },
      }),
    ]);
    const passed = report("passed", 5, [step(1, { screen: { kind: "capture", screen: "cccccccccccc", matched: [] } })]);
    const result = evalResult(
      [run("a/priced", 1, withScreen), run("a/priced", 2, passed)],
      plan,
      { aaaaaaaaaaaa: capture("a"), bbbbbbbbbbbb: capture("b"), cccccccccccc: capture("c") },
      10,
    );
    expect(result.failedRuns.map((r) => r.rep)).toEqual([1]);
    expect(Object.keys(result.screens).sort()).toEqual(["aaaaaaaaaaaa", "bbbbbbbbbbbb"]);
  });
});
