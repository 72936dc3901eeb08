// Draws a wireframe as SVG: one <rect data-node-id> per node in document order (children over
// parents), a label for nodes that show text, and `data-match` on the nodes a selector or a step
// resolved. `screen --svg` writes it alone; reports inline it, styled by their own CSS.

import { xmlAttr, xmlText } from "../core/markup-text.ts";
import type { WireframeScreen, WireNode } from "./wireframe.ts";

export interface WireframeSvgOptions {
  /** Node ids to mark with `data-match`. */
  matched?: Iterable<number>;
  /** Include a <style> so the file renders on its own (default true); a page styles inline copies itself. */
  standalone?: boolean;
  /** Width the picture is shown at, in CSS pixels (default 270); the height keeps the screen's ratio. */
  displayWidth?: number;
}

/** The CSS a wireframe is drawn with: a page that inlines wireframes includes it once. */
export const WIREFRAME_CSS = `svg.wireframe{background:#fff;font-family:system-ui,sans-serif}
svg.wireframe rect[data-node-id]{fill:none;stroke:#b8c2cc;stroke-width:2}
svg.wireframe rect.i{fill:#eef4fb;stroke:#7aa7d8}
svg.wireframe text{fill:#334;pointer-events:none}
svg.wireframe rect[data-match]{fill:#ffe08a;fill-opacity:.55;stroke:#d9480f;stroke-width:8}`;

const round = (n: number) => Math.round(n * 10) / 10;

function label(node: WireNode, fontSize: number): string {
  if (node.text === undefined || node.bounds === undefined) return "";
  const [left, top, right, bottom] = node.bounds;
  const width = right - left;
  const height = bottom - top;
  const size = Math.min(fontSize, height * 0.8);
  if (size < 4 || width < size) return "";
  const room = Math.max(1, Math.floor((width - size * 0.5) / (size * 0.55)));
  const shown = node.text.length > room ? `${node.text.slice(0, Math.max(1, room - 1))}…` : node.text;
  const y = top + Math.min(height, size * 1.6) / 2 + size * 0.35;
  return `<text x="${round(left + size * 0.3)}" y="${round(y)}" font-size="${round(size)}">${xmlText(shown)}</text>`;
}

function rect(node: WireNode, matched: ReadonlySet<number>): string {
  const [left, top, right, bottom] = node.bounds ?? [0, 0, 0, 0];
  const cls = node.interactive ? ` class="i"` : "";
  const mark = matched.has(node.id) ? ` data-match=""` : "";
  const none = node.bounds ? "" : ` data-no-bounds=""`;
  const tip = [`#${node.id}`, node.type, node.text === undefined ? undefined : JSON.stringify(node.text)].filter(Boolean).join(" ");
  return `<rect data-node-id="${node.id}"${cls}${mark}${none} x="${left}" y="${top}" width="${Math.max(0, right - left)}" height="${Math.max(0, bottom - top)}"><title>${xmlText(tip)}</title></rect>`;
}

/** The wireframe as one <svg> element (well-formed XML; a standalone file when `standalone`). */
export function wireframeSvg(screen: WireframeScreen, options: WireframeSvgOptions = {}): string {
  const matched = new Set(options.matched ?? []);
  const width = Math.max(1, screen.width);
  const height = Math.max(1, screen.height);
  const shownWidth = options.displayWidth ?? 270;
  const fontSize = Math.max(10, Math.round(width / 36));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="wireframe" viewBox="0 0 ${width} ${height}" width="${shownWidth}" height="${Math.round((shownWidth * height) / width)}" role="img" aria-label="${xmlAttr(`wireframe of ${screen.file}`)}">`,
    `<title>${xmlText(`${screen.file}${screen.waypoint ? ` (${screen.waypoint})` : ""}: ${screen.nodes.length} nodes, ${screen.width}x${screen.height}`)}</title>`,
  ];
  if (options.standalone ?? true) parts.push(`<style>${WIREFRAME_CSS}</style>`);
  for (const node of screen.nodes) parts.push(rect(node, matched) + label(node, fontSize));
  parts.push("</svg>");
  return parts.join("\n");
}
