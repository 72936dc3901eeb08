// An app map as one self-contained page (`trailblaze map DIR --html FILE`): every waypoint as a
// card with its capture as a wireframe thumbnail (the nodes its shortcuts tap marked), its
// shortcuts as links to the cards they lead to and come from, and `check`'s findings on each.
// Built with the `html` tag, so every value (ids, descriptions, file names, findings, a capture's
// texts) is escaped; a CSP that runs no script and allows only the page's own style, by its hash.

import { basename } from "node:path";
import { cspHash, html, inlineCode, joinHtml, type Html } from "../core/html-template.ts";
import { SelectorError, CaptureError } from "../errors.ts";
import type { AppMap } from "./app-map.ts";
import type { MapFinding, MapReport } from "./check-app-map.ts";
import { hitTest } from "./hit-test.ts";
import { resolveSelector } from "./resolve-selector.ts";
import type { Screen } from "./screen-model.ts";
import { actionOf, type Shortcut } from "./shortcut.ts";
import { callTarget } from "./tool-call.ts";
import type { Waypoint } from "./waypoint.ts";
import { wireframeOf } from "./wireframe.ts";
import { WIREFRAME_CSS, wireframeSvgHtml } from "./wireframe-svg.ts";

const CSS = `*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f1f3f5}
main{max-width:1400px;margin:0 auto;padding:16px 20px 40px}
h1{font-size:20px;margin:0 0 4px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.sub{color:#6c757d}
.findings{background:#fff;border:1px solid #dee2e6;border-radius:6px;padding:8px 12px;margin:12px 0}
.findings summary{cursor:pointer;font-weight:600}
.finding{margin:2px 0;overflow-wrap:anywhere}.finding.error{color:#c92a2a}.finding.warning{color:#d9480f}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:12px;margin-top:12px;align-items:start}
.waypoint .finding{font-size:12.5px;overflow-wrap:anywhere}
.waypoint{min-width:0;overflow-wrap:anywhere;background:#fff;border:1px solid #dee2e6;border-top:4px solid #1864ab;border-radius:6px;padding:10px;display:flex;flex-direction:column;gap:6px}
.waypoint.has-errors{border-top-color:#c92a2a}
.waypoint:target{outline:3px solid #fab005}
.waypoint h2{font-size:14px;margin:0;word-break:break-all}
.desc{color:#495057;font-size:12.5px}
.thumb svg{display:block;width:140px;height:auto;border:1px solid #dee2e6;border-radius:4px}
.none{color:#6c757d;font-size:12.5px;font-style:italic}
ul{margin:0;padding-left:18px;font-size:12.5px}
a{color:#1864ab}
.label{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:#6c757d}
${WIREFRAME_CSS}`;

/**
 * The page's Content-Security-Policy: its one <style>, allowed by its SHA-256 (no 'unsafe-inline':
 * markup that got into the page could not add styles), no script at all (the page has none: its
 * links and folding findings are HTML and CSS), nothing fetched, no <base> and no form submission.
 */
export const MAP_CSP = `default-src 'none'; style-src ${cspHash(CSS)}; base-uri 'none'; form-action 'none'`;

const anchor = (id: string) => `wp-${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;

/** The nodes the shortcuts from a waypoint act on, on its capture. */
function tappedNodes(screen: Screen, shortcuts: readonly Shortcut[]): number[] {
  const ids: number[] = [];
  for (const shortcut of shortcuts) {
    const action = actionOf(shortcut);
    if (!action) continue;
    try {
      const target = callTarget(action.name, action.args, shortcut.id);
      const node = target.kind === "selector" ? resolveSelector(screen, target.selector).nodes[0] : target.kind === "point" ? hitTest(screen, target.x, target.y) : undefined;
      if (node) ids.push(node.id);
    } catch (error) {
      if (!(error instanceof SelectorError)) throw error; // check's findings name it
    }
  }
  return ids;
}

function link(id: string, known: boolean): Html {
  return known ? html`<a href="#${anchor(id)}">${id}</a>` : html`<span class="finding error">${id} (not in the map)</span>`;
}

/** A finding as a line: with its file in the list at the top, its file's base name on a card. */
function findingLine(f: MapFinding, short = false): Html {
  const file = f.file && short ? basename(f.file) : f.file;
  const where = file ? `${file}${f.line ? `:${f.line}:${f.col ?? 0}` : ""}: ` : "";
  return html`<div class="finding ${f.severity}">${f.severity === "error" ? "✗" : "⚠"} ${where + f.message}</div>`;
}

async function card(map: AppMap, waypoint: Waypoint, findings: MapFinding[]): Promise<Html> {
  const out = map.outgoing.get(waypoint.id) ?? [];
  const incoming = map.shortcuts.filter((s) => s.to === waypoint.id);
  let screen: Screen | undefined;
  try {
    screen = await map.capture(waypoint.id);
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error;
  }
  const thumb = screen ? html`<div class="thumb">${wireframeSvgHtml(wireframeOf(screen), { standalone: false, matched: tappedNodes(screen, out), displayWidth: 140 })}</div>` : html`<div class="none">no capture</div>`;
  const mine = findings.filter((f) => f.file === waypoint.file || out.some((s) => s.file === f.file));
  const list = (items: Html[], empty: string) => (items.length > 0 ? html`<ul>${items}</ul>` : html`<div class="none">${empty}</div>`);
  return html`<section class="waypoint${mine.some((f) => f.severity === "error") ? " has-errors" : ""}" id="${anchor(waypoint.id)}" data-waypoint="${waypoint.id}">
<h2>${waypoint.id}</h2>${waypoint.description && html`<div class="desc">${waypoint.description}</div>`}
${thumb}
<div class="label">shortcuts from here</div>${list(out.map((s) => html`<li class="shortcut" data-shortcut="${s.id}">→ ${link(s.to, map.waypoints.has(s.to))} <code>${s.id}</code></li>`), "none")}
<div class="label">reached from</div>${list(incoming.map((s) => html`<li>${link(s.from, map.waypoints.has(s.from))} <code>${s.id}</code></li>`), "no shortcut leads here")}
${mine.map((f) => findingLine(f, true))}
</section>`;
}

/** The page for `map` (read with `readAppMap`) and its check report. */
export async function mapHtml(map: AppMap, report: MapReport): Promise<string> {
  const cards = await Promise.all([...map.waypoints.values()].map((w) => card(map, w, report.findings)));
  const orphans = map.shortcuts.filter((s) => !map.waypoints.has(s.from));
  const orphanList = orphans.length > 0 && html`<div class="findings"><div class="label">shortcuts from waypoints not in the map</div><ul>${orphans.map((s) => html`<li><code>${s.id}</code>: ${s.from} → ${link(s.to, map.waypoints.has(s.to))}</li>`)}</ul></div>`;
  const { errors, warnings } = report.summary;
  // A long list of findings starts folded (each is on its card too); a short one open.
  const open = report.findings.length <= 12 && html` open`;
  const findings =
    report.findings.length > 0
      ? html`<details class="findings"${open}><summary>check: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}</summary>${report.findings.map((f) => findingLine(f))}</details>`
      : html`<div class="findings"><div class="finding">✓ check found nothing: every capture satisfies its waypoint and every shortcut's action resolves</div></div>`;
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
<h1>App map <code>${report.dir}</code></h1>
<div class="sub">${map.waypoints.size} waypoints · ${map.shortcuts.length} shortcuts · ${report.captures} captures checked</div>
${findings}
${orphanList}
<div class="grid">
${joinHtml(cards, "\n")}
</div>
</main>
</body>
</html>
`.toString();
}
