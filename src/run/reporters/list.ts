// `--reporter list` (default): a line per step as it finishes (✓/⚠/✗, duration),
// simulated-device actions under their step, why a step is unverified, a readable failure block (tool,
// masked args, message, the server's stderr tail), and a closing summary.
// One trail at a time prints live; with several workers each trail prints as a
// block when it ends, so lines of parallel trails never interleave. `merge-reports` prints
// the whole list at the end; with a file (`list=FILE`) the whole list is written there too.
// Everything it prints goes through core/terminal-text.ts: what came from trails, tools, pages
// and models shows its control characters escaped; only its own colours reach the terminal.

import type { Reporter, ReporterOptions, RunBegin, TrailInfo } from "../reporter.ts";
import type { RunReport, StepReport, TrailReport } from "../run-types.ts";
import { writeReport, type ReportDestination } from "./document.ts";
import { formatTrailProblem, oneLine } from "../validate.ts";
import { paint, toTerminal } from "../../core/terminal-text.ts";

interface ListReporterOptions {
  /** ANSI colours; default false. */
  color?: boolean;
  /** Print each step as it finishes; default: when the run has one worker (onBegin), else each trail as a block when it ends. */
  live?: boolean;
  /** `merge-reports` prints the whole list at the end (there is nothing live to show); default `run`. */
  command?: ReporterOptions["command"];
  /** Also write the whole list to this file at the end (`--reporter list=FILE`, or `--output` with list alone). */
  file?: ReportDestination;
  /** Where the "list report written to" line goes; default `out`. */
  notice?: (text: string) => void;
}

type Paint = (text: string) => string;

function painter(enabled: boolean): Record<"green" | "red" | "yellow" | "dim" | "bold", Paint> {
  const code = (open: number, close: number): Paint => paint(enabled, open, close);
  return { green: code(32, 39), red: code(31, 39), yellow: code(33, 39), dim: code(2, 22), bold: code(1, 22) };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const indent = (text: string, prefix: string) =>
  text
    .split("\n")
    .map((line, i) => (i === 0 ? line : `${prefix}${line}`))
    .join("\n");

export class ListReporter implements Reporter {
  readonly #out: (text: string) => void;
  readonly #options: ListReporterOptions;
  readonly #c: ReturnType<typeof painter>;
  #live: boolean;
  #began = false;
  /** Trails begun and not ended, by position: an interrupted run finishes their blocks. */
  readonly #open = new Map<number, TrailInfo>();

  constructor(out: (text: string) => void, options: ListReporterOptions = {}) {
    this.#out = (text) => out(toTerminal(text));
    this.#options = options;
    this.#live = options.live ?? false;
    this.#c = painter(options.color ?? false);
  }

  /** `run` prints on stdout as it goes; `merge-reports` only when the list has no file. */
  printsToStdio(): boolean {
    return !this.#merging || this.#options.file === undefined;
  }

  get #merging(): boolean {
    return this.#options.command === "merge-reports";
  }

  onBegin(run: RunBegin): void {
    this.#began = true;
    this.#live = this.#options.live ?? run.workers === 1;
  }

  onTrailBegin(trail: TrailInfo): void {
    this.#open.set(trail.index, trail);
    if (this.#live && !this.#merging) this.#out(`${this.#header(trail)}\n`);
  }

  onStepEnd(trail: TrailInfo, step: StepReport): void {
    if (this.#live && !this.#merging) this.#out(this.#step(step, trail.file));
  }

  onTrailEnd(trail: TrailInfo, report: TrailReport): void {
    this.#open.delete(trail.index);
    if (this.#merging) return;
    if (this.#live) {
      const notRun = report.steps
        .filter((s) => s.status === "skipped")
        .map((s) => this.#step(s, report.file))
        .join("");
      this.#out(`${notRun}${this.#footer(report)}\n`);
    } else {
      this.#out(this.#formatTrail(report));
    }
  }

  /**
   * The summary (after the blocks of the trails an interrupt cut short: their interrupted step,
   * their footer), and the list's file; `merge-reports` prints the whole list here.
   */
  onEnd(run: RunReport): void {
    if (this.#merging) {
      if (this.#options.file === undefined) this.#out(this.#format(run));
    } else if (this.#began) {
      if (run.interrupted) this.#out(this.#cutShort(run));
      this.#out(this.#summary(run));
    }
    const file = this.#options.file;
    if (file) writeReport("list", this.format(run), file, this.#options.notice ?? this.#out);
  }

  /** The whole run as one document: every trail as a block, then the summary (as it is printed). */
  format(run: RunReport): string {
    return toTerminal(this.#format(run));
  }

  #format(run: RunReport): string {
    return `${run.trails.map((trail) => this.#formatTrail(trail)).join("\n")}${this.#summary(run)}`;
  }

  #cutShort(run: RunReport): string {
    const reports = [...run.trails];
    let text = "";
    for (const trail of this.#open.values()) {
      const at = reports.findIndex((r) => r.file === trail.file && r.id === trail.id);
      if (at < 0) continue;
      const report = reports.splice(at, 1)[0]!;
      if (this.#live) {
        const rest = report.steps
          .filter((s) => s.status === "interrupted" || s.status === "skipped")
          .map((s) => this.#step(s, report.file))
          .join("");
        text += `${rest}${this.#footer(report)}\n`;
      } else {
        text += this.#formatTrail(report);
      }
    }
    this.#open.clear();
    return text;
  }

  /** A whole trail as a block: header, every step, footer (as it is printed). */
  formatTrail(report: TrailReport): string {
    return toTerminal(this.#formatTrail(report));
  }

  #formatTrail(report: TrailReport): string {
    return `${this.#header(report)}\n${report.steps.map((s) => this.#step(s, report.file)).join("")}${this.#footer(report)}\n`;
  }

  /** The closing summary (as it is printed). */
  summary(run: RunReport): string {
    return toTerminal(this.#summary(run));
  }

  #summary(run: RunReport): string {
    const { c } = { c: this.#c };
    const s = run.summary;
    const parts = [
      c.green(`${s.passed} passed`),
      ...(s.unverifiedTrails ? [c.yellow(`${s.unverifiedTrails} ran with nothing verified`)] : []),
      s.failed > 0 ? c.red(`${s.failed} failed`) : `${s.failed} failed`,
      ...(s.errors > 0 ? [c.red(`${s.errors} error${s.errors === 1 ? "" : "s"}`)] : []),
      ...(s.skipped > 0 ? [c.yellow(`${s.skipped} skipped`)] : []),
      ...(s.unverified > 0 ? [c.yellow(`${s.unverified} unverified step${s.unverified === 1 ? "" : "s"}`)] : []),
      ...(s.healed ? [c.yellow(`${s.healed} step${s.healed === 1 ? "" : "s"} healed`)] : []),
    ];
    const lines = [""];
    const bad = run.trails.filter((t) => t.status === "failed" || t.status === "error");
    if (bad.length > 0) {
      lines.push(c.bold("Not passed:"));
      for (const t of bad) lines.push(`  ${c.red("✗")} ${t.file} (${t.id}): ${oneLine(t.error ?? t.status, 160)}`);
      lines.push("");
    }
    if (run.interrupted) lines.push(c.yellow(`Interrupted (${run.interrupted}); the report is partial.`));
    const shard = run.shard ? ` · shard ${run.shard.index}/${run.shard.total}` : "";
    lines.push(
      `${parts.join(", ")} (${run.trails.length} trail${run.trails.length === 1 ? "" : "s"}${shard}) in ${formatDuration(s.durationMs)}`,
    );
    return `${lines.join("\n")}\n`;
  }

  #header(trail: { file: string; id: string; title?: string }): string {
    const title = trail.title ? ` — ${oneLine(trail.title, 200)}` : "";
    return `${this.#c.bold(trail.file)} ${this.#c.dim(`(${trail.id}${title})`)}`;
  }

  #step(step: StepReport, file: string): string {
    const c = this.#c;
    const tag = step.kind === "step" ? "" : c.dim(`[${step.kind}] `);
    const title = oneLine(step.title, 100);
    if (step.status === "skipped") return `  ${c.yellow("-")} ${tag}${title} ${c.dim("(not run)")}\n`;
    if (step.status === "interrupted")
      return `  ${c.yellow("!")} ${tag}${title} ${c.dim(`(interrupted after ${formatDuration(step.durationMs)})`)}\n`;
    const mark =
      step.status === "passed"
        ? c.green("✓")
        : step.status === "healed"
          ? c.yellow("✚")
          : step.status === "unverified"
            ? c.yellow("⚠")
            : c.red("✗");
    const healed = step.status === "healed" ? `${c.yellow("healed")} ` : "";
    const lines = [`  ${mark} ${healed}${tag}${title} ${c.dim(`(${formatDuration(step.durationMs)})`)}`];
    const agent = step.agent;
    if (agent) {
      const cost = agent.costUsd !== undefined ? `, $${agent.costUsd.toFixed(4)}` : "";
      const why = agent.why === "self-heal" ? "self-heal" : agent.why === "words" ? "--no-use-recorded-steps" : "no recording";
      lines.push(
        c.dim(
          `      agent ${agent.model} (${why}): ${agent.turns.length} model call${agent.turns.length === 1 ? "" : "s"}, ${agent.tokens.input + agent.tokens.output} tokens${cost}`,
        ),
      );
      if (agent.recordingFailure) lines.push(c.dim(`      the recording failed: ${oneLine(agent.recordingFailure.message, 120)}`));
      // The attempts that failed (a call refused or failing, an answer with no call): what the model tried before it got there.
      // A refused one (call-guard.ts) is marked apart: a sign the page or screen tried to steer the model.
      for (const turn of agent.turns) {
        if (turn.refused) lines.push(`      ${c.yellow(`⊘ ${turn.called?.tool ?? "?"}: ${oneLine(turn.outcome ?? "refused", 160)}`)}`);
        else if (turn.ok === false)
          lines.push(`      ${c.red("✗")} ${c.dim(`${turn.called?.tool ?? "?"}: ${oneLine(turn.outcome ?? "", 100)}`)}`);
        else if (turn.called === undefined) lines.push(`      ${c.red("✗")} ${c.dim("no tool call in the answer")}`);
      }
    }
    for (const tool of step.tools) {
      if (tool.result.status !== "success") continue;
      const structured = tool.result.structuredContent as Record<string, unknown> | undefined;
      // Where the action took the simulated screen gets a line of its own (it ends the message).
      const move = (structured?.screen as { message?: unknown } | undefined)?.message;
      let text = String(tool.result.message ?? "");
      if (typeof move === "string" && text.endsWith(`; ${move}`)) text = text.slice(0, -move.length - 2);
      const message = oneLine(text, 100);
      if (tool.result.unverified !== undefined) {
        lines.push(`      ${c.yellow(`↳ ${tool.name}: ${message}`)}`);
        continue;
      }
      lines.push(c.dim(`      ↳ ${structured?.simulatedDevice ? message : `${tool.name}${message ? `: ${message}` : ""}`}`));
      if (typeof move === "string") lines.push(c.dim(`        ${oneLine(move, 100)}`));
    }
    // Why the step checked nothing, when no call's line says it already (its calls only acted, or it made none).
    if (step.unverified !== undefined && !step.tools.some((tool) => tool.result.unverified !== undefined))
      lines.push(`      ${c.yellow(`⚠ ${oneLine(step.unverified, 140)}`)}`);
    const f = step.failure;
    if (f) {
      const pad = "               ";
      const at = f.line !== undefined ? c.dim(` (${file}:${f.line}:${f.col})`) : "";
      if (f.tool) lines.push(`      ${c.dim("tool:")}    ${f.tool}${at}`);
      if (f.args) lines.push(`      ${c.dim("args:")}    ${JSON.stringify(f.args)}`);
      lines.push(`      ${c.dim("error:")}   ${c.red(indent(`${f.variant ? `${f.variant}: ` : ""}${f.message}`, pad))}`);
      if (f.stderr) {
        lines.push(
          `      ${c.dim(`stderr of ${f.stderr.source} (last ${f.stderr.lines.length} line${f.stderr.lines.length === 1 ? "" : "s"}):`)}`,
        );
        for (const line of f.stderr.lines) lines.push(`        ${c.dim("|")} ${line}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }

  #footer(report: TrailReport): string {
    const c = this.#c;
    const session = report.session
      ? c.dim(
          ` · ${report.session.target} · ${report.session.driver} · ${report.session.agent}${report.session.logsDir !== undefined ? ` · logs ${report.session.logsDir}` : ""}`,
        )
      : "";
    const time = formatDuration(report.durationMs);
    switch (report.status) {
      case "passed": {
        const unverified =
          report.unverified > 0 ? c.yellow(` (${report.unverified} unverified step${report.unverified === 1 ? "" : "s"})`) : "";
        const healed = report.healed ? c.yellow(` (${report.healed} step${report.healed === 1 ? "" : "s"} healed)`) : "";
        const saved = report.savedRecording
          ? c.dim(
              `\n  saved the agent's recording of step${report.savedRecording.steps.length === 1 ? "" : "s"} ${report.savedRecording.steps.join(", ")} to ${report.savedRecording.file} (under ${report.savedRecording.slot}:)`,
            )
          : "";
        return `  ${c.green("passed")}${healed}${unverified} in ${time}${session}${saved}`;
      }
      case "unverified":
        return `  ${c.yellow("nothing verified")}: no step checked anything for real (${report.unverified} unverified step${report.unverified === 1 ? "" : "s"}; give the device a screen with --capture, --map or simulation:) in ${time}${session}`;
      case "skipped":
        return `  ${c.yellow("skipped")}: ${report.skipReason ?? ""}`;
      case "failed":
        return `  ${c.red("failed")} in ${time}${session}`;
      case "error": {
        const lines = [`  ${c.red(report.ran ? "error" : "error: not started")} after ${time}${session}`];
        const problems = report.problems?.map(formatTrailProblem) ?? (report.ran ? [] : [report.error ?? ""]);
        for (const problem of problems) lines.push(`      ${c.red(indent(problem, "      "))}`);
        if (report.ran && report.error && !report.steps.some((s) => s.failure))
          lines.push(`      ${c.red(indent(report.error, "      "))}`);
        return lines.join("\n");
      }
    }
  }
}
