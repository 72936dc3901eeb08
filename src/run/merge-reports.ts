// Joins the JSON reports of `run --shard I/N` runs into one run, as if it had not been sharded:
// trails in shard order (each shard is a contiguous slice of the sorted trail list), screens
// united (their ids are content hashes), the summary recounted, the longest shard's time.

import { ReportFileError } from "../errors.ts";
import { summarize, type RunProblem, type RunReport, type TrailReport } from "./run-types.ts";

/** A report as `run --reporter json` wrote it, read from `file` (for messages). */
export interface ReportInput {
  file: string;
  json: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks the shape merge relies on and rebuilds what the JSON leaves out (whether a trail ran). */
function readReport({ file, json }: ReportInput): RunReport {
  const expected = "expected a report written by `trailblaze run --reporter json` ({trails: […], summary: {…}})";
  if (!isObject(json) || !Array.isArray(json.trails) || !isObject(json.summary)) throw new ReportFileError(file, expected);
  const trails = json.trails.map((trail, i) => {
    if (!isObject(trail) || typeof trail.file !== "string" || typeof trail.id !== "string" || typeof trail.status !== "string" || !Array.isArray(trail.steps)) {
      throw new ReportFileError(file, `trails[${i}]: expected a trail with file, id, status and steps; ${expected}`);
    }
    const steps = trail.steps as TrailReport["steps"];
    // A trail ran when any of its steps started (a trail that failed before its first step has none).
    return { ...(trail as unknown as TrailReport), ran: steps.some((s) => s.status !== "skipped") };
  });
  const report: RunReport = { trails, summary: json.summary as unknown as RunReport["summary"] };
  if (isObject(json.screens)) report.screens = json.screens as RunReport["screens"] & object;
  if (Array.isArray(json.problems)) report.problems = json.problems as RunProblem[];
  if (typeof json.interrupted === "string") report.interrupted = json.interrupted;
  if (isObject(json.shard) && typeof json.shard.index === "number" && typeof json.shard.total === "number") report.shard = { index: json.shard.index, total: json.shard.total };
  return report;
}

/**
 * One run from several reports: ordered by shard index when every report has one (else as
 * given); a shard given twice, or shards of different totals, is an error.
 */
export function mergeReports(inputs: readonly ReportInput[]): RunReport {
  const reports = inputs.map((input) => ({ file: input.file, report: readReport(input) }));
  const sharded = reports.every((r) => r.report.shard !== undefined);
  if (sharded) {
    const totals = new Set(reports.map((r) => r.report.shard!.total));
    if (totals.size > 1) throw new ReportFileError(reports[0]!.file, `its shards are of ${[...totals].join(" and ")}: merge the reports of one sharded run (all --shard I/N with the same N)`);
    const seen = new Map<number, string>();
    for (const { file, report } of reports) {
      const earlier = seen.get(report.shard!.index);
      if (earlier !== undefined) throw new ReportFileError(file, `shard ${report.shard!.index}/${report.shard!.total} is also ${earlier}: give each shard's report once`);
      seen.set(report.shard!.index, file);
    }
    reports.sort((a, b) => a.report.shard!.index - b.report.shard!.index);
  }
  const trails = reports.flatMap((r) => r.report.trails);
  const merged: RunReport = { trails, summary: summarize(trails, Math.max(0, ...reports.map((r) => r.report.summary.durationMs ?? 0))) };
  const screens = Object.assign({}, ...reports.map((r) => r.report.screens ?? {}));
  if (Object.keys(screens).length > 0) merged.screens = screens;
  const problems = reports.flatMap((r) => r.report.problems ?? []);
  if (problems.length > 0) merged.problems = problems;
  const interrupted = reports.filter((r) => r.report.interrupted !== undefined).map((r) => `${r.report.shard ? `shard ${r.report.shard.index}/${r.report.shard.total}` : r.file}: ${r.report.interrupted}`);
  if (interrupted.length > 0) merged.interrupted = interrupted.join("; ");
  return merged;
}
