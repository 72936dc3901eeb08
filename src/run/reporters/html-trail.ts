// One trail of the HTML report: a <details> whose summary says status, name, file, target, tags,
// time and why it failed, and whose body lists the steps — tool calls (arguments masked as in
// every report), results, failures with the server's stderr tail, memory changes, unverified
// marks, and the screens each step ran on (drawn from the run's screen table: the capture's
// screenshot under its boxes, or the wireframe alone): before and after a move, and for a failed
// check the device's screen beside the expected one, required and forbidden nodes marked on both.
// A failed trail is open from the start. Built with the `html` tag: every value from the run is
// escaped where it lands.

import { html, joinHtml, type Html } from "../../core/html-template.ts";
import { IMAGE_DATA_URL } from "../../screen/screenshot.ts";
import type { CaptureStepScreen, ExpectedCondition, StepReport, StepScreen, ToolCallReport, TrailReport } from "../run-types.ts";
import { formatTrailProblem } from "../validate.ts";
import { formatDuration } from "./list.ts";

const MARKS: Record<StepReport["status"], string> = {
  passed: "✓",
  healed: "✚",
  failed: "✗",
  unverified: "⚠",
  skipped: "–",
  interrupted: "■",
};

const json = (value: unknown) => JSON.stringify(value) ?? "undefined";

/**
 * A tool call: name, time, arguments, result (a failing call's message is in the failure box below
 * it); one that succeeded without checking anything for real is marked so, with why.
 */
function call(tool: ToolCallReport): Html {
  const variant = String(tool.result.variant ?? "");
  const ok = tool.result.status === "success";
  const unchecked = ok && tool.result.unverified === undefined && tool.result.unchecked !== undefined && String(tool.result.unchecked);
  const mood = !ok ? "bad" : tool.result.unverified !== undefined || unchecked ? "unv" : "ok";
  const args = Object.keys(tool.args).length > 0 && html`<code class="args">${json(tool.args)}</code>`;
  const message = tool.result.message !== undefined && ok && ` ${String(tool.result.message)}`;
  const note = unchecked && html` <span class="unv">⚠ nothing checked: ${unchecked}</span>`;
  return html`<div class="call"><code class="tool"><b>${tool.name}</b></code> <span class="meta">${formatDuration(tool.durationMs)}</span> ${args} <span class="variant ${mood}">${variant}</span>${message}${note}</div>`;
}

function failure(step: StepReport, file: string): Html | "" {
  const f = step.failure;
  if (!f) return "";
  const where = f.line !== undefined && html`<div class="meta">${`${file}:${f.line}:${f.col ?? 0}`}${f.tool && ` · ${f.tool}`}</div>`;
  const args = f.args && step.tools.length === 0 && html`<pre>${json(f.args)}</pre>`;
  const stderr =
    f.stderr &&
    html`<div class="meta">stderr of ${f.stderr.source} (last ${f.stderr.lines.length} lines):</div><pre>${f.stderr.lines.join("\n")}</pre>`;
  return html`<div class="failure"><div class="msg">${`${f.variant ? `${f.variant}: ` : ""}${f.message}`}</div>${where}${args}${stderr}</div>`;
}

function memory(step: StepReport): Html | "" {
  if (!step.memory) return "";
  const set = Object.entries(step.memory.set ?? {}).map(([key, value]) => html`<code>${key}</code> = <code>${json(value)}</code>`);
  const deleted = (step.memory.deleted ?? []).map((key) => html`<code>${key}</code> deleted`);
  return html`<div class="mem">memory: ${joinHtml([...set, ...deleted], ", ")}</div>`;
}

/** One picture of the run's screen table, drawn by the page's script when its trail opens, with its marks and a caption. */
function picture(
  screen: string | undefined,
  caption: string,
  marks: { match?: number[]; required?: number[]; forbidden?: number[] } = {},
): Html {
  const ids = (list: number[] | undefined) => (list ?? []).join(",");
  const wf =
    screen === undefined
      ? html`<div class="wf none">no capture</div>`
      : html`<div class="wf" title="click to enlarge" data-screen="${screen}" data-match="${ids(marks.match)}" data-required="${ids(marks.required)}" data-forbidden="${ids(marks.forbidden)}"></div>`;
  return html`<figure class="pic">${wf}<figcaption>${caption}</figcaption></figure>`;
}

/** The pictures of a step on a captured screen: before and after a move; for a failed check, the screen the device was on beside the one expected. */
function capturePictures(value: CaptureStepScreen, failed: boolean): Html {
  const expected = failed && value.expected;
  const before = picture(value.screen, value.after !== undefined || expected ? "before" : "screen", { match: value.matched });
  const after = value.after !== undefined && picture(value.after, "after", { match: value.afterMatched });
  if (!expected) return html`<div class="pics">${before}${after && html`<span class="arrow">→</span>${after}`}</div>`;
  const of = (role: ExpectedCondition["role"], side: "actual" | "expected") =>
    expected.conditions.filter((c) => c.role === role && (side === "expected" || role !== "required" || c.ok)).flatMap((c) => c[side]);
  const actual = picture(expected.actual, "actual: the device's screen", {
    required: of("required", "actual"),
    forbidden: of("forbidden", "actual"),
  });
  const wanted = picture(expected.screen, `${expected.kind === "waypoint" ? "expected" : "where it matches"}: ${expected.waypoint}`, {
    required: of("required", "expected"),
    forbidden: of("forbidden", "expected"),
    match: of("selector", "expected"),
  });
  return html`<div class="pics expected">${value.after !== undefined && html`${before}<span class="arrow">→</span>`}${actual}${wanted}</div>`;
}

const ROLE_MARK = (c: ExpectedCondition) => (c.ok ? "✓" : "✗");

/** What the failed check looked for: each condition, whether the device's screen met it, and where the expected screen has it. */
function conditions(value: CaptureStepScreen, failed: boolean): Html | "" {
  const expected = failed && value.expected;
  if (!expected) return "";
  const head =
    expected.kind === "waypoint"
      ? html`expected waypoint <span class="wp">${expected.waypoint}</span>:`
      : html`the selector matches nothing here; it matches on waypoint <span class="wp">${expected.waypoint}</span>:`;
  const items = expected.conditions.map((c) => {
    const here =
      c.role === "forbidden"
        ? c.actual.length > 0
          ? `present here (${c.actual.map((id) => `#${id}`).join(", ")})`
          : "absent here"
        : c.actual.length > 0
          ? `found here (${c.actual.map((id) => `#${id}`).join(", ")})`
          : "not found here";
    return html`<li class="${c.ok ? "ok" : "bad"} ${c.role}"><span class="mark">${ROLE_MARK(c)}</span> ${c.role} <b>${c.description}</b> <span class="meta">${here}${c.expected.length > 0 && ` · on the expected screen ${c.expected.map((id) => `#${id}`).join(", ")}`}</span></li>`;
  });
  return html`<div class="conds">${head}<ul>${items}</ul></div>`;
}

/** Where the device was and where the step took it; what a failed check expected; and the pictures of the screens. */
function screen(value: StepScreen | undefined, failed: boolean): { where: Html | ""; picture: Html | "" } {
  if (!value) return { where: "", picture: "" };
  if (value.kind === "web") {
    const img =
      value.screenshot !== undefined &&
      IMAGE_DATA_URL.test(value.screenshot) &&
      html`<img alt="${`screenshot of ${value.url}`}" src="${value.screenshot}">`;
    return {
      where: html`<div class="where">page <span class="wp">${value.title || "(untitled)"}</span> <code>${value.url}</code></div>`,
      picture: html`<div class="web">${img}<pre>${value.outline}</pre></div>`,
    };
  }
  const at = value.waypoint !== undefined ? html`at <span class="wp">${value.waypoint}</span>` : "on a static capture";
  const moves = (value.moves ?? []).map((m) => html` → shortcut <code>${m.shortcut}</code> → <span class="wp">${m.to}</span>`);
  const matched = value.matched.length > 0 && ` · marked ${value.matched.map((id) => `#${id}`).join(", ")}`;
  return {
    where: html`<div class="where">${at}${moves}<span class="meta">${matched}</span></div>${conditions(value, failed)}`,
    picture: capturePictures(value, failed),
  };
}

/** What the agent did for a step: why, the model, and each turn (the outline it was shown, its call, what came back, tokens). */
function agent(s: StepReport): Html | "" {
  const a = s.agent;
  if (!a) return "";
  const why =
    a.why === "self-heal"
      ? "self-heal: the recording failed"
      : a.why === "words"
        ? "--no-use-recorded-steps"
        : "no recording for this device";
  const cost = a.costUsd !== undefined && ` · $${a.costUsd.toFixed(4)}`;
  const recordingFailure = a.recordingFailure && html`<div class="note">the recording failed: ${a.recordingFailure.message}</div>`;
  const turns = a.turns.map((t) => {
    const called = t.called
      ? html`<code>${t.called.tool}</code> <code class="args">${json(t.called.args)}</code>`
      : html`<i>no tool</i>${t.text ? html` <code>${t.text}</code>` : ""}`;
    const mood = t.ok === false ? "bad" : t.unverified !== undefined ? "unv" : "ok";
    const outcome = t.outcome !== undefined && html` <span class="${mood}">→ ${t.outcome}</span>`;
    const unverified = t.unverified !== undefined && html` <span class="unv">⚠ ${t.unverified}</span>`;
    const tokens = html`<span class="meta">${t.tokens.input} in · ${t.tokens.output} out${t.costUsd !== undefined ? ` · $${t.costUsd.toFixed(4)}` : ""}${t.image ? " · screenshot" : ""} · ${formatDuration(t.durationMs)}</span>`;
    return html`<li><b>${t.turn}</b> ${called}${outcome}${unverified} ${tokens}<details class="shown"><summary>what the model was shown</summary><pre>${t.shown}</pre></details></li>`;
  });
  return html`<div class="agent"><div class="agent-head">agent <b>${a.model}</b> (${why}) · ${a.turns.length} model call${a.turns.length === 1 ? "" : "s"} · ${a.tokens.input + a.tokens.output} tokens${cost}</div>${recordingFailure}<ol class="turns">${turns}</ol></div>`;
}

function step(s: StepReport, file: string): Html {
  // What a check expected is shown for a step that failed, or whose recording failed before the agent healed it.
  const { where, picture } = screen(s.screen, s.status === "failed" || s.status === "healed");
  const unverified = s.unverified !== undefined && html`<div class="note">⚠ unverified: ${s.unverified}</div>`;
  return html`<li class="step ${s.status}"><div class="step-main"><div class="step-head"><span class="mark" title="${s.status}">${MARKS[s.status]}</span><b>${s.index}</b><span class="kind">${s.kind}</span><span>${s.title}</span><span class="status ${s.status}">${s.status}</span><span class="meta">${formatDuration(s.durationMs)} · line ${s.line}</span></div>${s.tools.map(call)}${failure(s, file)}${unverified}${agent(s)}${memory(s)}${where}</div>${picture}</li>`;
}

/** One trail as a <details>; a failed one is open unless `open` says otherwise (a page of many failed runs). */
export function trailHtml(trail: TrailReport, index: number, options: { open?: boolean } = {}): Html {
  // A passed trail checked something for real; its unverified steps have their own count beside it.
  const status = trail.status;
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
    (trail.healed ?? 0) > 0 && html`<span class="status healed">${trail.healed} healed</span>`,
    why !== undefined && trail.status !== "passed" && html`<span class="why">${why.split("\n")[0]!}</span>`,
  ];
  const session = trail.session;
  const kv =
    session &&
    html`<div class="kv"><span>session <b>${session.id}</b></span><span>driver <b>${session.driver}</b></span><span>agent <b>${session.agent}</b></span><span>started <b>${trail.startedAt}</b></span>${session.logsDir && html`<span>logs <b>${session.logsDir}</b></span>`}</div>`;
  const problems = trail.problems?.length
    ? html`<div class="failure"><div class="msg">${trail.problems.map(formatTrailProblem).join("\n")}</div></div>`
    : "";
  const error =
    !problems &&
    trail.error !== undefined &&
    !trail.steps.some((s) => s.failure) &&
    html`<div class="failure"><div class="msg">${trail.error}</div></div>`;
  const skip = trail.skipReason !== undefined && html`<div class="note">skipped: ${trail.skipReason}</div>`;
  const memory =
    trail.memory &&
    Object.keys(trail.memory).length > 0 &&
    html`<div class="mem">memory at the end: <code>${json(trail.memory)}</code></div>`;
  const steps = trail.steps.length > 0 && html`<ol class="steps">${trail.steps.map((s) => step(s, trail.file))}</ol>`;
  // A failed trail opens by default: its failing step's screens are the first thing to look at.
  const open = (options.open ?? (trail.status === "failed" || trail.status === "error")) && html` open=""`;
  return html`<details class="trail ${status}"${open} id="${`trail-${index + 1}`}" data-status="${status}" data-target="${target}" data-tags="${JSON.stringify(tags)}"><summary>${summary}</summary><div class="tbody">${kv}${problems}${error}${skip}${steps}${memory}</div></details>`;
}
