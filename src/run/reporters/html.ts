// `--reporter html`: the run as one self-contained page (inline CSS and script, a CSP that lets
// nothing load from the network): a summary, problems that stopped the run, filters by status,
// tag and target, the trails with failures first, and the run's screens once each as <template>s
// that a step's wireframe is cloned from when its trail is opened.

import { xmlAttr as attr, xmlText as text } from "../../core/markup-text.ts";
import { wireframeSvg } from "../../screen/wireframe-svg.ts";
import type { RunReport, TrailReport } from "../run-types.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "./html-assets.ts";
import { trailHtml } from "./html-trail.ts";
import { formatDuration } from "./list.ts";

/** The page's Content-Security-Policy: inline style and script, images only from data: URLs, nothing fetched. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const RANK: Record<string, number> = { error: 0, failed: 0, passed: 1, skipped: 2 };

/** Failures first (error and failed), then passed, then skipped; the run's order within each. */
export function failuresFirst(trails: readonly TrailReport[]): { trail: TrailReport; index: number }[] {
  return trails.map((trail, index) => ({ trail, index })).sort((a, b) => (RANK[a.trail.status] ?? 1) - (RANK[b.trail.status] ?? 1) || a.index - b.index);
}

function summaryChips(run: RunReport): string {
  const s = run.summary;
  const chips = [
    `<span class="chip">${run.trails.length} trail${run.trails.length === 1 ? "" : "s"}</span>`,
    s.failed > 0 ? `<span class="chip failed">${s.failed} failed</span>` : "",
    s.errors > 0 ? `<span class="chip error">${s.errors} error${s.errors === 1 ? "" : "s"}</span>` : "",
    `<span class="chip passed">${s.passed} passed</span>`,
    s.skipped > 0 ? `<span class="chip skipped">${s.skipped} skipped</span>` : "",
    s.unverified > 0 ? `<span class="chip unverified">${s.unverified} unverified step${s.unverified === 1 ? "" : "s"}</span>` : "",
    `<span class="chip">${formatDuration(s.durationMs)}</span>`,
  ];
  return `<div class="summary">${chips.filter(Boolean).join("")}</div>`;
}

function banners(run: RunReport): string {
  const parts: string[] = [];
  if (run.problems && run.problems.length > 0) {
    const lines = run.problems.map((p) => `${p.file !== undefined ? `${p.file}${p.line ? `:${p.line}:${p.col ?? 0}` : ""}: ` : ""}${p.message}`);
    parts.push(`<div class="banner" id="problems"><h2>The run stopped before any trail started (${run.problems.length} problem${run.problems.length === 1 ? "" : "s"})</h2><pre>${text(lines.join("\n"))}</pre></div>`);
  }
  if (run.interrupted !== undefined) parts.push(`<div class="banner"><h2>Partial report</h2>${text(run.interrupted)}: trails that had not started are left out.</div>`);
  return parts.join("");
}

function filters(run: RunReport): string {
  const statuses = ["failed", "error", "passed", "unverified", "skipped"].filter((status) =>
    run.trails.some((t) => (status === "unverified" ? t.status === "passed" && t.unverified > 0 : t.status === status && !(status === "passed" && t.unverified > 0))),
  );
  const tags = [...new Set(run.trails.flatMap((t) => t.tags ?? []))].sort();
  const targets = [...new Set(run.trails.map((t) => t.session?.target).filter((t): t is string => t !== undefined))].sort();
  const select = (id: string, label: string, values: string[]) =>
    values.length === 0 ? "" : `<label>${label} <select id="${id}"><option value="">all</option>${values.map((v) => `<option value="${attr(v)}">${text(v)}</option>`).join("")}</select></label>`;
  return `<div class="filters"><button type="button" data-status="" aria-pressed="true">all</button>${statuses.map((s) => `<button type="button" data-status="${s}" aria-pressed="false">${s}</button>`).join("")}${select("f-tag", "tag", tags)}${select("f-target", "target", targets)}<input id="f-text" type="search" placeholder="search trails" aria-label="search trails"><span class="count" id="count">${run.trails.length} of ${run.trails.length} trails</span></div>`;
}

function screenTemplates(run: RunReport): string {
  return Object.entries(run.screens ?? {})
    .map(([id, screen]) => `<template id="screen-${attr(id)}">${wireframeSvg(screen, { standalone: false, displayWidth: 190 })}</template>`)
    .join("\n");
}

export function formatHtmlReport(run: RunReport): string {
  const bad = run.summary.failed + run.summary.errors;
  const title = run.problems?.length ? "not run" : bad > 0 ? `${bad} of ${run.trails.length} failed` : `${run.summary.passed} passed`;
  const started = run.trails[0]?.startedAt;
  const shard = run.shard ? ` · shard ${run.shard.index}/${run.shard.total}` : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trailblaze report: ${text(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>Trailblaze report</h1>
<div class="sub">${started ? `started ${text(started)}` : "no trail ran"}${shard}</div>
${summaryChips(run)}
${banners(run)}
${run.trails.length > 0 ? filters(run) : ""}
<div id="trails">
${failuresFirst(run.trails).map(({ trail, index }) => trailHtml(trail, index)).join("\n")}
</div>
</main>
${screenTemplates(run)}
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
