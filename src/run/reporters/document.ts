// A reporter whose output is one document made at the end of the run (json, junit, html): it
// writes the document to its file, saying so, or prints it alone on stdout when it has none.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Reporter } from "../reporter.ts";
import type { RunReport } from "../run-types.ts";

export interface ReportDestination {
  /** Absolute path of the file written. */
  path: string;
  /** As the user named it, for the "written to" line. */
  shown: string;
}

/** Writes `text` to the destination's file (its folder made) and says so: `json report written to report.json`. */
export function writeReport(name: string, text: string, destination: ReportDestination, notice: (text: string) => void): void {
  mkdirSync(dirname(destination.path), { recursive: true });
  writeFileSync(destination.path, text);
  notice(`${name} report written to ${destination.shown}\n`);
}

interface DocumentReporterOptions {
  /** Where the document goes; undefined: stdout. */
  destination?: ReportDestination;
  stdout: (text: string) => void;
  /** Where the "written to" line goes. */
  notice: (text: string) => void;
}

export class DocumentReporter implements Reporter {
  readonly #name: string;
  readonly #format: (run: RunReport) => string;
  readonly #options: DocumentReporterOptions;

  constructor(name: string, format: (run: RunReport) => string, options: DocumentReporterOptions) {
    this.#name = name;
    this.#format = format;
    this.#options = options;
  }

  printsToStdio(): boolean {
    return this.#options.destination === undefined;
  }

  onEnd(run: RunReport): void {
    const { destination, stdout, notice } = this.#options;
    if (destination) writeReport(this.#name, this.#format(run), destination, notice);
    else stdout(this.#format(run));
  }
}
