// One trail of the HTML report: a <details> whose summary says status, name, file, target, tags,
// time and why it failed, and whose body lists the steps — tool calls (arguments masked as in
// every report), results, failures with the server's stderr tail, memory changes, unverified
// marks, and the screen each step ran on (a wireframe drawn from the run's screen table). Built
// with the `html` tag: every value from the run is escaped where it lands.

import { html, joinHtml, type Html } from "../../core/html-template.ts";
import type { StepReport, StepScreen, ToolCallReport, TrailReport } from "../run-types.ts";
import { formatTrailProblem } from "../validate.ts";
import { formatDuration } from "./list.ts";

const MARKS: Record<StepReport["status"], string> = { passed: "✓", healed: "✚", failed: "✗", unverified: "⚠", skipped: "–", interrupted: "■" };

const json = (value: unknown) => JSON.stringify(value) ?? "undefined";

/** A tool call: name, time, arguments, result (a failing call's message is in the failure box below it). */
function call(tool: ToolCallReport): Html {
  const variant = String(tool.result.variant ?? "");
  const ok = tool.result.status === "success";
  const args = Object.keys(tool.args).length > 0 && html`<code class="args">${json(tool.args)}</code>`;
  const message = tool.result.message !== undefined && ok && ` ${String(tool.result.message)}`;
  return html`<div class="call"><code class="tool"><b>${tool.name}</b></code> <span class="meta">${formatDuration(tool.durationMs)}</span> ${args} <span class="variant ${ok ? "ok" : "bad"}">${variant}</span>${message}</div>`;
}

function failure(step: StepReport, file: string): Html | "" {
  const f = step.failure;
  if (!f) return "";
  const where = f.line !== undefined && html`<div class="meta">${`${file}:${f.line}:${f.col ?? 0}`}${f.tool && ` · ${f.tool}`}</div>`;
  const args = f.args && step.tools.length === 0 && html`<pre>${json(f.args)}</pre>`;
  const stderr = f.stderr && html`<div class="meta">stderr of ${f.stderr.source} (last ${f.stderr.lines.length} lines):</div><pre>${f.stderr.lines.join("\n")}</pre>`;
  return html`<div class="failure"><div class="msg">${`${f.variant ? `${f.variant}: ` : ""}${f.message}`}</div>${where}${args}${stderr}</div>`;
}

function memory(step: StepReport): Html | "" {
  if (!step.memory) return "";
  const set = Object.entries(step.memory.set ?? {}).map(([key, value]) => html`<code>${key}</code> = <code>${json(value)}</code>`);
  const deleted = (step.memory.deleted ?? []).map((key) => html`<code>${key}</code> deleted`);
  return html`<div class="mem">memory: ${joinHtml([...set, ...deleted], ", ")}</div>`;
}

/** Where the device was and where the step took it; plus the picture of the screen. */
function screen(value: StepScreen | undefined): { where: Html | ""; picture: Html | "" } {
  if (!value) return { where: "", picture: "" };
  if (value.kind === "web") {
    const img = value.screenshot?.startsWith("data:image/") && html`<img alt="${`screenshot of ${value.url}`}" src="${value.screenshot}">`;
    return {
      where: html`<div class="where">page <span class="wp">${value.title || "(untitled)"}</span> <code>${value.url}</code></div>`,
      picture: html`<div class="web">${img}<pre>${value.outline}</pre></div>`,
    };
  }
  const at = value.waypoint !== undefined ? html`at <span class="wp">${value.waypoint}</span>` : "on a static capture";
  const moves = (value.moves ?? []).map((m) => html` → shortcut <code>${m.shortcut}</code> → <span class="wp">${m.to}</span>`);
  const matched = value.matched.length > 0 && ` · marked ${value.matched.map((id) => `#${id}`).join(", ")}`;
  return {
    where: html`<div class="where">${at}${moves}<span class="meta">${matched}</span></div>`,
    picture: html`<div class="wf" title="click to enlarge" data-screen="${value.screen}" data-match="${value.matched.join(",")}"></div>`,
  };
}

function step(s: StepReport, file: string): Html {
  const { where, picture } = screen(s.screen);
  const unverified = s.unverified !== undefined && html`<div class="note">⚠ unverified: ${s.unverified}</div>`;
  return html`<li class="step ${s.status}"><div class="step-main"><div class="step-head"><span class="mark" title="${s.status}">${MARKS[s.status]}</span><b>${s.index}</b><span class="kind">${s.kind}</span><span>${s.title}</span><span class="status ${s.status}">${s.status}</span><span class="meta">${formatDuration(s.durationMs)} · line ${s.line}</span></div>${s.tools.map(call)}${failure(s, file)}${unverified}${memory(s)}${where}</div>${picture}</li>`;
}

/** The trail's status for filters and colour: `unverified` is a trail with nothing verified, or a passed one with unverified steps. */
function shownStatus(trail: TrailReport): string {
  return trail.status === "passed" && trail.unverified > 0 ? "unverified" : trail.status;
}

export function trailHtml(trail: TrailReport, index: number): Html {
  const status = shownStatus(trail);
  const tags = trail.tags ?? [];
  const target = trail.session?.target ?? "";
  const why = trail.error ?? trail.skipReason;
  const summary = [
    html`<span class="status ${status}">${status}</span>`,
    html`<span class="tname">${trail.title ?? trail.id}</span>`,
    trail.title !== undefined && html`<span class="meta">${trail.id}</span>`,
    html`<span class="meta mono">${trail.file}</span>`,
    target && html`<span class="meta">target ${target}${trail.session && ` · ${trail.session.platform}`}</span>`,
    ...tags.map((tag) => html`<span class="tag">${tag}</span>`),
    html`<span class="meta">${formatDuration(trail.durationMs)}</span>`,
    trail.unverified > 0 && html`<span class="status unverified">${trail.unverified} unverified</span>`,
    why !== undefined && trail.status !== "passed" && html`<span class="why">${why.split("\n")[0]!}</span>`,
  ];
  const session = trail.session;
  const kv =
    session &&
    html`<div class="kv"><span>session <b>${session.id}</b></span><span>driver <b>${session.driver}</b></span><span>agent <b>${session.agent}</b></span><span>started <b>${trail.startedAt}</b></span>${session.logsDir && html`<span>logs <b>${session.logsDir}</b></span>`}</div>`;
  const problems = trail.problems?.length ? html`<div class="failure"><div class="msg">${trail.problems.map(formatTrailProblem).join("\n")}</div></div>` : "";
  const error = !problems && trail.error !== undefined && !trail.steps.some((s) => s.failure) && html`<div class="failure"><div class="msg">${trail.error}</div></div>`;
  const skip = trail.skipReason !== undefined && html`<div class="note">skipped: ${trail.skipReason}</div>`;
  const memory = trail.memory && Object.keys(trail.memory).length > 0 && html`<div class="mem">memory at the end: <code>${json(trail.memory)}</code></div>`;
  const steps = trail.steps.length > 0 && html`<ol class="steps">${trail.steps.map((s) => step(s, trail.file))}</ol>`;
  return html`<details class="trail ${status}" id="${`trail-${index + 1}`}" data-status="${status}" data-target="${target}" data-tags="${JSON.stringify(tags)}"><summary>${summary}</summary><div class="tbody">${kv}${problems}${error}${skip}${steps}${memory}</div></details>`;
}
