// `--reporter html`: the run as one self-contained page (inline CSS and script, a CSP that lets
// nothing load from the network and runs only the page's own script and style, by their hashes):
// a summary, problems that stopped the run, filters by status, tag and target, the trails with
// failures first (open), and the run's screens once each as <template>s (the capture's screenshot,
// embedded once as a data: URL, under the wireframe's boxes; or the wireframe alone) that a step's
// pictures are cloned from when its trail is opened. Built with the `html` tag: every value is escaped.

import { cspHash, html, inlineCode, joinHtml, type Html } from "../../core/html-template.ts";
import { wireframeSvgHtml } from "../../screen/wireframe-svg.ts";
import type { RunReport, TrailReport } from "../run-types.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./html-assets.ts";
import { trailHtml } from "./html-trail.ts";
import { formatDuration } from "./list.ts";

/**
 * The page's Content-Security-Policy: its one <style> and one <script>, allowed by their SHA-256
 * (no 'unsafe-inline': markup that got into the page could not run script or add styles), images
 * only from data: URLs, nothing fetched, no <base> and no form submission.
 */
export const REPORT_CSP = `default-src 'none'; style-src ${cspHash(REPORT_CSS)}; script-src ${cspHash(REPORT_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;

const RANK: Record<string, number> = { error: 0, failed: 0, passed: 1, skipped: 2 };

/** Failures first (error and failed), then passed, then skipped; the run's order within each. */
export function failuresFirst(trails: readonly TrailReport[]): { trail: TrailReport; index: number }[] {
  return trails
    .map((trail, index) => ({ trail, index }))
    .sort((a, b) => (RANK[a.trail.status] ?? 1) - (RANK[b.trail.status] ?? 1) || a.index - b.index);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function summaryChips(run: RunReport): Html {
  const s = run.summary;
  const chips = [
    html`<span class="chip">${plural(run.trails.length, "trail")}</span>`,
    s.failed > 0 && html`<span class="chip failed">${s.failed} failed</span>`,
    s.errors > 0 && html`<span class="chip error">${plural(s.errors, "error")}</span>`,
    html`<span class="chip passed">${s.passed} passed</span>`,
    (s.unverifiedTrails ?? 0) > 0 && html`<span class="chip unverified">${s.unverifiedTrails} ran with nothing verified</span>`,
    s.skipped > 0 && html`<span class="chip skipped">${s.skipped} skipped</span>`,
    s.unverified > 0 && html`<span class="chip unverified">${plural(s.unverified, "unverified step")}</span>`,
    (s.healed ?? 0) > 0 && html`<span class="chip healed">${plural(s.healed ?? 0, "step")} healed</span>`,
    html`<span class="chip">${formatDuration(s.durationMs)}</span>`,
  ];
  return html`<div class="summary">${chips}</div>`;
}

function banners(run: RunReport): Html {
  const problems = run.problems && run.problems.length > 0 && run.problems;
  const lines = problems
    ? problems.map((p) => `${p.file !== undefined ? `${p.file}${p.line ? `:${p.line}:${p.col ?? 0}` : ""}: ` : ""}${p.message}`)
    : undefined;
  return html`${
    problems &&
    html`<div class="banner" id="problems"><h2>The run stopped before any trail started (${plural(problems.length, "problem")})</h2><pre>${lines?.join("\n")}</pre></div>`
  }${run.interrupted !== undefined && html`<div class="banner"><h2>Partial report</h2>${run.interrupted}: trails that had not started are left out.</div>`}`;
}

function filters(run: RunReport): Html {
  const statuses = ["failed", "error", "passed", "unverified", "skipped"].filter((status) => run.trails.some((t) => t.status === status));
  const tags = [...new Set(run.trails.flatMap((t) => t.tags ?? []))].sort();
  const targets = [...new Set(run.trails.map((t) => t.session?.target).filter((t): t is string => t !== undefined))].sort();
  const select = (id: string, label: string, values: string[]) =>
    values.length > 0 &&
    html`<label>${label} <select id="${id}"><option value="">all</option>${values.map((v) => html`<option value="${v}">${v}</option>`)}</select></label>`;
  const buttons = statuses.map((s) => html`<button type="button" data-status="${s}" aria-pressed="false">${s}</button>`);
  return html`<div class="filters"><button type="button" data-status="" aria-pressed="true">all</button>${buttons}${select("f-tag", "tag", tags)}${select("f-target", "target", targets)}<input id="f-text" type="search" placeholder="search trails" aria-label="search trails"><span class="count" id="count">${run.trails.length} of ${run.trails.length} trails</span></div>`;
}

/** The screens a page's steps are drawn from, once each, as <template>s its script clones. */
export function screenTemplates(run: Pick<RunReport, "screens">): Html {
  const templates = Object.entries(run.screens ?? {}).map(
    ([id, screen]) =>
      html`<template id="${`screen-${id}`}">${wireframeSvgHtml(screen, { standalone: false, displayWidth: 190 })}${screen.screenshotNote !== undefined && html`<div class="cap">${screen.screenshotNote}</div>`}</template>`,
  );
  return joinHtml(templates, "\n");
}

export function formatHtmlReport(run: RunReport): string {
  const bad = run.summary.failed + run.summary.errors;
  const nothing = run.summary.unverifiedTrails ?? 0;
  const title = run.problems?.length
    ? "not run"
    : bad > 0
      ? `${bad} of ${run.trails.length} failed`
      : `${run.summary.passed} passed${nothing > 0 ? `, ${nothing} with nothing verified` : ""}`;
  const started = run.trails[0]?.startedAt;
  const shard = run.shard && ` · shard ${run.shard.index}/${run.shard.total}`;
  const trails = joinHtml(
    failuresFirst(run.trails).map(({ trail, index }) => trailHtml(trail, index)),
    "\n",
  );
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trailblaze report: ${title}</title>
${inlineCode("style", REPORT_CSS)}
</head>
<body>
<main>
<h1>Trailblaze report</h1>
<div class="sub">${started ? `started ${started}` : "no trail ran"}${shard}</div>
${summaryChips(run)}
${banners(run)}
${run.trails.length > 0 && filters(run)}
<div id="trails">
${trails}
</div>
</main>
${screenTemplates(run)}
${inlineCode("script", REPORT_SCRIPT)}
</body>
</html>
`.toString();
}
