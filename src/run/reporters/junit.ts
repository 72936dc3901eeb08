// `--reporter junit`: JUnit XML as CI systems read it — one <testsuite> per
// trail file, one <testcase> per trail, <failure>/<error>/<skipped> with text.

import type { RunProblem, RunReport, StepReport, TrailReport } from "../run-types.ts";
import { formatTrailProblem } from "../validate.ts";
import { xmlAttr, xmlText } from "../../core/markup-text.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function stepLog(step: StepReport): string[] {
  const lines = [`${step.status.toUpperCase().padEnd(7)} step ${step.index} [${step.kind}] ${step.title} (${step.durationMs} ms)${step.unverified ? ` unverified: ${step.unverified}` : ""}`];
  for (const tool of step.tools) {
    lines.push(`  ${tool.startedAt} ${tool.name} ${JSON.stringify(tool.args)} -> ${tool.result.variant}: ${String(tool.result.message ?? "")} (${tool.durationMs} ms)`);
  }
  return lines;
}

function failureDetail(trail: TrailReport): string {
  const lines: string[] = [];
  for (const problem of trail.problems ?? []) lines.push(formatTrailProblem(problem));
  const failed = trail.steps.find((s) => s.status === "failed");
  if (failed?.failure) {
    const f = failed.failure;
    lines.push(`${trail.file}:${failed.line}:${failed.col} step ${failed.index}: ${failed.title}`);
    if (f.tool) lines.push(`tool: ${f.tool}`);
    if (f.args) lines.push(`args: ${JSON.stringify(f.args)}`);
    lines.push(`${f.variant ? `${f.variant}: ` : ""}${f.message}`);
    if (f.stderr) lines.push(`stderr of ${f.stderr.source}:`, ...f.stderr.lines.map((l) => `  ${l}`));
  }
  if (lines.length === 0 && trail.error) lines.push(trail.error);
  return lines.join("\n");
}

function testcase(trail: TrailReport): string {
  const attrs = `name="${xmlAttr(trail.id)}" classname="${xmlAttr(trail.file)}" file="${xmlAttr(trail.file)}" time="${seconds(trail.durationMs)}"`;
  const body: string[] = [];
  const message = xmlAttr((trail.error ?? "").split("\n")[0] ?? "");
  if (trail.status === "failed") {
    const variant = trail.steps.find((s) => s.status === "failed")?.failure?.variant ?? "StepFailed";
    body.push(`      <failure message="${message}" type="${xmlAttr(variant)}">${xmlText(failureDetail(trail))}</failure>`);
  } else if (trail.status === "error") {
    body.push(`      <error message="${message}" type="${trail.ran ? "TrailAborted" : "TrailNotStarted"}">${xmlText(failureDetail(trail))}</error>`);
  } else if (trail.status === "skipped") {
    body.push(`      <skipped message="${xmlAttr(trail.skipReason ?? "")}"/>`);
  }
  if (trail.unverified > 0) body.unshift(`      <properties>\n        <property name="unverified" value="${trail.unverified}"/>\n      </properties>`);
  const log = [
    ...(trail.unverified > 0 ? [`UNVERIFIED ${trail.unverified} step${trail.unverified === 1 ? "" : "s"}: screen checks made with no screen loaded (--require-screen fails them)`] : []),
    ...trail.steps.flatMap(stepLog),
  ];
  if (log.length > 0) body.push(`      <system-out>${xmlText(log.join("\n"))}</system-out>`);
  return body.length === 0 ? `    <testcase ${attrs}/>` : `    <testcase ${attrs}>\n${body.join("\n")}\n    </testcase>`;
}

/** A run that stopped before any trail started: one suite, one erroring testcase listing why. */
function problemsSuite(problems: readonly RunProblem[]): string {
  const lines = problems.map((p) => `${p.file !== undefined ? `${p.file}${p.line ? `:${p.line}:${p.col ?? 0}` : ""}: ` : ""}${p.message}`);
  const message = xmlAttr(`the run stopped before any trail started: ${lines[0] ?? ""}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ""}`);
  return `  <testsuite name="trailblaze" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n    <testcase name="run" classname="trailblaze" time="0.000">\n      <error message="${message}" type="RunNotStarted">${xmlText(lines.join("\n"))}</error>\n    </testcase>\n  </testsuite>`;
}

export function formatJunitReport(run: RunReport): string {
  const byFile = new Map<string, TrailReport[]>();
  for (const trail of run.trails) byFile.set(trail.file, [...(byFile.get(trail.file) ?? []), trail]);
  const count = (trails: TrailReport[], status: TrailReport["status"]) => trails.filter((t) => t.status === status).length;
  const counts = (trails: TrailReport[]) =>
    `tests="${trails.length}" failures="${count(trails, "failed")}" errors="${count(trails, "error")}" skipped="${count(trails, "skipped")}"`;
  const suites = [...byFile].map(([file, trails]) => {
    const time = trails.reduce((sum, t) => sum + t.durationMs, 0);
    const timestamp = (trails[0]?.startedAt ?? new Date().toISOString()).replace(/\.\d+Z$/, "");
    return `  <testsuite name="${xmlAttr(file)}" ${counts(trails)} time="${seconds(time)}" timestamp="${xmlAttr(timestamp)}">\n${trails.map(testcase).join("\n")}\n  </testsuite>`;
  });
  if (run.problems && run.problems.length > 0) suites.unshift(problemsSuite(run.problems));
  const name = run.interrupted ? `trailblaze (partial: ${run.interrupted})` : "trailblaze";
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlAttr(name)}" ${run.problems?.length ? `tests="1" failures="0" errors="1" skipped="0"` : counts(run.trails)} time="${seconds(run.summary.durationMs)}">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}
