// A captured screen reduced to what a picture of it needs (ids, parents, bounds, type, text,
// interactive), as plain JSON, with the capture's screenshot when asked (`withScreenshot`): what
// reports store once per distinct screen, and what the SVG wireframe is drawn from.

import { embedScreenshot } from "./screenshot.ts";
import { isInteractive, nodeText, nodeType, type Screen } from "./screen-model.ts";

export interface WireNode {
  /** The capture's node id (as `data-node-id` in the picture). */
  id: number;
  /** The parent's id; absent for the root. */
  parent?: number;
  /** `[left, top, right, bottom]` in device pixels; absent when the capture gives none. */
  bounds?: [number, number, number, number];
  /** Short class name, role or element type. */
  type?: string;
  /** The text the node shows (per driver),. */
  text?: string;
  interactive?: true;
}

export interface WireframeScreen {
  /** The capture file, as the run showed it. */
  file: string;
  width: number;
  height: number;
  /** The waypoint a waypoint capture was taken at. */
  waypoint?: string;
  /** Every node of the screen, in document order. */
  nodes: WireNode[];
  /** The capture's own screenshot as a data: URL (WebP, PNG or JPEG), drawn under the boxes. */
  screenshot?: string;
  /** Why the capture's screenshot is not embedded (too large, not an image). */
  screenshotNote?: string;
}

/** The picture's data for `screen`; every text passes through `mask` (secrets as ***). */
export function wireframeOf(screen: Screen, mask: (text: string) => string = (t) => t): WireframeScreen {
  const nodes = screen.nodes.map((node) => {
    const out: WireNode = { id: node.id };
    if (node.parent) out.parent = node.parent.id;
    if (node.bounds) out.bounds = [node.bounds.left, node.bounds.top, node.bounds.right, node.bounds.bottom];
    const type = nodeType(node.detail);
    if (type) out.type = mask(type);
    const text = nodeText(node.detail);
    if (text !== undefined && text.trim() !== "") out.text = mask(text);
    if (isInteractive(node.detail)) out.interactive = true;
    return out;
  });
  return {
    file: screen.file,
    width: screen.width,
    height: screen.height,
    ...(screen.waypointId ? { waypoint: screen.waypointId } : {}),
    nodes,
  };
}

/** `wireframe` with the screenshot beside `screen`'s capture embedded (or the note saying why not); as it is when there is none. */
export function withScreenshot(wireframe: WireframeScreen, screen: Screen): WireframeScreen {
  if (screen.screenshotNote !== undefined) return { ...wireframe, screenshotNote: screen.screenshotNote };
  return screen.screenshot === undefined ? wireframe : { ...wireframe, ...embedScreenshot(screen.screenshot) };
}

/** A stable id for a wireframe (same screen, same id, in any run or shard): 12 hex digits of its SHA-1. */
export function wireframeId(wireframe: WireframeScreen): string {
  return new Bun.CryptoHasher("sha1").update(JSON.stringify(wireframe)).digest("hex").slice(0, 12);
}
