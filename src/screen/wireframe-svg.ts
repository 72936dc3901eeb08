// Draws a wireframe as SVG: the capture's own screenshot when it has one (an <image> of its data:
// URL, stretched to the device's size, under the boxes), one <rect data-node-id> per node in
// document order (children over parents), a label for nodes that show text (when there is no
// screenshot to read them on), `data-match` on the nodes a selector or a step resolved, and
// `data-required` / `data-forbidden` on a waypoint's required and forbidden nodes. `screen --svg`
// writes it alone; reports inline it, styled by their own CSS. Built with the `html` tag, so every
// value is escaped, every number is forced to a finite one first, and an image is drawn only from a
// WebP, PNG or JPEG data: URL (anything else a report says is left out).

import { html, inlineCode, joinHtml, type Html } from "../core/html-template.ts";
import { isImageDataUrl } from "./screenshot.ts";
import type { WireframeScreen, WireNode } from "./wireframe.ts";

interface WireframeSvgOptions {
  /** Node ids to mark with `data-match`. */
  matched?: Iterable<number>;
  /** Node ids to mark with `data-required` (a waypoint's required nodes, found). */
  required?: Iterable<number>;
  /** Node ids to mark with `data-forbidden` (a waypoint's forbidden nodes, present). */
  forbidden?: Iterable<number>;
  /** Include a <style> so the file renders on its own (default true); a page styles inline copies itself. */
  standalone?: boolean;
  /** Width the picture is shown at, in CSS pixels (default 270); the height keeps the screen's ratio. */
  displayWidth?: number;
}

/**
 * The CSS a wireframe is drawn with: a page that inlines wireframes includes it once. Over a
 * screenshot, and for marks, strokes are in CSS pixels (non-scaling), so a 150-pixel thumbnail of a
 * 1080-pixel screen still shows its marks.
 */
export const WIREFRAME_CSS = `svg.wireframe{background:#fff;font-family:system-ui,sans-serif}
svg.wireframe rect[data-node-id]{fill:none;stroke:#b8c2cc;stroke-width:2}
svg.wireframe rect.i{fill:#eef4fb;stroke:#7aa7d8}
svg.wireframe text{fill:#334;pointer-events:none}
svg.wireframe.shot rect[data-node-id]{fill:none;stroke:#4dabf7;stroke-opacity:.55;stroke-width:1;vector-effect:non-scaling-stroke}
svg.wireframe.shot rect.i{stroke:#1c7ed6;stroke-opacity:.9;stroke-width:1.5}
svg.wireframe rect[data-node-id][data-match]{fill:#ffe08a;fill-opacity:.55;stroke:#d9480f;stroke-opacity:1;stroke-width:3;vector-effect:non-scaling-stroke}
svg.wireframe rect[data-node-id][data-required]{fill:#8ce99a;fill-opacity:.45;stroke:#2b8a3e;stroke-opacity:1;stroke-width:3;vector-effect:non-scaling-stroke}
svg.wireframe rect[data-node-id][data-forbidden]{fill:#ffa8a8;fill-opacity:.5;stroke:#c92a2a;stroke-opacity:1;stroke-width:3;stroke-dasharray:6 3;vector-effect:non-scaling-stroke}
svg.wireframe.shot rect[data-node-id][data-match],svg.wireframe.shot rect[data-node-id][data-required],svg.wireframe.shot rect[data-node-id][data-forbidden]{fill-opacity:.35}`;

/** `value` when it is a finite number, else 0: what a picture's coordinates can hold, whatever a report said. */
const finite = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const round = (n: number) => Math.round(finite(n) * 10) / 10;

function label(node: WireNode, fontSize: number): Html | "" {
  if (node.text === undefined || node.bounds === undefined) return "";
  const [left, top, right, bottom] = node.bounds.map(finite) as [number, number, number, number];
  const width = right - left;
  const height = bottom - top;
  const size = Math.min(fontSize, height * 0.8);
  if (size < 4 || width < size) return "";
  const room = Math.max(1, Math.floor((width - size * 0.5) / (size * 0.55)));
  const text = String(node.text);
  const shown = text.length > room ? `${text.slice(0, Math.max(1, room - 1))}…` : text;
  const y = top + Math.min(height, size * 1.6) / 2 + size * 0.35;
  return html`<text x="${round(left + size * 0.3)}" y="${round(y)}" font-size="${round(size)}">${shown}</text>`;
}

interface Marks {
  matched: ReadonlySet<number>;
  required: ReadonlySet<number>;
  forbidden: ReadonlySet<number>;
}

function rect(node: WireNode, marks: Marks): Html {
  const [left, top, right, bottom] = (node.bounds ?? [0, 0, 0, 0]).map(finite) as [number, number, number, number];
  const id = finite(node.id);
  const tip = [`#${id}`, node.type, node.text === undefined ? undefined : JSON.stringify(node.text)].filter(Boolean).join(" ");
  const flags = html`${marks.matched.has(id) ? html` data-match=""` : ""}${marks.required.has(id) ? html` data-required=""` : ""}${marks.forbidden.has(id) ? html` data-forbidden=""` : ""}`;
  return html`<rect data-node-id="${id}"${node.interactive ? html` class="i"` : ""}${flags}${node.bounds ? "" : html` data-no-bounds=""`} x="${left}" y="${top}" width="${Math.max(0, right - left)}" height="${Math.max(0, bottom - top)}"><title>${tip}</title></rect>`;
}

/** The wireframe as one <svg> fragment (well-formed XML; a standalone file when `standalone`), for a page built with `html`. */
export function wireframeSvgHtml(screen: WireframeScreen, options: WireframeSvgOptions = {}): Html {
  const marks: Marks = {
    matched: new Set(options.matched ?? []),
    required: new Set(options.required ?? []),
    forbidden: new Set(options.forbidden ?? []),
  };
  const shot = isImageDataUrl(screen.screenshot) ? screen.screenshot : undefined;
  const width = Math.max(1, finite(screen.width));
  const height = Math.max(1, finite(screen.height));
  const shownWidth = Math.max(1, finite(options.displayWidth ?? 270));
  const fontSize = Math.max(10, Math.round(width / 36));
  const parts: Html[] = [
    html`<svg xmlns="http://www.w3.org/2000/svg" class="${shot ? "wireframe shot" : "wireframe"}" viewBox="0 0 ${width} ${height}" width="${shownWidth}" height="${Math.round((shownWidth * height) / width)}" role="img" aria-label="${`${shot ? "screenshot" : "wireframe"} of ${screen.file}`}">`,
    html`<title>${`${screen.file}${screen.waypoint ? ` (${screen.waypoint})` : ""}: ${screen.nodes.length} nodes, ${finite(screen.width)}x${finite(screen.height)}`}</title>`,
  ];
  if (options.standalone ?? true) parts.push(inlineCode("style", WIREFRAME_CSS));
  if (shot) parts.push(html`<image href="${shot}" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="none"/>`);
  for (const node of screen.nodes) parts.push(html`${rect(node, marks)}${shot ? "" : label(node, fontSize)}`);
  parts.push(html`</svg>`);
  return joinHtml(parts, "\n");
}

/** The wireframe as one <svg> element's text (well-formed XML; a standalone file when `standalone`). */
export function wireframeSvg(screen: WireframeScreen, options: WireframeSvgOptions = {}): string {
  return wireframeSvgHtml(screen, options).toString();
}
