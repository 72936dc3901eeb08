// The reporters of `run` and `merge-reports` and where each one's output goes: `--reporter` read
// (names and paths, comma-separated and/or repeated, each with an optional `=PATH` output), the
// `--output` flag given to the one reporter it can mean, the built-ins made and a user's own
// loaded, all behind one Multiplexer; and the report of a run that stopped before any trail
// started, listing why. docs/reporters.md states the rules this file applies.

import { join, relative, resolve } from "node:path";
import { outputRoot } from "../../config/workspace-root.ts";
import { ConfigError, UsageError } from "../../errors.ts";
import type { ReporterOptions } from "../../run/reporter.ts";
import type { ReportDestination } from "../../run/reporters/document.ts";
import { findReporter, REPORTERS, type BuiltinReporter, type BuiltinReporterContext } from "../../run/reporters/index.ts";
import { isReporterPath, loadReporter } from "../../run/reporters/load-reporter.ts";
import { Multiplexer, type NamedReporter } from "../../run/reporters/multiplexer.ts";
import type { RunProblem, RunReport } from "../../run/run-types.ts";
import type { CliIO } from "../command.ts";

type Command = ReporterOptions["command"];

/** One reporter of `--reporter`: a built-in (of `run`'s table, or another command's) or the path of the user's own, and its output as written. */
export interface ReporterChoice<B extends { name: string } = BuiltinReporter> {
  /** As written: `json`, `./reporters/slack.ts`. */
  name: string;
  builtin?: B;
  /** Its output as written: `NAME=PATH`, or `--output` when it is the one reporter that flag means. */
  output?: string;
}

/** How an example names each reporter's output, in messages. */
const EXAMPLE_OUTPUT: Record<string, string> = { list: "list.txt", json: "report.json", junit: "junit.xml", html: "html-report" };
const example = (choice: { name: string }) => `${choice.name}=${EXAMPLE_OUTPUT[choice.name] ?? "PATH"}`;

/**
 * `--reporter` values (default `list`) as reporters with their outputs: `NAME` or `PATH`, each
 * optionally `=OUTPUT`, comma-separated and/or repeated. `--output` goes to the one reporter
 * chosen, or with several to the one besides list without an `=OUTPUT` of its own; when it could
 * mean two, or none, it is a usage error. `table` is the command's built-ins (default `run`'s);
 * `ownReporters: false` refuses a path (a command whose reporters are its own kind, as `eval`'s).
 */
export function parseReporterFlags<B extends { name: string } = BuiltinReporter>(
  command: Command | "eval",
  flags: readonly string[] | undefined,
  output: string | undefined,
  table: readonly B[] = REPORTERS as unknown as readonly B[],
  ownReporters = true,
): ReporterChoice<B>[] {
  const written = (flags ?? ["list"]).join(",");
  const choices: ReporterChoice<B>[] = [];
  for (const item of written.split(",").map((text) => text.trim())) {
    const at = item.indexOf("=");
    const name = at < 0 ? item : item.slice(0, at);
    const out = at < 0 ? undefined : item.slice(at + 1);
    if (name === "")
      throw new UsageError(`${command}: --reporter ${written}: a reporter is missing (an empty name between commas, or before =)`);
    if (out === "")
      throw new UsageError(`${command}: --reporter ${item}: name its output after =, e.g. ${name}=${EXAMPLE_OUTPUT[name] ?? "PATH"}`);
    const builtin = table.find((reporter) => reporter.name === name);
    if (!builtin && !(ownReporters && isReporterPath(name))) {
      const names = table.map((r) => r.name).join(", ");
      throw new UsageError(
        `${command}: --reporter expects ${ownReporters ? `${names} or the path of your own reporter (./my-reporter.ts)` : `one of ${names}`}, got "${name}"`,
      );
    }
    if (choices.some((c) => c.name === name))
      throw new UsageError(`${command}: --reporter ${written}: ${name} is chosen twice; choose each reporter once`);
    choices.push({ name, ...(builtin ? { builtin } : {}), ...(out !== undefined ? { output: out } : {}) });
  }
  if (output === undefined) return choices;
  const open = choices.filter((c) => c.output === undefined && (choices.length === 1 || c.name !== "list"));
  if (open.length === 1) {
    open[0]!.output = output;
    return choices;
  }
  if (open.length === 0) {
    const named = choices.filter((c) => c.output !== undefined).map((c) => `${c.name}=${c.output}`);
    throw new UsageError(
      `${command}: --output ${output} has no reporter to go to: ${named.join(", ")} already name${named.length === 1 ? "s its" : " their"} own; drop --output`,
    );
  }
  throw new UsageError(
    `${command}: --output ${output} is ambiguous: ${open.map((c) => c.name).join(" and ")} each write a report; name each one's output instead, e.g. --reporter ${choices.map((c) => (open.includes(c) ? example(c) : c.output !== undefined ? `${c.name}=${c.output}` : c.name)).join(",")}`,
  );
}

/**
 * The file a built-in reporter's document goes to, or undefined for stdout. An output is relative
 * to `cwd`; a reporter's default folder (html: trailblaze-report/) is at the workspace root above
 * `cwd`, where `init` ignores it in .gitignore (outside a workspace, in `cwd`), shown relative to `cwd`.
 */
export function reportDestination(
  folder: BuiltinReporter["folder"],
  output: string | undefined,
  cwd: string,
): ReportDestination | undefined {
  if (folder) {
    if (output !== undefined) return { path: resolve(cwd, output, folder.file), shown: join(output, folder.file) };
    const path = join(outputRoot(cwd), folder.dir, folder.file);
    return { path, shown: relative(cwd, path) };
  }
  return output === undefined ? undefined : { path: resolve(cwd, output), shown: output };
}

/** Whether the html report (or another that shows web pages) is among the choices: the run then takes each web step's page. */
export function wantsPages(choices: readonly ReporterChoice<{ name: string; pages?: boolean }>[]): boolean {
  return choices.some((c) => c.builtin?.pages === true);
}

/**
 * Makes the chosen reporters (loading a user's own; a bad one is a ReporterLoadError) behind one
 * Multiplexer, in the order chosen. At most one may print on stdout; when none does, `run` puts
 * the list first (as Playwright adds its own). "Report written to" lines go to stdout, or to
 * stderr when stdout carries another reporter's document.
 */
export async function openReporters(
  command: Command,
  choices: readonly ReporterChoice[],
  io: Pick<CliIO, "stdout" | "stderr" | "cwd">,
  options: { color: boolean },
): Promise<Multiplexer> {
  let noticeOnStderr = false;
  const context: Omit<BuiltinReporterContext, "destination"> = {
    command,
    stdout: io.stdout,
    notice: (text) => (noticeOnStderr ? io.stderr : io.stdout)(text),
    color: options.color,
  };
  const outputDir = outputRoot(io.cwd);
  const named: NamedReporter[] = [];
  for (const choice of choices) {
    if (choice.builtin) {
      const destination = reportDestination(choice.builtin.folder, choice.output, io.cwd);
      named.push({ name: choice.name, reporter: choice.builtin.create({ ...context, ...(destination ? { destination } : {}) }) });
    } else {
      const output = choice.output === undefined ? {} : { output: resolve(io.cwd, choice.output) };
      named.push({ name: choice.name, reporter: await loadReporter(choice.name, { cwd: io.cwd, outputDir, command, ...output }) });
    }
  }
  const chosen = new Multiplexer(named, io.stderr);
  const printers = chosen.stdioReporters();
  if (printers.length > 1) {
    // json and junit print their document on stdout when they have no file: giving them one is the fix.
    const documents = choices.filter((c) => printers.includes(c.name) && c.builtin !== undefined && c.name !== "list");
    const written = choices.map((c) => (c.output !== undefined ? `${c.name}=${c.output}` : c.name)).join(",");
    const fixed = choices
      .map((c) => (documents.includes(c) ? example(c) : c.output !== undefined ? `${c.name}=${c.output}` : c.name))
      .join(",");
    const fix =
      documents.length > 0
        ? `${documents.map((c) => c.name).join(" and ")} print${documents.length === 1 ? "s its document" : " their documents"} there without a file: give ${documents.length === 1 ? "it one" : "each one"}, e.g. --reporter ${fixed}`
        : "leave all but one of them out";
    throw new UsageError(
      `${command}: --reporter ${written}: ${printers.join(" and ")} would each print on stdout, and only one reporter may (their output would interleave); ${fix}`,
    );
  }
  noticeOnStderr = printers.length === 1 && printers[0] !== "list";
  if (printers.length === 0 && command === "run") {
    const list = findReporter("list")!;
    return new Multiplexer([{ name: "list", reporter: list.create(context) }, ...named], io.stderr);
  }
  return chosen;
}

/** What stopped a run before it started, one problem per located configuration problem. */
function problemsOf(error: unknown): RunProblem[] {
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
  return {
    trails: [],
    summary: { passed: 0, failed: 0, errors: 0, skipped: 0, unverified: 0, unverifiedTrails: 0, durationMs: 0 },
    problems: problemsOf(error),
  };
}
