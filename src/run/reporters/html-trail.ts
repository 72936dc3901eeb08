// One trail of the HTML report: a <details> whose summary says status, name, file, target, tags,
// time and why it failed, and whose body lists the steps — tool calls (arguments masked as in
// every report), results, failures with the server's stderr tail, memory changes, unverified
// marks, and the screen each step ran on (a wireframe drawn from the run's screen table).

import { xmlAttr as attr, xmlText as text } from "../../core/markup-text.ts";
import type { StepReport, StepScreen, ToolCallReport, TrailReport } from "../run-types.ts";
import { formatTrailProblem } from "../validate.ts";
import { formatDuration } from "./list.ts";

const MARKS: Record<StepReport["status"], string> = { passed: "✓", failed: "✗", unverified: "⚠", skipped: "–", interrupted: "■" };

const json = (value: unknown) => JSON.stringify(value) ?? "undefined";

/** A tool call: name, time, arguments, result (a failing call's message is in the failure box below it). */
function call(tool: ToolCallReport): string {
  const variant = String(tool.result.variant ?? "");
  const ok = tool.result.status === "success";
  const args = Object.keys(tool.args).length > 0 ? `<code class="args">${text(json(tool.args))}</code>` : "";
  const message = tool.result.message === undefined || !ok ? "" : ` ${text(String(tool.result.message))}`;
  return `<div class="call"><code class="tool"><b>${text(tool.name)}</b></code> <span class="meta">${formatDuration(tool.durationMs)}</span>${args}<span class="variant ${ok ? "ok" : "bad"}">${text(variant)}</span>${message}</div>`;
}

function failure(step: StepReport, file: string): string {
  const f = step.failure;
  if (!f) return "";
  const where = f.line !== undefined ? `<div class="meta">${text(`${file}:${f.line}:${f.col ?? 0}`)}${f.tool ? ` · ${text(f.tool)}` : ""}</div>` : "";
  const args = f.args && step.tools.length === 0 ? `<pre>${text(json(f.args))}</pre>` : "";
  const stderr = f.stderr ? `<div class="meta">stderr of ${text(f.stderr.source)} (last ${f.stderr.lines.length} lines):</div><pre>${text(f.stderr.lines.join("\n"))}</pre>` : "";
  return `<div class="failure"><div class="msg">${text(`${f.variant ? `${f.variant}: ` : ""}${f.message}`)}</div>${where}${args}${stderr}</div>`;
}

function memory(step: StepReport): string {
  if (!step.memory) return "";
  const set = Object.entries(step.memory.set ?? {}).map(([key, value]) => `<code>${text(key)}</code> = <code>${text(json(value))}</code>`);
  const deleted = (step.memory.deleted ?? []).map((key) => `<code>${text(key)}</code> deleted`);
  return `<div class="mem">memory: ${[...set, ...deleted].join(", ")}</div>`;
}

/** Where the device was and where the step took it; plus the picture of the screen. */
function screen(value: StepScreen | undefined): { where: string; picture: string } {
  if (!value) return { where: "", picture: "" };
  if (value.kind === "web") {
    const img = value.screenshot?.startsWith("data:image/") ? `<img alt="screenshot of ${attr(value.url)}" src="${attr(value.screenshot)}">` : "";
    return {
      where: `<div class="where">page <span class="wp">${text(value.title || "(untitled)")}</span> <code>${text(value.url)}</code></div>`,
      picture: `<div class="web">${img}<pre>${text(value.outline)}</pre></div>`,
    };
  }
  const at = value.waypoint !== undefined ? `at <span class="wp">${text(value.waypoint)}</span>` : "on a static capture";
  const moves = (value.moves ?? []).map((m) => ` → shortcut <code>${text(m.shortcut)}</code> → <span class="wp">${text(m.to)}</span>`).join("");
  const matched = value.matched.length > 0 ? ` · marked ${value.matched.map((id) => `#${id}`).join(", ")}` : "";
  return {
    where: `<div class="where">${at}${moves}<span class="meta">${matched}</span></div>`,
    picture: `<div class="wf" title="click to enlarge" data-screen="${attr(value.screen)}" data-match="${attr(value.matched.join(","))}"></div>`,
  };
}

function step(s: StepReport, file: string): string {
  const { where, picture } = screen(s.screen);
  const unverified = s.unverified !== undefined ? `<div class="note">⚠ unverified: ${text(s.unverified)}</div>` : "";
  return `<li class="step ${s.status}"><div class="step-main"><div class="step-head"><span class="mark" title="${s.status}">${MARKS[s.status]}</span><b>${s.index}</b><span class="kind">${text(s.kind)}</span><span>${text(s.title)}</span><span class="status ${s.status}">${s.status}</span><span class="meta">${formatDuration(s.durationMs)} · line ${s.line}</span></div>${s.tools.map(call).join("")}${failure(s, file)}${unverified}${memory(s)}${where}</div>${picture}</li>`;
}

/** The trail's status for filters and colour: `unverified` is a passed trail with unverified steps. */
function shownStatus(trail: TrailReport): string {
  return trail.status === "passed" && trail.unverified > 0 ? "unverified" : trail.status;
}

export function trailHtml(trail: TrailReport, index: number): string {
  const status = shownStatus(trail);
  const tags = trail.tags ?? [];
  const target = trail.session?.target ?? "";
  const why = trail.error ?? trail.skipReason;
  const summary = [
    `<span class="status ${status}">${status}</span>`,
    `<span class="tname">${text(trail.title ?? trail.id)}</span>`,
    trail.title !== undefined ? `<span class="meta">${text(trail.id)}</span>` : "",
    `<span class="meta mono">${text(trail.file)}</span>`,
    target ? `<span class="meta">target ${text(target)}${trail.session ? ` · ${text(trail.session.platform)}` : ""}</span>` : "",
    ...tags.map((tag) => `<span class="tag">${text(tag)}</span>`),
    `<span class="meta">${formatDuration(trail.durationMs)}</span>`,
    trail.unverified > 0 ? `<span class="status unverified">${trail.unverified} unverified</span>` : "",
    why !== undefined && trail.status !== "passed" ? `<span class="why">${text(why.split("\n")[0]!)}</span>` : "",
  ].filter(Boolean);
  const session = trail.session;
  const kv = session
    ? `<div class="kv"><span>session <b>${text(session.id)}</b></span><span>driver <b>${text(session.driver)}</b></span><span>agent <b>${text(session.agent)}</b></span><span>started <b>${text(trail.startedAt)}</b></span>${session.logsDir ? `<span>logs <b>${text(session.logsDir)}</b></span>` : ""}</div>`
    : "";
  const problems = trail.problems?.length ? `<div class="failure"><div class="msg">${text(trail.problems.map(formatTrailProblem).join("\n"))}</div></div>` : "";
  const error = !problems && trail.error !== undefined && !trail.steps.some((s) => s.failure) ? `<div class="failure"><div class="msg">${text(trail.error)}</div></div>` : "";
  const skip = trail.skipReason !== undefined ? `<div class="note">skipped: ${text(trail.skipReason)}</div>` : "";
  const memory = trail.memory && Object.keys(trail.memory).length > 0 ? `<div class="mem">memory at the end: <code>${text(json(trail.memory))}</code></div>` : "";
  const steps = trail.steps.length > 0 ? `<ol class="steps">${trail.steps.map((s) => step(s, trail.file)).join("")}</ol>` : "";
  return `<details class="trail ${status}" id="trail-${index + 1}" data-status="${status}" data-target="${attr(target)}" data-tags="${attr(JSON.stringify(tags))}"><summary>${summary.join("")}</summary><div class="tbody">${kv}${problems}${error}${skip}${steps}${memory}</div></details>`;
}
