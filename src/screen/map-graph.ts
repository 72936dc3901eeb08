// The app map as a laid-out graph: a node per waypoint (and per id a shortcut names that is not in
// the map, and one "any state" node that trailheads leave from), an edge per shortcut and per
// trailhead, placed by dagre (a layered, Sugiyama-style layout) at generation time, so a page
// ships only the coordinates. Each connected part is laid out on its own and the parts packed in
// rows, largest first; waypoints no shortcut touches go in a grid after them, under a caption.

import dagre from "@dagrejs/dagre";

interface GraphInput {
  /** Every waypoint, with its picture's height / width (undefined: no picture). */
  waypoints: { id: string; ratio?: number }[];
  shortcuts: { id: string; from: string; to: string }[];
  trailheads: { id: string; to: string }[];
}

type GraphNodeKind = "waypoint" | "missing" | "start";

export interface Point {
  x: number;
  y: number;
}

export interface GraphNode {
  kind: GraphNodeKind;
  /** The waypoint id ("" for the start node). */
  id: string;
  /** Its label, as lines (the id without the map's common prefix, wrapped). */
  lines: string[];
  /** Top-left corner and size of the whole node (picture and label). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The picture's box inside the node (absent for the start node). */
  picture?: { x: number; y: number; width: number; height: number };
}

export interface GraphEdge {
  kind: "shortcut" | "trailhead";
  /** The shortcut's or trailhead's id. */
  id: string;
  /** Waypoint ids ("" for a trailhead's start). */
  from: string;
  to: string;
  /** Its label: the id without the common prefix of the map's shortcut and trailhead ids, cut at `edgeChars`. */
  label: string;
  /** The route, from the `from` node's border to the `to` node's. */
  points: Point[];
  /** The label's centre. */
  labelAt: Point;
}

export interface MapGraph {
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The prefix taken off every waypoint label ("" when there is none). */
  waypointPrefix: string;
  /** Where the grid of waypoints with no shortcut starts, with its caption; absent when there are none. */
  unconnected?: { x: number; y: number; count: number };
}

/** Sizes of the drawing, in SVG units (CSS pixels at zoom 1). */
export const GRAPH_SIZES = {
  picture: 88,
  nodeWidth: 148,
  lineHeight: 15,
  maxLines: 3,
  /** Characters per label line (12px text in a 148px node). */
  lineChars: 21,
  edgeFont: 11,
  /** The longest edge label, in characters (a longer one is cut with …; its tooltip has it whole). */
  edgeChars: 36,
  startSize: 46,
  gap: 60,
  caption: 36,
} as const;

const RATIO = { min: 0.5, max: 2.4, none: 1.6 };

/** The longest prefix of every id that ends at a separator (`/`, `_`, `-`, `.`), kept only when each id goes on past it. */
export function commonPrefix(ids: readonly string[]): string {
  if (ids.length < 2) return "";
  let prefix = ids[0]!;
  for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = Math.max(...["/", "_", "-", "."].map((sep) => prefix.lastIndexOf(sep)));
  prefix = cut >= 0 ? prefix.slice(0, cut + 1) : "";
  return ids.every((id) => id.length > prefix.length) ? prefix : "";
}

/** `text` in lines of at most `width` characters, broken after separators where it can be; at most `max` lines (the last cut with …). */
export function wrapLabel(text: string, width: number = GRAPH_SIZES.lineChars, max: number = GRAPH_SIZES.maxLines): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width && lines.length < max) {
    const head = rest.slice(0, width);
    const at = Math.max(...["/", "_", "-", ".", " "].map((sep) => head.lastIndexOf(sep)));
    const cut = at >= width / 3 ? at + 1 : width;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== "") lines.push(rest);
  if (lines.length > max) {
    lines.length = max;
    lines[max - 1] = `${lines[max - 1]!.slice(0, width - 1)}…`;
  }
  return lines;
}

/** Node keys: "w:" + id for waypoints and ids not in the map, "start" for the trailheads' start. */
const keyOf = (id: string) => `w:${id}`;
const START = "start";

function waypointNode(kind: GraphNodeKind, id: string, label: string, ratio: number | undefined): GraphNode {
  const { picture, nodeWidth, lineHeight } = GRAPH_SIZES;
  const lines = wrapLabel(label);
  const r = Math.min(RATIO.max, Math.max(RATIO.min, ratio ?? RATIO.none));
  const pictureHeight = Math.round(picture * r);
  return {
    kind,
    id,
    lines,
    x: 0,
    y: 0,
    width: nodeWidth,
    height: pictureHeight + 10 + lines.length * lineHeight + 6,
    picture: { x: (nodeWidth - picture) / 2, y: 0, width: picture, height: pictureHeight },
  };
}

/** A laid-out edge's entry: the edge and its dagre node keys (from, to). */
interface KeyedEdge {
  edge: GraphEdge;
  v: string;
  w: string;
}

/** Lays out one connected part with dagre; node positions are left relative to the part's own origin. */
function layoutPart(keys: string[], nodes: Map<string, GraphNode>, edges: readonly KeyedEdge[]): { width: number; height: number } {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 36, ranksep: 70, edgesep: 16, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const key of keys) {
    const node = nodes.get(key)!;
    g.setNode(key, { width: node.width, height: node.height });
  }
  // Labels are not given to dagre: as dummy nodes they would double the ranks and the drawing's
  // height. Each sits at its route's midpoint instead, on a halo that keeps it legible over lines.
  edges.forEach(({ v, w }, i) => g.setEdge(v, w, {}, String(i)));
  dagre.layout(g);
  for (const key of keys) {
    const laid = g.node(key);
    const node = nodes.get(key)!;
    node.x = laid.x! - node.width / 2;
    node.y = laid.y! - node.height / 2;
  }
  edges.forEach(({ edge, v, w }, i) => {
    const laid = g.edge({ v, w, name: String(i) });
    edge.points = (laid.points ?? []).map((p: Point) => ({ x: p.x, y: p.y }));
    edge.labelAt = midpoint(edge.points);
  });
  const label = g.graph();
  return { width: label.width ?? 0, height: label.height ?? 0 };
}

/** The point halfway along a polyline. */
export function midpoint(points: readonly Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  let left = lengths.reduce((a, b) => a + b, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i]! && lengths[i]! > 0) {
      const a = points[i]!;
      const b = points[i + 1]!;
      return { x: a.x + ((b.x - a.x) * left) / lengths[i]!, y: a.y + ((b.y - a.y) * left) / lengths[i]! };
    }
    left -= lengths[i]!;
  }
  return points.at(-1)!;
}

function shift(node: GraphNode, dx: number, dy: number): void {
  node.x += dx;
  node.y += dy;
}

/** The nodes (waypoints, ids a shortcut names that are not in the map, the start) and edges of `input`, not yet placed. */
function graphElements(input: GraphInput, waypointPrefix: string): { nodes: Map<string, GraphNode>; edges: KeyedEdge[] } {
  const known = new Set(input.waypoints.map((w) => w.id));
  const edgePrefix = commonPrefix([...input.shortcuts, ...input.trailheads].map((s) => s.id));
  const max = GRAPH_SIZES.edgeChars;
  const edgeLabel = (id: string) => {
    const label = withoutPrefix(id, edgePrefix);
    return label.length > max ? `${label.slice(0, max - 1)}…` : label;
  };
  const nodes = new Map<string, GraphNode>();
  for (const w of input.waypoints)
    if (!nodes.has(keyOf(w.id))) nodes.set(keyOf(w.id), waypointNode("waypoint", w.id, withoutPrefix(w.id, waypointPrefix), w.ratio));
  const missing = (id: string) => {
    if (!known.has(id) && !nodes.has(keyOf(id)))
      nodes.set(keyOf(id), waypointNode("missing", id, `${withoutPrefix(id, waypointPrefix)} (not in the map)`, undefined));
    return keyOf(id);
  };
  const edges: KeyedEdge[] = [];
  const blank = { points: [], labelAt: { x: 0, y: 0 } };
  for (const s of input.shortcuts) {
    edges.push({
      edge: { kind: "shortcut", id: s.id, from: s.from, to: s.to, label: edgeLabel(s.id), ...blank },
      v: missing(s.from),
      w: missing(s.to),
    });
  }
  if (input.trailheads.length > 0) {
    const size = GRAPH_SIZES.startSize;
    nodes.set(START, { kind: "start", id: "", lines: ["any state"], x: 0, y: 0, width: size * 2, height: size });
  }
  for (const t of input.trailheads)
    edges.push({ edge: { kind: "trailhead", id: t.id, from: "", to: t.to, label: edgeLabel(t.id), ...blank }, v: START, w: missing(t.to) });
  return { nodes, edges };
}

function withoutPrefix(id: string, prefix: string): string {
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

/** Connected parts (edges taken as undirected), each in the order its first node appears; nodes no edge touches apart. */
function connectedParts(nodes: Map<string, GraphNode>, edges: readonly KeyedEdge[]): { connected: string[][]; alone: string[] } {
  const part = new Map<string, string>([...nodes.keys()].map((k) => [k, k]));
  const root = (k: string): string => {
    while (part.get(k) !== k) k = part.get(k)!;
    return k;
  };
  for (const { v, w } of edges) part.set(root(v), root(w));
  const groups = new Map<string, string[]>();
  for (const key of nodes.keys()) groups.set(root(key), [...(groups.get(root(key)) ?? []), key]);
  return {
    connected: [...groups.values()].filter((keys) => keys.length > 1),
    alone: [...groups.values()].filter((keys) => keys.length === 1).map((keys) => keys[0]!),
  };
}

/**
 * Lays out each connected part and packs them in rows as wide as the largest part (at least a
 * screenful), largest first, left to right; returns the size they cover and the row width.
 */
function packParts(
  connected: readonly string[][],
  nodes: Map<string, GraphNode>,
  edges: readonly KeyedEdge[],
): { width: number; height: number; rowWidth: number } {
  const { gap } = GRAPH_SIZES;
  const laid = connected.map((keys) => {
    const inPart = new Set(keys);
    const partEdges = edges.filter((e) => inPart.has(e.v));
    return { keys, ...layoutPart(keys, nodes, partEdges), edges: partEdges };
  });
  laid.sort((a, b) => b.keys.length - a.keys.length || b.width * b.height - a.width * a.height);
  const rowWidth = Math.max(1200, ...laid.map((p) => p.width));
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const p of laid) {
    if (x > 0 && x + p.width > rowWidth) {
      x = 0;
      y += rowHeight + gap;
      rowHeight = 0;
    }
    for (const key of p.keys) shift(nodes.get(key)!, x, y);
    for (const { edge } of p.edges) {
      edge.points = edge.points.map((pt) => ({ x: pt.x + x, y: pt.y + y }));
      edge.labelAt = { x: edge.labelAt.x + x, y: edge.labelAt.y + y };
    }
    x += p.width + gap;
    width = Math.max(width, x - gap);
    rowHeight = Math.max(rowHeight, p.height);
  }
  return { width, height: laid.length > 0 ? y + rowHeight : 0, rowWidth };
}

/**
 * Places the waypoints no edge touches in a grid under a caption: below the connected parts, or
 * beside them when they are taller than wide (a screen is wide). Returns the drawing's new size
 * and where the grid starts.
 */
function placeUnconnected(
  alone: readonly string[],
  nodes: Map<string, GraphNode>,
  packed: { width: number; height: number; rowWidth: number },
): { width: number; height: number; unconnected: NonNullable<MapGraph["unconnected"]> } {
  const { gap } = GRAPH_SIZES;
  let { width, height } = packed;
  const cellWidth = GRAPH_SIZES.nodeWidth + 24;
  const beside = height > width && width > 0;
  const left = beside ? width + gap * 2 : 0;
  const top = beside || height === 0 ? 0 : height + gap;
  const columns = beside
    ? Math.max(1, Math.ceil(Math.sqrt(alone.length / 2)))
    : Math.max(1, Math.floor((Math.max(width, packed.rowWidth) + 24) / cellWidth));
  let rowTop = top + GRAPH_SIZES.caption;
  for (let i = 0; i < alone.length; i += columns) {
    const row = alone.slice(i, i + columns).map((k) => nodes.get(k)!);
    row.forEach((node, j) => {
      node.x = left + j * cellWidth;
      node.y = rowTop;
    });
    rowTop += Math.max(...row.map((n) => n.height)) + 28;
    width = Math.max(width, left + row.length * cellWidth - 24);
  }
  height = Math.max(height, rowTop - 28);
  return { width, height, unconnected: { x: left, y: top, count: alone.length } };
}

/** The graph of `input`, laid out. Edges keep the order of `input` (shortcuts, then trailheads). */
export function layoutMapGraph(input: GraphInput): MapGraph {
  const waypointPrefix = commonPrefix(input.waypoints.map((w) => w.id));
  const { nodes, edges } = graphElements(input, waypointPrefix);
  const { connected, alone } = connectedParts(nodes, edges);
  const packed = packParts(connected, nodes, edges);
  const placed = alone.length > 0 ? placeUnconnected(alone, nodes, packed) : packed;
  return {
    width: Math.ceil(placed.width),
    height: Math.ceil(placed.height),
    nodes: [...nodes.values()],
    edges: edges.map((e) => e.edge),
    waypointPrefix,
    ...("unconnected" in placed ? { unconnected: placed.unconnected } : {}),
  };
}
