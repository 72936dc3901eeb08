// Joins the JSON reports of `run --shard I/N` runs into one run, as if it had not been sharded:
// each report checked against the report format first (report-schema.ts), then trails in shard
// order (each shard is a contiguous slice of the sorted trail list), screens united (their ids
// are content hashes), the summary recounted, the longest shard's time.

import { ReportFileError } from "../errors.ts";
import { parseReport } from "./report-schema.ts";
import { summarize, type RunReport } from "./run-types.ts";

/** A report as `run --reporter json` wrote it, read from `file` (for messages). */
export interface ReportInput {
  file: string;
  json: unknown;
}

/** A report checked against the format, with the file it came from. */
interface ReadReport {
  file: string;
  report: RunReport;
}

/** Each input checked against the report format (a ReportFileError naming the file and field when one does not fit). */
export function readReports(inputs: readonly ReportInput[]): ReadReport[] {
  return inputs.map(({ file, json }) => ({ file, report: parseReport(file, json) }));
}

/** The shards of a sharded run that none of `reports` holds (none when the reports are not all shards). */
export function missingShards(reports: readonly ReadReport[]): { index: number; total: number }[] {
  const shards = reports.map((r) => r.report.shard);
  const total = shards[0]?.total;
  if (total === undefined || shards.some((s) => s === undefined)) return [];
  return Array.from({ length: total }, (_, i) => i + 1)
    .filter((index) => !shards.some((s) => s!.index === index))
    .map((index) => ({ index, total }));
}

/**
 * One run from several reports: ordered by shard index when every report has one (else as
 * given); a shard given twice, or shards of different totals, is an error.
 */
export function mergeReports(read: readonly ReadReport[]): RunReport {
  const reports = [...read];
  const sharded = reports.every((r) => r.report.shard !== undefined);
  if (sharded) {
    const totals = new Set(reports.map((r) => r.report.shard!.total));
    if (totals.size > 1)
      throw new ReportFileError(
        reports[0]!.file,
        `its shards are of ${[...totals].join(" and ")}: merge the reports of one sharded run (all --shard I/N with the same N)`,
      );
    const seen = new Map<number, string>();
    for (const { file, report } of reports) {
      const earlier = seen.get(report.shard!.index);
      if (earlier !== undefined)
        throw new ReportFileError(
          file,
          `shard ${report.shard!.index}/${report.shard!.total} is also ${earlier}: give each shard's report once`,
        );
      seen.set(report.shard!.index, file);
    }
    reports.sort((a, b) => a.report.shard!.index - b.report.shard!.index);
  }
  const trails = reports.flatMap((r) => r.report.trails);
  const merged: RunReport = { trails, summary: summarize(trails, Math.max(0, ...reports.map((r) => r.report.summary.durationMs))) };
  const screens = Object.assign({}, ...reports.map((r) => r.report.screens ?? {}));
  if (Object.keys(screens).length > 0) merged.screens = screens;
  const problems = reports.flatMap((r) => r.report.problems ?? []);
  if (problems.length > 0) merged.problems = problems;
  const interrupted = reports
    .filter((r) => r.report.interrupted !== undefined)
    .map((r) => `${r.report.shard ? `shard ${r.report.shard.index}/${r.report.shard.total}` : r.file}: ${r.report.interrupted}`);
  if (interrupted.length > 0) merged.interrupted = interrupted.join("; ");
  return merged;
}
