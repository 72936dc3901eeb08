// `eval --reporter list` (default): a line per run as it ends (✓/✗, the model, its calls, tokens,
// cost and time, and the step it failed at), then a table a person reads at a glance: per model and
// trail the runs passed, pass rate, a run's calls, tokens and cost (means) and time (median), each
// model's total; then the steps that failed most with their last error. Every text that comes from
// outside (a file name, a model's label, a step's words, an error) has its control characters shown
// escaped and only the list's own colours are real, as in the run's list (core/terminal-text.ts).
// With a file (`list=FILE`) the table is written there too.

import { paint, terminalText, toTerminal } from "../../core/terminal-text.ts";
import { writeReport, type ReportDestination } from "../reporters/document.ts";
import { formatDuration } from "../reporters/list.ts";
import { oneLine } from "../validate.ts";
import { runUsage } from "./aggregate.ts";
import type { EvalBegin, EvalReporter } from "./eval-reporter.ts";
import type { EvalModel, EvalReport, EvalResult, EvalRun } from "./eval-types.ts";

type Paint = (text: string) => string;

/** The list's own colours, marked so that only `toTerminal` makes them real (core/terminal-text.ts). */
function painter(enabled: boolean): Record<"green" | "red" | "yellow" | "dim" | "bold", Paint> {
  return {
    green: paint(enabled, 32, 39),
    red: paint(enabled, 31, 39),
    yellow: paint(enabled, 33, 39),
    dim: paint(enabled, 2, 22),
    bold: paint(enabled, 1, 22),
  };
}

/** A step's failure without the model's name, which the eval's lines already give (`the agent (openai/gpt-4.1): …`). */
const withoutModel = (message: string, model: string) =>
  message.startsWith(`the agent (${model}): `) ? message.slice(`the agent (${model}): `.length) : message;

/**
 * Text from outside, on one line, cut at `max`, its control characters shown escaped (they could
 * set the window title or move the cursor over what the line says): escaped before the table
 * measures it, so its columns line up as printed.
 */
const shown = (text: string, max = 120) => terminalText(oneLine(text, max));

export const percent = (rate: number) => `${Math.round(rate * 100)}%`;
export const usd = (value: number) => `$${value.toFixed(4)}`;
const count = (n: number) => Math.round(n).toLocaleString("en-US");

/** The columns of the table: header, alignment. */
const COLUMNS = [
  ["model", "left"],
  ["trail", "left"],
  ["passed", "right"],
  ["pass rate", "right"],
  ["calls", "right"],
  ["tokens", "right"],
  ["cost/run", "right"],
  ["time", "right"],
] as const;

/** Rows of cells as aligned lines; `paint` colours a row's cells after padding (so colour codes never skew the widths). */
function table(rows: readonly (readonly string[])[], paint: (row: number, cell: number, text: string) => string): string[] {
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row, r) =>
    row
      .map((cell, i) => paint(r, i, COLUMNS[i]![1] === "left" ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}

interface ListOptions {
  color: boolean;
  /** Also write the table to this file at the end (`--reporter list=FILE`). */
  file?: ReportDestination;
  notice?: (text: string) => void;
}

export class EvalListReporter implements EvalReporter {
  readonly #out: (text: string) => void;
  readonly #options: ListOptions;
  readonly #c: ReturnType<typeof painter>;

  constructor(out: (text: string) => void, options: ListOptions) {
    this.#out = (text) => out(toTerminal(text));
    this.#options = options;
    this.#c = painter(options.color);
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(begin: EvalBegin): void {
    const runs = begin.models.length * begin.trails * begin.repeat;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    this.#out(
      `${this.#c.bold("Eval")}: ${plural(begin.models.length, "model")} × ${plural(begin.trails, "trail")} × ${plural(begin.repeat, "run")} = ${plural(runs, "run")}, every step through the agent${begin.workers > 1 ? ` (--workers ${begin.workers})` : ""}\n`,
    );
  }

  onRunEnd(run: EvalRun): void {
    this.#out(`${this.runLine(run)}\n`);
  }

  onEnd(result: EvalResult): void {
    this.#out(`\n${this.format(result.report)}`);
    const file = this.#options.file;
    // The file holds the table without colours: it is read in an editor, not a terminal.
    if (file) writeReport("list", toTerminal(this.format(result.report, painter(false))), file, this.#options.notice ?? this.#out);
  }

  /** `  ✓ theme-in-words [gateway/good #2]  4 calls · 1,320 tokens · $0.0031 · 1.2 s`, and where a failed run failed. */
  runLine(run: EvalRun): string {
    const c = this.#c;
    const { report } = run;
    if (report.status === "skipped")
      return `  ${c.yellow("-")} ${shown(run.id, 60)} ${c.dim(`[${shown(run.model, 60)} #${run.rep}] skipped: ${shown(report.skipReason ?? "", 100)}`)}`;
    const usage = runUsage(report);
    const passed = report.status === "passed";
    const mark = passed ? c.green("✓") : c.red("✗");
    const cost = report.steps.some((s) => s.agent?.costUsd !== undefined) ? ` · ${usd(usage.costUsd)}` : "";
    const facts = c.dim(
      `${count(usage.calls)} call${usage.calls === 1 ? "" : "s"} · ${count(usage.tokens)} tokens${cost} · ${formatDuration(report.durationMs)}`,
    );
    const line = `  ${mark} ${shown(run.id, 60)} ${c.dim(`[${shown(run.model, 60)} #${run.rep}]`)}  ${facts}`;
    if (passed) return line;
    const step = report.steps.find((s) => s.status === "failed" || s.status === "interrupted");
    const why = step
      ? `step ${step.index}: ${withoutModel(step.failure?.message ?? step.status, run.model)}`
      : report.status === "unverified"
        ? "nothing verified: every step ran with nothing to check against"
        : (report.error ?? report.status);
    return `${line}\n      ${c.red(shown(why, 160))}`;
  }

  /** The table, the steps that failed most, and a line per model (in the list's colours, or `c`'s). */
  format(report: EvalReport, c = this.#c): string {
    const rows: string[][] = [COLUMNS.map(([header]) => header)];
    const kinds: ("head" | "trail" | "total")[] = ["head"];
    const rates: number[] = [1];
    const cells = (model: string, trail: string, t: Omit<EvalModel, "model" | "trails">) => [
      model,
      trail,
      `${t.passed}/${t.runs}`,
      percent(t.passRate),
      t.calls.toFixed(1),
      count(t.tokens),
      t.costUsd !== undefined ? usd(t.costUsd) : "-",
      t.runs > 0 ? formatDuration(t.durationMs) : "-",
    ];
    for (const model of report.models) {
      model.trails.forEach((trail, i) => {
        rows.push(cells(i === 0 ? shown(model.model, 60) : "", shown(trail.file, 70), trail));
        kinds.push("trail");
        rates.push(trail.passRate);
      });
      if (model.trails.length > 1) {
        rows.push(cells("", "all trails", model));
        kinds.push("total");
        rates.push(model.passRate);
      }
    }
    const rateColour = (rate: number) => (rate >= 1 ? c.green : rate > 0 ? c.yellow : c.red);
    const lines = table(rows, (row, cell, text) => {
      if (kinds[row] === "head") return c.dim(text);
      if (cell === 3) return rateColour(rates[row]!)(text);
      return kinds[row] === "total" ? c.bold(text) : text;
    });

    const failed = report.models.flatMap((model) =>
      model.trails
        .filter((trail) => trail.failures.length > 0)
        .map((trail) => {
          const steps = trail.failures.slice(0, 3).map((f) => {
            const where = f.index > 0 ? `step ${f.index} "${shown(f.step, 80)}"` : shown(f.step, 80);
            return `    ${where}: failed in ${f.count} of ${trail.runs} run${trail.runs === 1 ? "" : "s"}; last: ${c.red(shown(withoutModel(f.lastError, model.model), 160))}`;
          });
          const more = trail.failures.length > 3 ? [c.dim(`    … ${trail.failures.length - 3} more (--reporter json or html)`)] : [];
          return [`  ${shown(model.model, 60)} · ${shown(trail.file, 70)}`, ...steps, ...more].join("\n");
        }),
    );
    const gate = report.minPassRate;
    const verdict = report.models
      .map((model) => {
        const text = `${shown(model.model, 60)} ${percent(model.passRate)} (${model.passed}/${model.runs})`;
        return model.belowMinPassRate ? c.red(`${text} below ${percent(gate ?? 0)}`) : rateColour(model.passRate)(text);
      })
      .join(" · ");
    const out = [...lines, ""];
    if (failed.length > 0) out.push(c.bold("Failed most:"), ...failed, "");
    if (report.interrupted !== undefined) out.push(c.yellow(`Interrupted (${report.interrupted}); runs that had not ended are left out.`));
    out.push(
      `${verdict}${gate !== undefined ? ` (--min-pass-rate ${gate})` : ""} · ${report.repeat} run${report.repeat === 1 ? "" : "s"} a trail, in ${formatDuration(report.durationMs)}`,
    );
    return `${out.join("\n")}\n`;
  }
}
