// `trailblaze merge-reports`: joins the JSON reports of `run --shard` runs into one run and
// reports it with any reporters (list, json, junit, html, the user's own: each is told the merged
// run's events), as CI's merge job after a shard matrix.
// Each file is validated against the report format (run/report-schema.ts) before it is used.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ReportFileError, UsageError } from "../../errors.ts";
import { mergeReports, missingShards, readReports, type ReportInput } from "../../run/merge-reports.ts";
import { replayRun } from "../../run/reporter.ts";
import { REPORTERS } from "../../run/reporters/index.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { openReporters, parseReporterFlags } from "./report-output.ts";

const HELP = `Usage: trailblaze merge-reports <report.json>... [--reporter R[,R…]] [--output FILE|DIR]

Joins the JSON reports of sharded runs (\`trailblaze run --shard I/N --reporter json --output
shard-I.json\` on each CI machine) into one run: the trails in shard order, as the unsharded run
lists them, the summary recounted, the run's time the longest shard's, each screen once.

Options:
  --reporter R[,R…]     the reporters (comma-separated and/or repeated; default list), each one of
                        ${REPORTERS.map((r) => `${r.name}: ${r.summary}`).join("\n                        ")}
                        or the path of your own (./my-reporter.ts: its default-exported class),
                        told the merged run's events; R=PATH names that reporter's output
  --output FILE|DIR     the output of the one reporter chosen (with several: of the one besides
                        list without its own =PATH); at most one reporter prints on stdout
  -h, --help            show this help

Each file is checked against the JSON report format (every field's type and value) before
anything is written: a report of a newer format ("upgrade"), or one with a field that does not
fit, is refused naming the file and the field. A report without \`version\` (written before
formats were numbered) is read as format 1.

Exit codes: 0 every merged trail passed (or was skipped) · 1 a trail failed or errored, a
shard's run stopped before it started, or a reporter failed (named on stderr) · 2 a file that is
not a JSON report (or not one this version reads), a shard given twice, a bad flag, a reporter
path that is no reporter.`;

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
    throw new ReportFileError(
      file,
      `not valid JSON (${(error as Error).message}); expected a report written by \`trailblaze run --reporter json\``,
      { cause: error },
    );
  }
}

export const mergeReportsCommand: Command = {
  name: "merge-reports",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("merge-reports", argv, {
      reporter: { type: "string", multiple: true },
      output: { type: "string" },
    });
    if (positionals.length === 0)
      throw new UsageError("merge-reports: name the JSON reports to merge, e.g. `trailblaze merge-reports reports/*.json --reporter html`");
    const choices = parseReporterFlags("merge-reports", values.reporter, values.output);
    const reporters = await openReporters("merge-reports", choices, io, { color: false });
    const reports = readReports(positionals.map((file) => readInput(file, io.cwd)));
    const run = mergeReports(reports);
    const missing = missingShards(reports);
    if (missing.length > 0)
      io.stderr(
        `warning: shard${missing.length === 1 ? "" : "s"} ${missing.map((s) => `${s.index}/${s.total}`).join(", ")} missing: the merged report holds only the shards given\n`,
      );
    const shards = positionals.length;
    await replayRun(reporters, run);
    io.stderr(`note: merged ${shards} report${shards === 1 ? "" : "s"}: ${run.trails.length} trail${run.trails.length === 1 ? "" : "s"}\n`);
    const bad = run.trails.some((t) => t.status === "failed" || t.status === "error") || (run.problems?.length ?? 0) > 0;
    // As in run: a reporter that failed makes a merge that would exit 0 exit 1.
    return bad || reporters.failed ? 1 : 0;
  },
};
