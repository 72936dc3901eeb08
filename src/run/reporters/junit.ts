// `--reporter junit`: JUnit XML as CI systems read it — one <testsuite> per
// trail file, one <testcase> per trail, <failure>/<error>/<skipped> with text. Built with the
// core's markup tag (its escaping is XML's, markup-text.ts), so every value is escaped for its
// place; numbers are forced finite and text fields read as text first, so a report that did not go
// through validation (a plug-in's, a hand-edited one) cannot add markup or break the document.

import { html as xml, joinHtml, type Html } from "../../core/html-template.ts";
import type { RunProblem, RunReport, StepReport, TrailReport } from "../run-types.ts";
import { formatTrailProblem } from "../validate.ts";

/** `value` when it is a finite number, else 0: what a count or a duration can be, whatever a report said. */
const finite = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
/** `value` as text: a string as it is, nothing for null and undefined, any other value as JSON. */
const str = (value: unknown): string =>
  typeof value === "string"
    ? value
    : value === undefined || value === null
      ? ""
      : typeof value === "object"
        ? (JSON.stringify(value) ?? "")
        : String(value);
const seconds = (ms: unknown) => (finite(ms) / 1000).toFixed(3);

function stepLog(step: StepReport): string[] {
  const lines = [
    `${str(step.status).toUpperCase().padEnd(7)} step ${finite(step.index)} [${str(step.kind)}] ${str(step.title)} (${finite(step.durationMs)} ms)${step.unverified ? ` unverified: ${str(step.unverified)}` : ""}`,
  ];
  if (step.agent) {
    const a = step.agent;
    lines.push(
      `  agent ${str(a.model)} (${str(a.why)}): ${a.turns.length} model call${a.turns.length === 1 ? "" : "s"}, ${finite(a.tokens.input)} in + ${finite(a.tokens.output)} out tokens${a.costUsd !== undefined ? `, $${finite(a.costUsd).toFixed(4)}` : ""}`,
    );
    if (a.recordingFailure) lines.push(`  the recording failed: ${str(a.recordingFailure.message)}`);
  }
  for (const tool of step.tools) {
    lines.push(
      `  ${str(tool.startedAt)} ${str(tool.name)} ${JSON.stringify(tool.args)} -> ${str(tool.result.variant)}: ${str(tool.result.message)} (${finite(tool.durationMs)} ms)${tool.result.unchecked !== undefined ? ` nothing checked: ${str(tool.result.unchecked)}` : ""}`,
    );
  }
  return lines;
}

function failureDetail(trail: TrailReport): string {
  const lines: string[] = [];
  for (const problem of trail.problems ?? [])
    lines.push(formatTrailProblem({ ...problem, stepTitle: problem.stepTitle === undefined ? undefined : str(problem.stepTitle) }));
  const failed = trail.steps.find((s) => s.status === "failed");
  if (failed?.failure) {
    const f = failed.failure;
    lines.push(`${str(trail.file)}:${finite(failed.line)}:${finite(failed.col)} step ${finite(failed.index)}: ${str(failed.title)}`);
    if (f.tool) lines.push(`tool: ${str(f.tool)}`);
    if (f.args) lines.push(`args: ${JSON.stringify(f.args)}`);
    lines.push(`${f.variant ? `${str(f.variant)}: ` : ""}${str(f.message)}`);
    if (f.stderr) lines.push(`stderr of ${str(f.stderr.source)}:`, ...f.stderr.lines.map((l) => `  ${str(l)}`));
  }
  if (lines.length === 0 && trail.error) lines.push(str(trail.error));
  return lines.join("\n");
}

function testcase(trail: TrailReport): Html {
  const [id, file, time] = [str(trail.id), str(trail.file), seconds(trail.durationMs)];
  const message = str(trail.error).split("\n")[0];
  const unverified = finite(trail.unverified);
  const healed = finite(trail.healed);
  const properties = [
    ...(unverified > 0 ? [xml`        <property name="unverified" value="${unverified}"/>`] : []),
    // A healed trail passed, but not as recorded: CI shows the property beside the green test.
    ...(healed > 0 ? [xml`        <property name="healed" value="${healed}"/>`] : []),
  ];
  const body: (Html | false)[] = [properties.length > 0 && xml`      <properties>\n${joinHtml(properties, "\n")}\n      </properties>`];
  if (trail.status === "failed") {
    const variant = str(trail.steps.find((s) => s.status === "failed")?.failure?.variant ?? "StepFailed");
    body.push(xml`      <failure message="${message}" type="${variant}">${failureDetail(trail)}</failure>`);
  } else if (trail.status === "error") {
    body.push(
      xml`      <error message="${message}" type="${trail.ran ? "TrailAborted" : "TrailNotStarted"}">${failureDetail(trail)}</error>`,
    );
  } else if (trail.status === "skipped") {
    body.push(xml`      <skipped message="${str(trail.skipReason)}"/>`);
  } else if (trail.status === "unverified") {
    // Not a pass and not a failure: CI tools show a skipped test apart from the green ones.
    body.push(
      xml`      <skipped message="nothing verified: no step checked anything for real (${unverified} unverified step${unverified === 1 ? "" : "s"})"/>`,
    );
  }
  const log = [
    ...(unverified > 0
      ? [
          `UNVERIFIED ${unverified} step${unverified === 1 ? "" : "s"}: nothing checked for real, or a check that could not be made (--require-screen fails them)`,
        ]
      : []),
    ...(healed > 0
      ? [
          `HEALED ${healed} step${healed === 1 ? "" : "s"}: the recording failed and the agent reached the step on the screen as it was (--self-heal)`,
        ]
      : []),
    ...trail.steps.flatMap(stepLog),
  ];
  body.push(log.length > 0 && xml`      <system-out>${log.join("\n")}</system-out>`);
  const parts = body.filter((part): part is Html => part !== false);
  return parts.length === 0
    ? xml`    <testcase name="${id}" classname="${file}" file="${file}" time="${time}"/>`
    : xml`    <testcase name="${id}" classname="${file}" file="${file}" time="${time}">\n${joinHtml(parts, "\n")}\n    </testcase>`;
}

/** A run that stopped before any trail started: one suite, one erroring testcase listing why. */
function problemsSuite(problems: readonly RunProblem[]): Html {
  const lines = problems.map(
    (p) => `${p.file !== undefined ? `${str(p.file)}${p.line ? `:${finite(p.line)}:${finite(p.col)}` : ""}: ` : ""}${str(p.message)}`,
  );
  const message = `the run stopped before any trail started: ${lines[0] ?? ""}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ""}`;
  return xml`  <testsuite name="trailblaze" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n    <testcase name="run" classname="trailblaze" time="0.000">\n      <error message="${message}" type="RunNotStarted">${lines.join("\n")}</error>\n    </testcase>\n  </testsuite>`;
}

/** The counts a <testsuite> or <testsuites> carries. */
function tally(trails: readonly TrailReport[]) {
  const count = (status: TrailReport["status"]) => trails.filter((t) => t.status === status).length;
  return { tests: trails.length, failures: count("failed"), errors: count("error"), skipped: count("skipped") + count("unverified") };
}

export function formatJunitReport(run: RunReport): string {
  const byFile = new Map<string, TrailReport[]>();
  for (const trail of run.trails) byFile.set(str(trail.file), [...(byFile.get(str(trail.file)) ?? []), trail]);
  const suites = [...byFile].map(([file, trails]) => {
    const c = tally(trails);
    const time = seconds(trails.reduce((sum, t) => sum + finite(t.durationMs), 0));
    const timestamp = str(trails[0]?.startedAt ?? new Date().toISOString()).replace(/\.\d+Z$/, "");
    return xml`  <testsuite name="${file}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${time}" timestamp="${timestamp}">\n${joinHtml(trails.map(testcase), "\n")}\n  </testsuite>`;
  });
  if (run.problems && run.problems.length > 0) suites.unshift(problemsSuite(run.problems));
  const name = run.interrupted ? `trailblaze (partial: ${str(run.interrupted)})` : "trailblaze";
  const c = run.problems?.length ? { tests: 1, failures: 0, errors: 1, skipped: 0 } : tally(run.trails);
  return xml`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${name}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(run.summary.durationMs)}">
${joinHtml([...suites, xml`</testsuites>`], "\n")}
`.toString();
}
