// `eval --reporter html`: the eval as one self-contained page (inline CSS and script allowed by
// their hashes, nothing fetched): the models side by side (a card each: pass rate, a run's calls,
// tokens, cost and time), a chart of pass rate against cost per run, a table of each trail by
// model, the steps that failed most with their last error, and each failed run as the run report
// shows a trail (its steps, the agent's turns, the screens), closed until opened. Built with the
// `html` tag: every value from the eval (a model's label, a file, a step's words, an error) is escaped.

import { cspHash, html, inlineCode, type Html } from "../../core/html-template.ts";
import { REPORT_CSS, REPORT_SCRIPT } from "../reporters/html-assets.ts";
import { screenTemplates } from "../reporters/html.ts";
import { trailHtml } from "../reporters/html-trail.ts";
import { formatDuration } from "../reporters/list.ts";
import { MODEL_COLOURS, passRateChart } from "./eval-chart.ts";
import { percent, usd } from "./eval-list.ts";
import type { EvalModel, EvalResult } from "./eval-types.ts";

const EVAL_CSS = `.overview{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,680px);gap:12px;align-items:start;margin:12px 0}
@media (max-width:1100px){.overview{grid-template-columns:minmax(0,1fr)}}
.overview section.block{margin:0}
.models{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:10px}
.card{background:#fff;border:1px solid var(--line);border-top:5px solid var(--skip);border-radius:6px;padding:10px 14px}
.card h2{font-size:14px;margin:0 0 4px;overflow-wrap:anywhere}
.card .rate{font-size:30px;font-weight:700;line-height:1.1}
.card .rate.all{color:var(--pass)}.card .rate.some{color:var(--unv)}.card .rate.none{color:var(--fail)}
.card dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:6px 0 0;font-size:12.5px}
.card dt{color:var(--dim)}.card dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.gate{display:inline-block;margin-top:4px;font-size:12px;font-weight:600;border-radius:3px;padding:0 6px}
.gate.below{background:#fff5f5;color:var(--fail)}.gate.met{background:#ebfbee;color:var(--pass)}
section.block{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 14px;margin:12px 0}
section.block h2{font-size:15px;margin:4px 0 8px}
figure.chart{margin:0}
figure.chart svg{max-width:100%;height:auto;font:12px system-ui,sans-serif}
figure.chart .grid{stroke:#f1f3f5}figure.chart .axis{stroke:#adb5bd}
figure.chart .tick{fill:var(--dim)}figure.chart .label{fill:var(--ink);font-weight:600}
figure.chart .point text{font-weight:600}
table.by-model{border-collapse:collapse;width:100%;font-size:12.5px;font-variant-numeric:tabular-nums}
table.by-model th,table.by-model td{border-top:1px solid var(--line);padding:4px 8px;text-align:right;white-space:nowrap}
table.by-model th{color:var(--dim);font-weight:600}
table.by-model .file{text-align:left;white-space:normal;overflow-wrap:anywhere}
table.by-model th.model{text-align:center;border-bottom:3px solid var(--skip)}
table.by-model tr.total td{font-weight:700}
.r-all{color:var(--pass)}.r-some{color:var(--unv)}.r-none{color:var(--fail)}
ul.fails{margin:4px 0 10px;padding-left:20px}ul.fails li{margin:3px 0;overflow-wrap:anywhere}
ul.fails .err{color:var(--fail)}
h3.runs{font-size:14px;margin:12px 0 4px}
.card{border-top-color:var(--model)}table.by-model th.model{border-bottom-color:var(--model)}
${MODEL_COLOURS.map((colour, i) => `.m${i}{--model:${colour}}`).join("")}`;

/** A model's colour, as a class (the CSP allows no style attribute): the same as its point in the chart. */
const colourClass = (index: number) => `m${index % MODEL_COLOURS.length}`;

const STYLE = `${REPORT_CSS}\n${EVAL_CSS}`;

/** The page's CSP: its one <style> and the report's <script> (the failed runs' screens) by their hashes; nothing fetched. */
export const EVAL_CSP = `default-src 'none'; style-src ${cspHash(STYLE)}; script-src ${cspHash(REPORT_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;

const rateClass = (rate: number, runs: number) => (runs === 0 ? "" : rate >= 1 ? "all" : rate > 0 ? "some" : "none");
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function card(model: EvalModel, index: number, gate: number | undefined): Html {
  const gated =
    gate !== undefined &&
    (model.belowMinPassRate
      ? html`<span class="gate below">below --min-pass-rate ${percent(gate)}</span>`
      : html`<span class="gate met">meets --min-pass-rate ${percent(gate)}</span>`);
  return html`<article class="${`card ${colourClass(index)}`}"><h2>${model.model}</h2><div class="rate ${rateClass(model.passRate, model.runs)}">${percent(model.passRate)}</div><div class="meta">${model.passed} of ${plural(model.runs, "run")} passed${model.skipped ? `, ${model.skipped} skipped` : ""}</div>${gated}<dl><dt>model calls a run</dt><dd>${model.calls.toFixed(1)}</dd><dt>tokens a run</dt><dd>${Math.round(model.tokens).toLocaleString("en-US")}</dd><dt>cost a run</dt><dd>${model.costUsd !== undefined ? usd(model.costUsd) : "no prices"}</dd><dt>time a run (median)</dt><dd>${model.runs > 0 ? formatDuration(model.durationMs) : "-"}</dd></dl></article>`;
}

/** Each trail a row, each model a group of columns: passed, pass rate, calls, tokens, cost, time. */
function byModelTable(models: readonly EvalModel[]): Html {
  const heads = models.map((m, i) => html`<th class="${`model ${colourClass(i)}`}" colspan="6">${m.model}</th>`);
  const sub = models.map(() => html`<th>passed</th><th>rate</th><th>calls</th><th>tokens</th><th>cost</th><th>time</th>`);
  const cells = (t: Omit<EvalModel, "model" | "trails">) =>
    html`<td>${`${t.passed}/${t.runs}`}</td><td class="${`r-${rateClass(t.passRate, t.runs)}`}">${percent(t.passRate)}</td><td>${t.calls.toFixed(1)}</td><td>${Math.round(t.tokens).toLocaleString("en-US")}</td><td>${t.costUsd !== undefined ? usd(t.costUsd) : "-"}</td><td>${t.runs > 0 ? formatDuration(t.durationMs) : "-"}</td>`;
  const trails = models[0]?.trails ?? [];
  const rows = trails.map(
    (trail, i) =>
      html`<tr><td class="file"><b>${trail.title ?? trail.id}</b><br><span class="meta mono">${trail.file}</span></td>${models.map((m) => cells(m.trails[i]!))}</tr>`,
  );
  const total = trails.length > 1 && html`<tr class="total"><td class="file">all trails</td>${models.map((m) => cells(m))}</tr>`;
  return html`<table class="by-model"><thead><tr><th class="file">trail</th>${heads}</tr><tr><th></th>${sub}</tr></thead><tbody>${rows}${total}</tbody></table>`;
}

function failedMost(models: readonly EvalModel[]): Html | false {
  const blocks = models.flatMap((m) =>
    m.trails
      .filter((t) => t.failures.length > 0)
      .map(
        (t) =>
          html`<h3 class="runs">${m.model} · <span class="mono">${t.file}</span></h3><ul class="fails">${t.failures.map(
            (f) =>
              html`<li><b>${f.index > 0 ? `step ${f.index}: ${f.step}` : f.step}</b> <span class="meta">failed in ${f.count} of ${plural(t.runs, "run")}</span><br><span class="err">${f.lastError}</span></li>`,
          )}</ul>`,
      ),
  );
  return blocks.length > 0 && html`<section class="block" id="failed-most"><h2>Steps that failed most</h2>${blocks}</section>`;
}

function failedRuns(result: EvalResult): Html | false {
  if (result.failedRuns.length === 0) return false;
  let index = 0;
  const groups = result.report.models.map((m) => {
    const runs = result.failedRuns.filter((run) => run.model === m.model);
    if (runs.length === 0) return "";
    return html`<h3 class="runs">${m.model}: ${plural(runs.length, "failed run")}</h3>${runs.map((run) => trailHtml(run.report, index++, { open: false }))}`;
  });
  return html`<section class="block" id="failed-runs"><h2>Failed runs</h2><div class="meta">Each run as the run report shows it: open one for its steps, the agent's turns (what the model was shown, its call, what came back) and the screens.</div>${groups}</section>`;
}

export function formatEvalHtml(result: EvalResult): string {
  const { report } = result;
  const trails = report.models[0]?.trails.length ?? 0;
  const title = report.models.map((m) => `${m.model} ${percent(m.passRate)}`).join(" · ");
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EVAL_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trailblaze eval: ${title}</title>
${inlineCode("style", STYLE)}
</head>
<body>
<main>
<h1>Trailblaze eval</h1>
<div class="sub">${plural(report.models.length, "model")} · ${plural(trails, "trail")} · ${plural(report.repeat, "run")} of each per model · every step through the agent · ${formatDuration(report.durationMs)}</div>
${report.interrupted !== undefined && html`<div class="banner"><h2>Partial eval</h2>${report.interrupted}: runs that had not ended are left out.</div>`}
<div class="overview"><div class="models">${report.models.map((m, i) => card(m, i, report.minPassRate))}</div>
<section class="block" id="chart"><h2>Pass rate against cost per run</h2>${passRateChart(report.models)}</section></div>
<section class="block" id="by-trail"><h2>Each trail, by model</h2>${byModelTable(report.models)}</section>
${failedMost(report.models)}
${failedRuns(result)}
</main>
${screenTemplates({ screens: result.screens })}
${inlineCode("script", REPORT_SCRIPT)}
</body>
</html>
`.toString();
}
