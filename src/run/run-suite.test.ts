import { expect, test } from "bun:test";
import { parseTrailFile } from "../trail/trail-file.ts";
import { SuiteRun, type TrailJob, type TrailLane } from "./run-suite.ts";
import type { TrailReport } from "./run-types.ts";

const trail = (id: string) => parseTrailFile(`${id}.trail.yaml`, `config: { id: ${id} }\ntrail:\n  - step: Wait\n`);

const report = (job: TrailJob, status: TrailReport["status"], error?: string): TrailReport => ({
  file: job.file,
  id: job.trail.id,
  status,
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  steps: [],
  unverified: 0,
  ran: true,
  ...(error !== undefined ? { error } : {}),
});

/** Trails a and b on `lane` (its own options unused: the lane runs them), `workers` at once. */
const suiteOfTwo = (lane: TrailLane, workers: number) =>
  new SuiteRun(
    ["a", "b"].map((id) => ({ file: `${id}.trail.yaml`, trail: trail(id) })),
    { lane, workers } as ConstructorParameters<typeof SuiteRun>[1],
  );

/**
 * Two trails under way on a lane whose interrupt answers late (a thread still answering), while the
 * first one's cancelled call ends it as failed in between: the interrupted run reports both as the
 * lane took them when the interrupt came, not the failure the cancellation made.
 */
test("an interrupt reports the trails under way as the lane took them, even one that ends while it waits", async () => {
  const ends = new Map<number, (report: TrailReport) => void>();
  const jobs = new Map<number, TrailJob>();
  let started!: () => void;
  const bothStarted = new Promise<void>((resolve) => (started = resolve));
  const lane: TrailLane = {
    run: (job) =>
      new Promise((resolve) => {
        ends.set(job.index, resolve);
        jobs.set(job.index, job);
        if (ends.size === 2) started();
      }),
    async interrupt(reason) {
      const taken = new Map([...jobs].map(([index, job]) => [index, report(job, "error", reason)]));
      // The cancelled call fails the first trail before the interrupt's answer is complete.
      ends.get(0)?.(report(jobs.get(0)!, "failed", "step 1 failed: sleep: cancelled: The operation was aborted."));
      await Promise.resolve();
      await Promise.resolve();
      return taken;
    },
  };
  const suite = suiteOfTwo(lane, 2);
  void suite.run();
  await bothStarted;
  const run = await suite.interrupt("interrupted by SIGINT");
  expect(run.trails.map((t) => [t.id, t.status, t.error])).toEqual([
    ["a", "error", "interrupted by SIGINT"],
    ["b", "error", "interrupted by SIGINT"],
  ]);
  expect(run.interrupted).toBe("interrupted by SIGINT");
});

test("a trail that ended before the interrupt keeps its own report", async () => {
  const ends = new Map<number, (report: TrailReport) => void>();
  const jobs = new Map<number, TrailJob>();
  let second!: () => void;
  const secondStarted = new Promise<void>((resolve) => (second = resolve));
  const lane: TrailLane = {
    run: (job) =>
      new Promise((resolve) => {
        ends.set(job.index, resolve);
        jobs.set(job.index, job);
        if (job.index === 0) resolve(report(job, "passed"));
        else second();
      }),
    interrupt: async (reason) => new Map([[1, report(jobs.get(1)!, "error", reason)]]),
  };
  const suite = suiteOfTwo(lane, 1);
  void suite.run();
  await secondStarted;
  const run = await suite.interrupt("interrupted by SIGTERM");
  expect(run.trails.map((t) => [t.id, t.status])).toEqual([
    ["a", "passed"],
    ["b", "error"],
  ]);
});
