// `trailblaze merge-reports`: joins the JSON reports of `run --shard` runs into one run and
// reports it with any reporter (list, json, junit, html), as CI's merge job after a shard matrix.
// Each file is validated against the report format (run/report-schema.ts) before it is used.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ReportFileError, UsageError } from "../../errors.ts";
import { mergeReports, missingShards, readReports, type ReportInput } from "../../run/merge-reports.ts";
import { findReporter, REPORTERS } from "../../run/reporters/index.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { emitReport, reportDestination } from "./report-output.ts";

const HELP = `Usage: trailblaze merge-reports <report.json>... [--reporter NAME] [--output FILE|DIR]

Joins the JSON reports of sharded runs (\`trailblaze run --shard I/N --reporter json --output
shard-I.json\` on each CI machine) into one run: the trails in shard order, as the unsharded run
lists them, the summary recounted, the run's time the longest shard's, each screen once.

Options:
  --reporter NAME       ${REPORTERS.map((r) => `${r.name}: ${r.summary}`).join("\n                        ")}
                        (default list)
  --output FILE|DIR     write the report to FILE (html: DIR/index.html, default trailblaze-report/)
  -h, --help            show this help

Each file is checked against the JSON report format (every field's type and value) before
anything is written: a report of a newer format ("upgrade"), or one with a field that does not
fit, is refused naming the file and the field. A report without \`version\` (written before
formats were numbered) is read as format 1.

Exit codes: 0 every merged trail passed (or was skipped) · 1 a trail failed or errored, or a
shard's run stopped before it started · 2 a file that is not a JSON report (or not one this
version reads), a shard given twice, a bad flag.`;

function readInput(file: string, cwd: string): ReportInput {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReportFileError(file, code === "ENOENT" ? "file not found" : `cannot read it (${code ?? String(error)})`, { cause: error });
  }
  try {
    return { file, json: JSON.parse(text) };
  } catch (error) {
    throw new ReportFileError(file, `not valid JSON (${(error as Error).message}); expected a report written by \`trailblaze run --reporter json\``, { cause: error });
  }
}

export const mergeReportsCommand: Command = {
  name: "merge-reports",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("merge-reports", argv, {
      reporter: { type: "string" },
      output: { type: "string" },
    });
    if (positionals.length === 0) throw new UsageError("merge-reports: name the JSON reports to merge, e.g. `trailblaze merge-reports reports/*.json --reporter html`");
    const reporter = findReporter(values.reporter ?? "list");
    if (!reporter) throw new UsageError(`merge-reports: --reporter expects one of ${REPORTERS.map((r) => r.name).join(", ")}, got "${values.reporter}"`);
    const reports = readReports(positionals.map((file) => readInput(file, io.cwd)));
    const run = mergeReports(reports);
    const missing = missingShards(reports);
    if (missing.length > 0) io.stderr(`warning: shard${missing.length === 1 ? "" : "s"} ${missing.map((s) => `${s.index}/${s.total}`).join(", ")} missing: the merged report holds only the shards given\n`);
    const shards = positionals.length;
    const destination = reportDestination(reporter, values.output, io.cwd);
    if (reporter.live && destination === undefined) io.stdout(reporter.format(run));
    else emitReport(run, reporter, destination, io);
    io.stderr(`note: merged ${shards} report${shards === 1 ? "" : "s"}: ${run.trails.length} trail${run.trails.length === 1 ? "" : "s"}\n`);
    const bad = run.trails.some((t) => t.status === "failed" || t.status === "error") || (run.problems?.length ?? 0) > 0;
    return bad ? 1 : 0;
  },
};
