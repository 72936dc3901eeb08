import { describe, expect, test } from "bun:test";
import type { Reporter, TrailInfo } from "../reporter.ts";
import { replayRun } from "../reporter.ts";
import type { RunReport, StepReport, TrailReport } from "../run-types.ts";
import { Multiplexer } from "./multiplexer.ts";

const trail: TrailInfo = { file: "trails/a.trail.yaml", id: "a", index: 0 };
const step = (index: number, status: StepReport["status"] = "passed"): StepReport => ({
  index,
  kind: "step",
  title: `step ${index}`,
  status,
  durationMs: 1,
  tools: [],
  line: index,
  col: 1,
});
const result: TrailReport = {
  file: trail.file,
  id: "a",
  status: "passed",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 2,
  steps: [step(1), step(2), step(3, "skipped")],
  unverified: 0,
  ran: true,
};
const run: RunReport = { trails: [result], summary: { passed: 1, failed: 0, errors: 0, skipped: 0, unverified: 0, durationMs: 2 } };

/** A reporter that writes down each event it gets, as `name:event[:step]`. */
function recorder(name: string, log: string[]): Reporter {
  return {
    onBegin: () => void log.push(`${name}:onBegin`),
    onTrailBegin: () => void log.push(`${name}:onTrailBegin`),
    onStepEnd: (_t, s) => void log.push(`${name}:onStepEnd:${s.index}`),
    onTrailEnd: () => void log.push(`${name}:onTrailEnd`),
    onEnd: () => void log.push(`${name}:onEnd`),
  };
}

describe("Multiplexer", () => {
  test("calls every reporter for each event, in the order chosen; replayRun tells a finished run's events, the steps that ran", async () => {
    const log: string[] = [];
    const both = new Multiplexer(
      [
        { name: "one", reporter: recorder("one", log) },
        { name: "two", reporter: recorder("two", log) },
      ],
      () => {},
    );
    await replayRun(both, run);
    expect(log).toEqual([
      "one:onBegin",
      "two:onBegin",
      "one:onTrailBegin",
      "two:onTrailBegin",
      "one:onStepEnd:1",
      "two:onStepEnd:1",
      "one:onStepEnd:2",
      "two:onStepEnd:2",
      "one:onTrailEnd",
      "two:onTrailEnd",
      "one:onEnd",
      "two:onEnd",
    ]);
    expect(both.failed).toBe(false);
  });

  test("a reporter that throws or rejects is named on stderr once per event (then counted); the others get every event", async () => {
    const log: string[] = [];
    let stderr = "";
    const bad: Reporter = {
      onStepEnd: () => {
        throw new Error("no step for me");
      },
      onTrailEnd: async () => {
        throw new Error("rejected");
      },
      onEnd: () => {
        throw new TypeError("cannot write");
      },
    };
    const both = new Multiplexer(
      [
        { name: "./bad.ts", reporter: bad },
        { name: "good", reporter: recorder("good", log) },
      ],
      (text) => void (stderr += text),
    );
    await replayRun(both, run);
    expect(log).toEqual(["good:onBegin", "good:onTrailBegin", "good:onStepEnd:1", "good:onStepEnd:2", "good:onTrailEnd", "good:onEnd"]);
    expect(both.failed).toBe(true);
    const lines = stderr.split("\n").filter((line) => line.startsWith("error: "));
    expect(lines).toEqual([
      "error: reporter ./bad.ts failed in onStepEnd: no step for me",
      "error: reporter ./bad.ts failed in onTrailEnd: rejected",
      "error: reporter ./bad.ts failed in onEnd: cannot write",
      "error: reporter ./bad.ts failed in onStepEnd 1 more time",
    ]);
    // Where it was thrown: this file.
    expect(stderr).toContain("multiplexer.test.ts:");
  });

  test("onEnd waits for the promises earlier events returned; events after onEnd reach no reporter", async () => {
    const log: string[] = [];
    // The step is written once the test lets it: onEnd must not come before.
    const gate = Promise.withResolvers<void>();
    const slow: Reporter = {
      onStepEnd: async () => {
        await gate.promise;
        log.push("step written");
      },
      onEnd: () => void log.push("onEnd"),
      onTrailEnd: () => void log.push("late onTrailEnd"),
    };
    const one = new Multiplexer([{ name: "slow", reporter: slow }], () => {});
    one.onStepEnd(trail, step(1));
    const ended = one.onEnd(run);
    log.push("gate opened");
    gate.resolve();
    await ended;
    one.onTrailEnd(trail, result);
    await one.onEnd(run);
    expect(log).toEqual(["gate opened", "step written", "onEnd"]);
  });

  test("stdioReporters names those whose printsToStdio says true; one that throws there does not print", () => {
    let stderr = "";
    const many = new Multiplexer(
      [
        { name: "list", reporter: { printsToStdio: () => true } },
        { name: "json", reporter: { printsToStdio: () => false } },
        { name: "./quiet.ts", reporter: {} },
        {
          name: "./odd.ts",
          reporter: {
            printsToStdio: () => {
              throw new Error("odd");
            },
          },
        },
      ],
      (text) => void (stderr += text),
    );
    expect(many.stdioReporters()).toEqual(["list"]);
    expect(stderr).toStartWith("error: reporter ./odd.ts failed in printsToStdio: odd\n");
  });
});
