// Where a reporter's document goes, for `run` and `merge-reports`: a file (`--output FILE`), a
// folder (`--output DIR`, or the reporter's default folder, for html, at the workspace root
// whichever of its folders the command runs from), or stdout; and the report of a run that stopped
// before any trail started, listing why.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { outputRoot } from "../../config/workspace-root.ts";
import { ConfigError } from "../../errors.ts";
import type { Reporter } from "../../run/reporters/index.ts";
import type { RunProblem, RunReport } from "../../run/run-types.ts";
import type { CliIO } from "../command.ts";

export interface ReportDestination {
  /** Absolute path of the file written. */
  path: string;
  /** As the user named it, for the "written to" line. */
  shown: string;
}

/**
 * The file the report goes to, or undefined for stdout. `--output` is relative to `cwd`; a
 * reporter's default folder (html: trailblaze-report/) is at the workspace root above `cwd`, where
 * `init` ignores it in .gitignore (outside a workspace, in `cwd`), shown relative to `cwd`.
 */
export function reportDestination(reporter: Reporter, output: string | undefined, cwd: string): ReportDestination | undefined {
  if (reporter.folder) {
    if (output !== undefined) return { path: resolve(cwd, output, reporter.folder.file), shown: join(output, reporter.folder.file) };
    const path = join(outputRoot(cwd), reporter.folder.dir, reporter.folder.file);
    return { path, shown: relative(cwd, path) };
  }
  return output === undefined ? undefined : { path: resolve(cwd, output), shown: output };
}

/** Writes the report to its file (saying so on stdout), or prints it when it is a document for stdout. */
export function emitReport(run: RunReport, reporter: Reporter, destination: ReportDestination | undefined, io: Pick<CliIO, "stdout">): void {
  if (destination) {
    mkdirSync(dirname(destination.path), { recursive: true });
    writeFileSync(destination.path, reporter.format(run));
    io.stdout(`${reporter.name} report written to ${destination.shown}\n`);
  } else if (!reporter.live) {
    io.stdout(reporter.format(run));
  }
}

/** What stopped a run before it started, one problem per located configuration problem. */
export function problemsOf(error: unknown): RunProblem[] {
  if (error instanceof ConfigError) {
    return error.problems.map((p) => ({
      message: p.path ? `${p.path}: ${p.message}` : p.message,
      file: p.file,
      ...(p.line > 0 ? { line: p.line, col: p.col } : {}),
    }));
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
}

/** The report of a run that never started: no trails, the problems that stopped it. */
export function notRunReport(error: unknown): RunReport {
  return { trails: [], summary: { passed: 0, failed: 0, errors: 0, skipped: 0, unverified: 0, unverifiedTrails: 0, durationMs: 0 }, problems: problemsOf(error) };
}
