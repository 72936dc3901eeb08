// The built-in reporters `--reporter NAME` offers, in one table: each makes a plug-in of the one
// reporter interface (../reporter.ts), as a user's own reporter is. Add a reporter here (a file
// beside this one) and `run`, `merge-reports` and their --help pick it up.

import type { Reporter, ReporterOptions } from "../reporter.ts";
import { DocumentReporter, type ReportDestination } from "./document.ts";
import { formatHtmlReport } from "./html.ts";
import { formatJsonReport } from "./json.ts";
import { formatJunitReport } from "./junit.ts";
import { ListReporter } from "./list.ts";

/** What a built-in reporter is made with: the command's output, and where its own goes. */
export interface BuiltinReporterContext {
  command: ReporterOptions["command"];
  /** Where its document goes (`NAME=PATH`, `--output`, or a default folder); undefined: stdout. */
  destination?: ReportDestination;
  /** The command's stdout, secrets masked. */
  stdout: (text: string) => void;
  /** Where "report written to" lines go: stdout, or stderr when a reporter prints its document on stdout. */
  notice: (text: string) => void;
  color: boolean;
}

export interface BuiltinReporter {
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** For a report that is a folder: its output names the folder (default `dir`), and the document is `file` in it. */
  folder?: { dir: string; file: string };
  /** Shows each web step's page (URL, ARIA outline, a screenshot): the run takes them, which costs a few ms a step. */
  pages?: boolean;
  create(context: BuiltinReporterContext): Reporter;
}

const document = (name: string, format: ConstructorParameters<typeof DocumentReporter>[1]) => (context: BuiltinReporterContext) =>
  new DocumentReporter(name, format, context);

export const REPORTERS: readonly BuiltinReporter[] = [
  {
    name: "list",
    summary: "a live line per step, then a summary (default)",
    create: ({ command, destination, stdout, notice, color }) =>
      new ListReporter(stdout, { color, command, notice, ...(destination ? { file: destination } : {}) }),
  },
  { name: "json", summary: "the run as one JSON document", create: document("json", formatJsonReport) },
  { name: "junit", summary: "JUnit XML for CI", create: document("junit", formatJunitReport) },
  {
    name: "html",
    summary: "a page to open in a browser, DIR/index.html (default DIR: trailblaze-report/)",
    folder: { dir: "trailblaze-report", file: "index.html" },
    pages: true,
    create: document("html", formatHtmlReport),
  },
];

export function findReporter(name: string): BuiltinReporter | undefined {
  return REPORTERS.find((reporter) => reporter.name === name);
}
