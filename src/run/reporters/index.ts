// The reporters `run --reporter NAME` offers, in one list: add a reporter here (a file beside
// this one with its format function) and `run` and its --help pick it up.

import type { RunReport } from "../run-types.ts";
import { formatHtmlReport } from "./html.ts";
import { formatJsonReport } from "./json.ts";
import { formatJunitReport } from "./junit.ts";
import { ListReporter } from "./list.ts";

export interface Reporter {
  name: string;
  /** One line for `run --help`. */
  summary: string;
  /**
   * True when the report is what `run` prints live on stdout (so stdout is the report); false
   * when the finished document goes to stdout instead (and the live report only with --output).
   */
  live: boolean;
  /** The whole run as one document, for `--output FILE` (and stdout when not live). */
  format(run: RunReport): string;
  /**
   * For a report that is a folder: `--output` names the folder (default `dir`) and the document
   * is written to `file` in it; the live list prints on stdout meanwhile.
   */
  folder?: { dir: string; file: string };
  /** Shows each web step's page (URL, ARIA outline, a screenshot): the run takes them, which costs a few ms a step. */
  pages?: boolean;
}

export const REPORTERS: readonly Reporter[] = [
  {
    name: "list",
    summary: "a live line per step, then a summary (default)",
    live: true,
    format: (run) => {
      const plain = new ListReporter(() => {});
      return `${run.trails.map((trail) => plain.formatTrail(trail)).join("\n")}${plain.summary(run)}`;
    },
  },
  { name: "json", summary: "the run as one JSON document", live: false, format: formatJsonReport },
  { name: "junit", summary: "JUnit XML for CI", live: false, format: formatJunitReport },
  {
    name: "html",
    summary: "a page to open in a browser, DIR/index.html (--output DIR, default trailblaze-report/), with the live list",
    live: false,
    format: formatHtmlReport,
    folder: { dir: "trailblaze-report", file: "index.html" },
    pages: true,
  },
];

export function findReporter(name: string): Reporter | undefined {
  return REPORTERS.find((reporter) => reporter.name === name);
}
