// A waypoint's card on the map page, and the pictures of its screen: the capture's own screenshot
// (upstream's `<name>.example.webp`/`.png`) with the capture's node boxes over it and the nodes its
// shortcuts tap marked, or the wireframe where there is no screenshot; its selectors, its
// shortcuts (as links to the cards they lead to and come from) and `check`'s findings on it.
// The screenshot is found and read as the reports do (screenshot.ts); every one is in the page once, as an <image> in the graph's <defs>; each picture of it is
// a <use> of that element, so the graph's thumbnail and the card's picture cost no second copy.

import { basename } from "node:path";
import { html, type Html } from "../core/html-template.ts";
import { CaptureError, SelectorError } from "../errors.ts";
import type { AppMap } from "./app-map.ts";
import type { MapFinding } from "./check-app-map.ts";
import { hitTest } from "./hit-test.ts";
import { isImageDataUrl } from "./screenshot.ts";
import { resolveSelector } from "./resolve-selector.ts";
import type { Screen } from "./screen-model.ts";
import { describeSelector } from "./selector.ts";
import { actionOf, type Shortcut } from "./shortcut.ts";
import { callTarget } from "./tool-call.ts";
import type { Waypoint, WaypointCondition } from "./waypoint.ts";
import { wireframeOf, withScreenshot, type WireframeScreen, type WireNode } from "./wireframe.ts";
import { wireframeSvgHtml } from "./wireframe-svg.ts";

/** What the page knows of a waypoint's screen: its capture, and its screenshot with the id of its <image>. */
export interface WaypointScreen {
  screen?: Screen;
  /** The capture's picture data, without its screenshot (that is `shot`, in the page once). */
  wireframe?: WireframeScreen;
  shot?: { name: string; dataUrl: string; ref: string };
  /** Why the screenshot beside the capture is left out (too large, not an image). */
  skipped?: string;
}

/** The CSS of the cards' screenshots and the graph's small wireframes (the page includes it once). */
export const CARD_CSS = `svg.wireframe.shot rect[data-node-id]{fill:none;stroke:#1864ab;stroke-opacity:0;stroke-width:3;pointer-events:all}
svg.wireframe.shot rect[data-node-id]:hover{stroke-opacity:.9}
svg.wireframe.shot rect[data-match]{fill:#ffe08a;fill-opacity:.35;stroke:#d9480f;stroke-opacity:1;stroke-width:6}
svg.mini{background:#fff}
svg.mini rect{fill:none;stroke:#adb5bd;stroke-width:1;vector-effect:non-scaling-stroke}
svg.mini rect.i{fill:#e7f0fa;stroke:#74a6d9}`;

export const anchor = (id: string) => `wp-${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;

const finite = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) ? n : 0);

/** The nodes the shortcuts from a waypoint act on, on its capture. */
function tappedNodes(screen: Screen, shortcuts: readonly Shortcut[]): number[] {
  const ids: number[] = [];
  for (const shortcut of shortcuts) {
    const action = actionOf(shortcut);
    if (!action) continue;
    try {
      const target = callTarget(action.name, action.args, shortcut.id);
      const node =
        target.kind === "selector"
          ? resolveSelector(screen, target.selector).nodes[0]
          : target.kind === "point"
            ? hitTest(screen, target.x, target.y)
            : undefined;
      if (node) ids.push(node.id);
    } catch (error) {
      if (!(error instanceof SelectorError)) throw error; // check's findings name it
    }
  }
  return ids;
}

/** The waypoint's capture (undefined when it has none or it does not load: check's findings say why). */
export async function captureOf(map: AppMap, id: string): Promise<Screen | undefined> {
  try {
    return await map.capture(id);
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error;
    return undefined;
  }
}

/** The screenshot's <image>, stretched to the coordinates of the capture it was taken with. */
export function shotImage(shot: NonNullable<WaypointScreen["shot"]>, wireframe: WireframeScreen): Html {
  return html`<image id="${shot.ref}" href="${shot.dataUrl}" width="${Math.max(1, finite(wireframe.width))}" height="${Math.max(1, finite(wireframe.height))}" preserveAspectRatio="none"/>`;
}

/** The picture's width and height in the capture's coordinates. */
export function pictureSize(screen: WaypointScreen): { width: number; height: number } | undefined {
  return screen.wireframe && { width: Math.max(1, finite(screen.wireframe.width)), height: Math.max(1, finite(screen.wireframe.height)) };
}

/** A small picture for the graph's node, fitted in `box`: the screenshot, else the capture's boxes. */
export function graphPicture(screen: WaypointScreen, box: { width: number; height: number }): Html | undefined {
  const size = pictureSize(screen);
  if (!size) return undefined;
  const frame = (inner: Html) =>
    html`<svg class="mini" width="${box.width}" height="${box.height}" viewBox="0 0 ${size.width} ${size.height}">${inner}</svg>`;
  if (screen.shot) return frame(html`<use href="#${screen.shot.ref}"/>`);
  const rects = screen.wireframe!.nodes.filter((n) => n.bounds && n.parent !== undefined).map((n) => boxRect(n, false));
  return frame(html`${rects}`);
}

function boxRect(node: WireNode, withTitle: boolean, matched: ReadonlySet<number> = new Set()): Html {
  const [left, top, right, bottom] = (node.bounds ?? [0, 0, 0, 0]).map(finite) as [number, number, number, number];
  const [width, height] = [Math.max(0, right - left), Math.max(0, bottom - top)];
  if (!withTitle)
    return html`<rect x="${left}" y="${top}" width="${width}" height="${height}"${node.interactive ? html` class="i"` : ""}/>`;
  const tip = [`#${finite(node.id)}`, node.type, node.text === undefined ? undefined : JSON.stringify(node.text)].filter(Boolean).join(" ");
  return html`<rect data-node-id="${finite(node.id)}" x="${left}" y="${top}" width="${width}" height="${height}"${matched.has(node.id) ? html` data-match=""` : ""}><title>${tip}</title></rect>`;
}

/** The card's picture: the screenshot with the capture's boxes over it (tapped nodes marked), or the wireframe. */
function cardPicture(screen: WaypointScreen, matched: number[]): Html {
  const { wireframe, shot } = screen;
  if (!wireframe) return html``;
  if (!shot) return wireframeSvgHtml(wireframe, { standalone: false, matched, displayWidth: 140 });
  const size = pictureSize(screen)!;
  const marked = new Set(matched);
  const rects = wireframe.nodes.filter((n) => n.bounds && n.parent !== undefined).map((n) => boxRect(n, true, marked));
  const title = `${shot.name} with the boxes of ${basename(wireframe.file)}`;
  return html`<svg xmlns="http://www.w3.org/2000/svg" class="wireframe shot" viewBox="0 0 ${size.width} ${size.height}" width="140" height="${Math.round((140 * size.height) / size.width)}" role="img" aria-label="${title}"><title>${title}</title><use href="#${shot.ref}"/>${rects}</svg>`;
}

/** A finding as a line: with its file in the list at the top, its file's base name on a card. */
export function findingLine(f: MapFinding, short = false): Html {
  const file = f.file && short ? basename(f.file) : f.file;
  const where = file ? `${file}${f.line ? `:${f.line}:${f.col ?? 0}` : ""}: ` : "";
  return html`<div class="finding ${f.severity}">${f.severity === "error" ? "✗" : "⚠"} ${where + f.message}</div>`;
}

export function link(id: string, known: boolean): Html {
  return known ? html`<a href="#${anchor(id)}">${id}</a>` : html`<span class="finding error">${id} (not in the map)</span>`;
}

function selectors(waypoint: Waypoint): Html {
  const blocks = [...waypoint.platforms.entries()];
  const required = blocks.reduce((n, [, b]) => n + b.required.length, 0);
  const forbidden = blocks.reduce((n, [, b]) => n + b.forbidden.length, 0);
  if (required + forbidden === 0) return html`<div class="none">no selectors</div>`;
  const list = (platform: string, kind: string, conditions: readonly WaypointCondition[]) =>
    conditions.length > 0 &&
    html`<div class="label">${platform} · ${kind}</div><ul class="selectors">${conditions.map((c) => html`<li>${c.description}${c.minCount > 1 ? ` (at least ${c.minCount})` : ""} <code>${describeSelector(c.selector)}</code></li>`)}</ul>`;
  return html`<details class="sel"><summary>selectors: ${required} required, ${forbidden} forbidden</summary>${blocks.map(([platform, b]) => html`${list(platform, "required", b.required)}${list(platform, "forbidden", b.forbidden)}`)}</details>`;
}

/** The waypoint's card: its picture, description, selectors, shortcuts out and in, and findings. */
export function waypointCard(map: AppMap, waypoint: Waypoint, screen: WaypointScreen, findings: readonly MapFinding[]): Html {
  const out = map.outgoing.get(waypoint.id) ?? [];
  const incoming = map.shortcuts.filter((s) => s.to === waypoint.id);
  const trailheads = map.trailheads.filter((t) => t.to === waypoint.id);
  const matched = screen.screen ? tappedNodes(screen.screen, out) : [];
  const thumb = screen.wireframe
    ? html`<div class="thumb">${cardPicture(screen, matched)}</div>`
    : html`<div class="none">no capture</div>`;
  const skipped = screen.skipped && html`<div class="none">${screen.skipped}</div>`;
  const mine = findings.filter((f) => f.file === waypoint.file || out.some((s) => s.file === f.file));
  const list = (items: Html[], empty: string) => (items.length > 0 ? html`<ul>${items}</ul>` : html`<div class="none">${empty}</div>`);
  const reached = [
    ...incoming.map((s) => html`<li>${link(s.from, map.waypoints.has(s.from))} <code>${s.id}</code></li>`),
    ...trailheads.map((t) => html`<li>any state, trailhead <code>${t.id}</code></li>`),
  ];
  return html`<section class="waypoint${mine.some((f) => f.severity === "error") ? " has-errors" : ""}" id="${anchor(waypoint.id)}" data-waypoint="${waypoint.id}">
<h2>${waypoint.id}</h2>${waypoint.description && html`<div class="desc">${waypoint.description}</div>`}
${thumb}${skipped}
${selectors(waypoint)}
<div class="label">shortcuts from here</div>${list(
    out.map((s) => html`<li class="shortcut" data-shortcut="${s.id}">→ ${link(s.to, map.waypoints.has(s.to))} <code>${s.id}</code></li>`),
    "none",
  )}
<div class="label">reached from</div>${list(reached, "no shortcut leads here")}
${mine.map((f) => findingLine(f, true))}
</section>`;
}

/** What a card and a graph node need of `waypoint`'s screen; `ref` names its screenshot's <image>. */
export async function waypointScreen(map: AppMap, waypoint: Waypoint, ref: string): Promise<WaypointScreen> {
  const screen = await captureOf(map, waypoint.id);
  if (!screen) return {};
  const { screenshot, screenshotNote, ...wireframe } = withScreenshot(wireframeOf(screen), screen);
  const out: WaypointScreen = { screen, wireframe };
  if (screenshot !== undefined && isImageDataUrl(screenshot))
    out.shot = { name: basename(screen.screenshot ?? ""), dataUrl: screenshot, ref };
  if (screenshotNote !== undefined) out.skipped = screenshotNote;
  return out;
}
