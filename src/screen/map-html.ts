// An app map as one self-contained page (`trailblaze map DIR --html FILE`): the map as a graph —
// every waypoint a node with its screenshot (or its wireframe), every shortcut and trailhead a
// labelled arrow, laid out by dagre when the page is written (map-graph.ts) — with pan, zoom,
// search by id and a click that opens the waypoint's card (map-page-script.ts); below it, every
// card in a list, which is also the page without script. Built with the `html` tag, so every value
// (ids, descriptions, file names, findings, a capture's texts) is escaped; a CSP that allows only
// the page's own style and script, by their hashes, and images only as data: URLs.

import { cspHash, html, inlineCode, joinHtml } from "../core/html-template.ts";
import type { AppMap } from "./app-map.ts";
import type { MapReport } from "./check-app-map.ts";
import {
  anchor,
  CARD_CSS,
  findingLine,
  graphPicture,
  link,
  pictureSize,
  shotImage,
  waypointCard,
  waypointScreen,
  type WaypointScreen,
} from "./map-card.ts";
import { layoutMapGraph } from "./map-graph.ts";
import { GRAPH_CSS, mapGraphSvg } from "./map-graph-svg.ts";
import { MAP_SCRIPT } from "./map-page-script.ts";
import { WIREFRAME_CSS } from "./wireframe-svg.ts";

const CSS = `*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f1f3f5}
main{padding:12px 20px 40px}
h1{font-size:20px;margin:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.top{display:flex;flex-wrap:wrap;align-items:baseline;gap:6px 18px;margin-bottom:8px}
.sub{color:#6c757d}
.controls{display:flex;gap:6px;align-items:center;margin-left:auto}
.controls[hidden]{display:none}
.controls input{font:inherit;padding:4px 8px;border:1px solid #adb5bd;border-radius:4px;width:280px}
.controls button{font:inherit;padding:3px 10px;border:1px solid #adb5bd;border-radius:4px;background:#fff;cursor:pointer}
#found{color:#6c757d;font-size:12.5px;min-width:70px}
.hint{color:#6c757d;font-size:12.5px;margin:0 0 6px}
.stage{display:flex;gap:10px;align-items:stretch}
.graph-box{flex:1;min-width:0;max-height:78vh;overflow:auto;background:#f8f9fa;border:1px solid #dee2e6;border-radius:6px}
.js .graph-box{height:calc(100vh - 120px);min-height:420px;overflow:hidden;cursor:grab;touch-action:none}
.js .graph-box.dragging{cursor:grabbing}
.panel{flex:none;width:460px;max-height:calc(100vh - 120px);overflow:auto;background:#fff;border:1px solid #dee2e6;border-radius:6px;padding:8px}
.panel[hidden]{display:none}
.panel-bar{display:flex;justify-content:space-between;align-items:center;margin-bottom:6px}
.panel-bar button{font:inherit;border:1px solid #adb5bd;border-radius:4px;background:#fff;cursor:pointer;padding:2px 8px}
.panel .waypoint{border:none;padding:0}
.panel .thumb svg{width:100%;height:auto}
.findings{background:#fff;border:1px solid #dee2e6;border-radius:6px;padding:8px 12px;margin:12px 0}
.findings summary{cursor:pointer;font-weight:600}
.finding{margin:2px 0;overflow-wrap:anywhere}.finding.error{color:#c92a2a}.finding.warning{color:#d9480f}
h2.list{font-size:16px;margin:20px 0 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:12px;margin-top:12px;align-items:start}
.waypoint .finding{font-size:12.5px;overflow-wrap:anywhere}
.waypoint{min-width:0;overflow-wrap:anywhere;background:#fff;border:1px solid #dee2e6;border-top:4px solid #1864ab;border-radius:6px;padding:10px;display:flex;flex-direction:column;gap:6px}
.waypoint.has-errors{border-top-color:#c92a2a}
.waypoint:target{outline:3px solid #fab005}
.waypoint h2{font-size:14px;margin:0;word-break:break-all}
.desc{color:#495057;font-size:12.5px}
.thumb svg{display:block;width:140px;height:auto;border:1px solid #dee2e6;border-radius:4px}
.sel summary{cursor:pointer;font-size:12.5px;color:#495057}
.none{color:#6c757d;font-size:12.5px;font-style:italic}
ul{margin:0;padding-left:18px;font-size:12.5px}
ul.selectors code{color:#495057}
a{color:#1864ab}
.label{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:#6c757d}
${WIREFRAME_CSS}
${GRAPH_CSS}
${CARD_CSS}`;

/**
 * The page's Content-Security-Policy: its one <style> and its one <script>, each allowed by its
 * SHA-256 (no 'unsafe-inline': markup that got into the page could not add a script, a handler or
 * a style), images only from data: URLs (the embedded screenshots), nothing fetched, no <base> and
 * no form submission.
 */
const MAP_CSP = `default-src 'none'; img-src data:; style-src ${cspHash(CSS)}; script-src ${cspHash(MAP_SCRIPT)}; base-uri 'none'; form-action 'none'`;

/** The page for `map` (read with `readAppMap`) and its check report. */
export async function mapHtml(map: AppMap, report: MapReport): Promise<string> {
  const waypoints = [...map.waypoints.values()];
  const screens = new Map<string, WaypointScreen>(
    await Promise.all(waypoints.map(async (w, i) => [w.id, await waypointScreen(map, w, `shot-${i}`)] as const)),
  );
  const cards = waypoints.map((w) => waypointCard(map, w, screens.get(w.id)!, report.findings));
  const graph = layoutMapGraph({
    waypoints: waypoints.map((w) => {
      const size = pictureSize(screens.get(w.id)!);
      return size ? { id: w.id, ratio: size.height / size.width } : { id: w.id };
    }),
    shortcuts: map.shortcuts,
    trailheads: map.trailheads,
  });
  const errorCounts = new Map(
    waypoints.map((w) => [w.id, report.findings.filter((f) => f.severity === "error" && f.file === w.file).length]),
  );
  const shots = [...screens.values()].flatMap((s) => (s.shot && s.wireframe ? [shotImage(s.shot, s.wireframe)] : []));
  const svg = mapGraphSvg(graph, {
    picture: (id, box) => graphPicture(screens.get(id)!, box),
    anchor,
    description: (id) => map.waypoints.get(id)?.description,
    errors: errorCounts,
    defs: joinHtml(shots, "\n"),
  });
  const orphans = map.shortcuts.filter((s) => !map.waypoints.has(s.from));
  const orphanList =
    orphans.length > 0 &&
    html`<div class="findings"><div class="label">shortcuts from waypoints not in the map</div><ul>${orphans.map((s) => html`<li><code>${s.id}</code>: ${s.from} → ${link(s.to, map.waypoints.has(s.to))}</li>`)}</ul></div>`;
  const { errors, warnings } = report.summary;
  // A long list of findings starts folded (each is on its card too); a short one open.
  const open = report.findings.length <= 12 && html` open`;
  const findings =
    report.findings.length > 0
      ? html`<details class="findings"${open}><summary>check: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}</summary>${report.findings.map((f) => findingLine(f))}</details>`
      : html`<div class="findings"><div class="finding">✓ check found nothing: every capture satisfies its waypoint and every shortcut's action resolves</div></div>`;
  const counts = [
    `${map.waypoints.size} waypoints`,
    `${map.shortcuts.length} shortcuts`,
    ...(map.trailheads.length > 0 ? [`${map.trailheads.length} trailheads`] : []),
    `${report.captures} captures checked`,
    `${shots.length} screenshots`,
  ].join(" · ");
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${MAP_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>App map: ${map.dir}</title>
${inlineCode("style", CSS)}
</head>
<body>
<main>
<div class="top">
<h1>App map <code>${report.dir}</code></h1>
<div class="sub">${counts}</div>
<form class="controls" id="controls" role="search" hidden>
<input id="search" type="search" list="waypoint-ids" placeholder="search a waypoint id" aria-label="search a waypoint id" autocomplete="off">
<span id="found"></span>
<button type="button" data-zoom="out" title="zoom out">−</button><button type="button" data-zoom="in" title="zoom in">+</button><button type="button" data-zoom="fit" title="the whole map">fit</button>
</form>
</div>
<datalist id="waypoint-ids">${waypoints.map((w) => html`<option value="${w.id}"></option>`)}</datalist>
<p class="hint">Arrows are shortcuts (dashed green: trailheads, from any state), labelled with their ids${graph.waypointPrefix && html` (waypoint ids without <code>${graph.waypointPrefix}</code>)`}; a red badge: how many errors <code>check</code> found there. Drag to pan, wheel to zoom, click a waypoint for its card.</p>
<div class="stage">
<div class="graph-box" id="graph-box">
${svg}
</div>
<aside class="panel" id="panel" hidden></aside>
</div>
${findings}
${orphanList}
<h2 class="list">Waypoints</h2>
<div class="grid">
${joinHtml(cards, "\n")}
</div>
</main>
${inlineCode("script", MAP_SCRIPT)}
</body>
</html>
`.toString();
}
