// The reporters `eval --reporter NAME` offers, in one table (as the run's REPORTERS): the list
// (live lines, then the table), json (the eval's document) and html (the page). A document reporter
// writes its file at the end, saying so, or prints the document alone on stdout when it has none.

import type { BuiltinReporterContext } from "../reporters/index.ts";
import { writeReport, type ReportDestination } from "../reporters/document.ts";
import { EvalListReporter } from "./eval-list.ts";
import { formatEvalHtml } from "./eval-html.ts";
import type { EvalReporter } from "./eval-reporter.ts";
import type { EvalResult } from "./eval-types.ts";

type EvalReporterContext = Omit<BuiltinReporterContext, "command">;

export interface EvalBuiltinReporter {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** For a report that is a folder: its output names the folder (default `dir`), and the document is `file` in it. */
  folder?: { dir: string; file: string };
  /** Shows each web step's page (the run takes them, a few ms a step). */
  pages?: boolean;
  create(context: EvalReporterContext): EvalReporter;
}

class EvalDocumentReporter implements EvalReporter {
  constructor(
    readonly name: string,
    readonly format: (result: EvalResult) => string,
    readonly context: { destination?: ReportDestination; stdout: (text: string) => void; notice: (text: string) => void },
  ) {}

  printsToStdio(): boolean {
    return this.context.destination === undefined;
  }

  onEnd(result: EvalResult): void {
    const { destination, stdout, notice } = this.context;
    if (destination) writeReport(this.name, this.format(result), destination, notice);
    else stdout(this.format(result));
  }
}

/** `eval --reporter json`: the report alone (docs/formats.md); the failed runs are the page's. */
export const formatEvalJson = (result: EvalResult) => `${JSON.stringify(result.report, null, 2)}\n`;

const document = (name: string, format: (result: EvalResult) => string) => (context: EvalReporterContext) =>
  new EvalDocumentReporter(name, format, context);

export const EVAL_REPORTERS: readonly EvalBuiltinReporter[] = [
  {
    name: "list",
    summary: "a line per run as it ends, then a table per model and trail (default)",
    create: ({ destination, stdout, notice, color }) =>
      new EvalListReporter(stdout, { color, notice, ...(destination ? { file: destination } : {}) }),
  },
  { name: "json", summary: "the eval as one JSON document", create: document("json", formatEvalJson) },
  {
    name: "html",
    summary: "a page with the models side by side, DIR/index.html (default DIR: trailblaze-report/eval/)",
    folder: { dir: "trailblaze-report/eval", file: "index.html" },
    pages: true,
    create: document("html", formatEvalHtml),
  },
];
