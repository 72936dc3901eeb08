// Draws a laid-out app map graph (map-graph.ts) as one <svg>: each edge a smooth path with an
// arrowhead and its label, each waypoint a link (to its card) holding its picture and its id. The
// pictures themselves come from the caller. Built with the `html` tag: every id, label and
// description is escaped, every coordinate a finite number.

import { html, joinHtml, type Html } from "../core/html-template.ts";
import type { GraphEdge, GraphNode, MapGraph, Point } from "./map-graph.ts";
import { GRAPH_SIZES } from "./map-graph.ts";

interface GraphSvgOptions {
  /** The picture for a waypoint, drawn in a box at (0, 0) of the given size; undefined: a "no capture" box. */
  picture(id: string, box: { width: number; height: number }): Html | undefined;
  /** The fragment of the waypoint's card (its id without the #). */
  anchor(id: string): string;
  /** The waypoint's description, for its tooltip. */
  description(id: string): string | undefined;
  /** Waypoint id → how many errors `check` found on it (a red badge on its picture). */
  errors: ReadonlyMap<string, number>;
  /** Elements for the <defs> (the screenshots every picture refers to). */
  defs?: Html;
}

/** The CSS the graph is drawn with (the page includes it once). */
export const GRAPH_CSS = `svg.graph{display:block;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;user-select:none}
svg.graph .edge path{fill:none;stroke:#868e96;stroke-width:1.6}
svg.graph .edge.trailhead path{stroke:#2b8a3e;stroke-dasharray:6 4}
svg.graph .edge text{font-size:${GRAPH_SIZES.edgeFont}px;fill:#495057;text-anchor:middle;paint-order:stroke;stroke:#f8f9fa;stroke-width:4px;stroke-linejoin:round}
svg.graph .node text{font-size:13px;fill:#212529;text-anchor:middle}
svg.graph.far .edge text{display:none}
svg.graph .node .frame{fill:#fff;stroke:#adb5bd;stroke-width:1.5}
svg.graph .node .badge circle{fill:#c92a2a;stroke:#fff;stroke-width:2}
svg.graph .node .badge text{fill:#fff;font-size:11px;font-weight:700}
svg.graph .node.missing .frame{fill:#fff5f5;stroke:#c92a2a;stroke-dasharray:5 4}
svg.graph .node.missing text{fill:#c92a2a}
svg.graph .node.start rect{fill:#2b8a3e}
svg.graph .node.start text{fill:#fff;font-weight:600}
svg.graph .node .none{font-size:11px;fill:#868e96;font-style:italic}
svg.graph .node:hover .frame,svg.graph .node:focus .frame{stroke:#1864ab;stroke-width:3}
svg.graph .caption{font-size:15px;font-weight:600;fill:#495057}
svg.graph #arrow path{fill:#868e96}
svg.graph #arrow-start path{fill:#2b8a3e}
svg.graph #arrow-hi path{fill:#e8590c}
svg.graph .dim{opacity:.18}
svg.graph .node.match .frame{stroke:#f59f00;stroke-width:5}
svg.graph .node.selected .frame{stroke:#e8590c;stroke-width:5}
svg.graph .edge.hi path{stroke:#e8590c;stroke-width:2.6;marker-end:url(#arrow-hi)}
svg.graph .edge.hi text{fill:#d9480f;font-weight:600}`;

const finite = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : 0);

/** A smooth path through `points` (a uniform cubic B-spline, as d3's curveBasis draws dagre's routes). */
export function basisPath(points: readonly Point[]): string {
  const p = points.map((pt) => ({ x: finite(pt.x), y: finite(pt.y) }));
  if (p.length === 0) return "";
  if (p.length < 3) return `M${p.map((pt) => `${pt.x},${pt.y}`).join("L")}`;
  const r = (n: number) => finite(n);
  let d = `M${p[0]!.x},${p[0]!.y}L${r((5 * p[0]!.x + p[1]!.x) / 6)},${r((5 * p[0]!.y + p[1]!.y) / 6)}`;
  for (let i = 2; i <= p.length; i++) {
    const a = p[i - 2]!;
    const b = p[i - 1]!;
    const c = p[Math.min(i, p.length - 1)]!;
    if (i === p.length) {
      d += `C${r((2 * a.x + b.x) / 3)},${r((2 * a.y + b.y) / 3)},${r((a.x + 2 * b.x) / 3)},${r((a.y + 2 * b.y) / 3)},${b.x},${b.y}`;
    } else {
      d += `C${r((2 * a.x + b.x) / 3)},${r((2 * a.y + b.y) / 3)},${r((a.x + 2 * b.x) / 3)},${r((a.y + 2 * b.y) / 3)},${r((a.x + 4 * b.x + c.x) / 6)},${r((a.y + 4 * b.y + c.y) / 6)}`;
    }
  }
  return d;
}

function edgeSvg(edge: GraphEdge): Html {
  const marker = edge.kind === "trailhead" ? "url(#arrow-start)" : "url(#arrow)";
  const tip = edge.kind === "trailhead" ? `trailhead ${edge.id}: any state → ${edge.to}` : `shortcut ${edge.id}: ${edge.from} → ${edge.to}`;
  return html`<g class="edge ${edge.kind}" data-edge="${edge.id}" data-from="${edge.from}" data-to="${edge.to}"><title>${tip}</title><path d="${basisPath(edge.points)}" marker-end="${marker}"/><text x="${finite(edge.labelAt.x)}" y="${finite(edge.labelAt.y + GRAPH_SIZES.edgeFont * 0.35)}">${edge.label}</text></g>`;
}

function labelLines(node: GraphNode, top: number): Html {
  const x = finite(node.width / 2);
  return html`<text x="${x}" y="${finite(top)}">${node.lines.map((line, i) => html`<tspan x="${x}" dy="${i === 0 ? 0 : GRAPH_SIZES.lineHeight}">${line}</tspan>`)}</text>`;
}

/** The margin around the drawing, in SVG units. */
const PAD = 20;

function nodeSvg(node: GraphNode, options: GraphSvgOptions): Html {
  const at = `translate(${finite(node.x)},${finite(node.y)})`;
  // Its centre in the drawing's coordinates, where the page's script centres the view on it.
  const cx = finite(node.x + node.width / 2 + PAD);
  const cy = finite(node.y + node.height / 2 + PAD);
  if (node.kind === "start") {
    return html`<g class="node start" transform="${at}"><title>trailheads start from any state</title><rect width="${node.width}" height="${node.height}" rx="${node.height / 2}"/><text x="${node.width / 2}" y="${finite(node.height / 2 + 4)}">▶ any state</text></g>`;
  }
  const box = node.picture!;
  const picture = node.kind === "waypoint" ? options.picture(node.id, box) : undefined;
  const inner = picture
    ? html`<g transform="translate(${finite(box.x)},${finite(box.y)})">${picture}</g>`
    : html`<text class="none" x="${finite(node.width / 2)}" y="${finite(box.y + box.height / 2)}">${node.kind === "missing" ? "not in the map" : "no capture"}</text>`;
  const description = options.description(node.id);
  const tip = node.kind === "missing" ? `${node.id}: not in the map` : description ? `${node.id}\n${description}` : node.id;
  const errors = options.errors.get(node.id) ?? 0;
  const classes = `node ${node.kind}${errors > 0 ? " has-errors" : ""}`;
  const badge =
    errors > 0 &&
    html`<g class="badge"><title>${`check: ${errors} error${errors === 1 ? "" : "s"}`}</title><circle cx="${finite(box.x + box.width)}" cy="${finite(box.y)}" r="10"/><text x="${finite(box.x + box.width)}" y="${finite(box.y + 4)}">${errors > 9 ? "9+" : errors}</text></g>`;
  const body = html`<title>${tip}</title><rect class="frame" x="${finite(box.x - 3)}" y="${finite(box.y - 3)}" width="${finite(box.width + 6)}" height="${finite(box.height + 6)}" rx="4"/>${inner}${badge}${labelLines(node, box.y + box.height + 18)}`;
  return node.kind === "missing"
    ? html`<g class="${classes}" data-node="${node.id}" data-cx="${cx}" data-cy="${cy}" transform="${at}">${body}</g>`
    : html`<a class="${classes}" href="#${options.anchor(node.id)}" data-node="${node.id}" data-cx="${cx}" data-cy="${cy}" transform="${at}">${body}</a>`;
}

/** The graph as one <svg class="graph">, its own size (a page scales and pans it). */
export function mapGraphSvg(graph: MapGraph, options: GraphSvgOptions): Html {
  const pad = PAD;
  const width = finite(graph.width + pad * 2);
  const height = finite(graph.height + pad * 2);
  const arrow = (id: string) =>
    html`<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0L10,5L0,10z"/></marker>`;
  const caption =
    graph.unconnected &&
    html`<text class="caption" x="${finite(graph.unconnected.x)}" y="${finite(graph.unconnected.y + 20)}">${`${graph.unconnected.count} waypoint${graph.unconnected.count === 1 ? "" : "s"} no shortcut leads to or from`}</text>`;
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="graph" id="graph" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="the app map as a graph: waypoints and the shortcuts between them">
<defs>${arrow("arrow")}${arrow("arrow-start")}${arrow("arrow-hi")}${options.defs ?? ""}</defs>
<g id="viewport"><g transform="translate(${pad},${pad})">
${caption}
<g class="edges">${joinHtml(graph.edges.map(edgeSvg), "\n")}</g>
<g class="nodes">${joinHtml(
    graph.nodes.map((n) => nodeSvg(n, options)),
    "\n",
  )}</g>
</g></g>
</svg>`;
}
