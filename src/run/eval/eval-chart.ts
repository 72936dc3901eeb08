// The eval page's chart: each model a point, its pass rate (up) against what a run of it costs
// (across): USD when every model lists its prices, else tokens a run (said under the chart). An
// inline SVG built with the `html` tag, so a model's label is escaped like any other text.

import { html, type Html } from "../../core/html-template.ts";
import type { EvalModel } from "./eval-types.ts";
import { percent, usd } from "./eval-list.ts";

/** The models' colours, in the order given (the page's cards use the same). */
export const MODEL_COLOURS = ["#1c7ed6", "#e8590c", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599", "#c2255c", "#5c940d"] as const;

export const colourOf = (index: number) => MODEL_COLOURS[index % MODEL_COLOURS.length]!;

const WIDTH = 640;
const HEIGHT = 320;
const PAD = { left: 64, right: 150, top: 20, bottom: 46 };

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten at or above `max`. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

export function passRateChart(models: readonly EvalModel[]): Html {
  const byCost = models.length > 0 && models.every((m) => m.costUsd !== undefined);
  const xOf = (m: EvalModel) => (byCost ? m.costUsd! : m.tokens);
  const xMax = niceMax(Math.max(0, ...models.map(xOf)) * 1.1);
  const label = (value: number) => (byCost ? usd(value) : Math.round(value).toLocaleString("en-US"));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (value: number) => PAD.left + (value / xMax) * plotW;
  const y = (rate: number) => PAD.top + (1 - rate) * plotH;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const yTicks = ticks.map(
    (rate) =>
      html`<line class="grid" x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(rate)}" y2="${y(rate)}"/><text class="tick" x="${PAD.left - 8}" y="${y(rate) + 4}" text-anchor="end">${percent(rate)}</text>`,
  );
  const xTicks = ticks.map(
    (share) =>
      html`<line class="grid" x1="${x(share * xMax)}" x2="${x(share * xMax)}" y1="${PAD.top}" y2="${PAD.top + plotH}"/><text class="tick" x="${x(share * xMax)}" y="${PAD.top + plotH + 16}" text-anchor="middle">${label(share * xMax)}</text>`,
  );
  // Models at the same point are told apart by their labels, stacked.
  const seen = new Map<string, number>();
  const points = models.map((m, i) => {
    const key = `${xOf(m)} ${m.passRate}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const cx = x(xOf(m));
    const cy = y(m.passRate);
    return html`<g class="point"><circle cx="${cx}" cy="${cy}" r="7" fill="${colourOf(i)}"><title>${`${m.model}: ${percent(m.passRate)} passed, ${label(xOf(m))} a run`}</title></circle><text x="${cx + 11}" y="${cy + 4 + nth * 15}" fill="${colourOf(i)}">${m.model}</text></g>`;
  });
  const axis = byCost ? "cost per run (USD, mean)" : "tokens per run (mean)";
  const unpriced = models.filter((m) => m.costUsd === undefined).map((m) => m.model);
  const note =
    !byCost &&
    html`<div class="meta">${unpriced.length === models.length ? "No model lists its prices" : `No prices for ${unpriced.join(", ")}`} (llm: models: cost: in trailblaze.yaml): plotted against tokens a run.</div>`;
  return html`<figure class="chart"><svg role="img" aria-label="${`pass rate against ${axis}`}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">${yTicks}${xTicks}<line class="axis" x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}"/><line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${PAD.top + plotH}"/><text class="label" x="${PAD.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle">${axis}</text><text class="label" transform="rotate(-90)" x="${-(PAD.top + plotH / 2)}" y="16" text-anchor="middle">pass rate</text>${points}</svg>${note}</figure>`;
}
