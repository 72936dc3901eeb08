// Loads a screen capture in any of its three formats — a TrailblazeNode tree, a legacy
// Maestro-shaped view hierarchy, or a waypoint's *.example.json — into one Screen; a malformed
// capture is a CaptureError naming the file and the JSON path of the first bad value. A capture
// read from a file notes the screenshot beside it (the `screenshotFile` a waypoint capture names,
// else `<name>.example.webp`/`.png`), when there is one; one that leads out of the map's or the
// capture's folder through a symbolic link is noted as left out instead.

import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { z } from "zod";
import { CaptureError } from "../errors.ts";
import {
  describeIssue,
  jsonPath,
  TrailblazeNodeSchema,
  ViewHierarchySchema,
  WaypointCaptureSchema,
  type TrailblazeNodeJson,
  type ViewHierarchyJson,
} from "./capture-schema.ts";
import type { Bounds, CaptureFormat, DriverDetail, Screen, ScreenNode } from "./screen-model.ts";
import { isPlainMap } from "../core/describe.ts";
import { screenshotBeside, screenshotOutside } from "./screenshot.ts";

const LEGACY_KEYS = ["text", "resourceId", "accessibilityText", "className", "x1", "y1", "x2", "y2", "centerPoint", "bounds", "clickable"];

function check<T>(file: string, schema: z.ZodType<T>, value: unknown, at: readonly PropertyKey[]): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0]!;
  const { path, problem } = describeIssue({ ...first, path: [...at, ...first.path] } as typeof first, rootOf(value, at));
  throw new CaptureError(file, path, problem);
}

/** Rebuilds a document around `value` so issue paths that start with `at` resolve from `$`. */
function rootOf(value: unknown, at: readonly PropertyKey[]): unknown {
  let root = value;
  for (let i = at.length - 1; i >= 0; i--) root = { [at[i]!]: root };
  return root;
}

const NOT_A_CAPTURE =
  "not a screen capture: expected a TrailblazeNode tree ({nodeId, bounds, driverDetail, children}), " +
  "a view hierarchy ({text, resourceId, className, x1, y1, x2, y2, children}) " +
  "or a waypoint capture ({waypointId, deviceWidth, deviceHeight, trailblazeNodeTree, viewHierarchy})";

/** Parses capture JSON text; `file` is used in messages only. */
export function parseCapture(file: string, text: string): Screen {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CaptureError(file, "$", `not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return captureFromJson(file, data);
}

/**
 * `within`: the folder a screenshot beside the capture must really be in, and what it is called in
 * the note when it is not (default: the capture's own folder).
 */
export async function loadCapture(
  file: string,
  displayName: string = file,
  within: { folder: string; what: string } = { folder: dirname(file), what: "the capture's folder" },
): Promise<Screen> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "file not found" : `cannot read the file (${code ?? String(error)})`;
    // The file itself, not a place in its JSON; where it was looked for when the name shown is not that path.
    throw new CaptureError(displayName, "", displayName === file ? why : `${why} (looked for ${file})`, { cause: error });
  }
  const screen = parseCapture(displayName, text);
  const screenshot = screenshotBeside(file, screen.screenshotFile);
  if (screenshot !== undefined) {
    const outside = screenshotOutside(screenshot, within.folder, within.what);
    if (outside === undefined) screen.screenshot = screenshot;
    else screen.screenshotNote = outside;
  }
  return screen;
}

/** Builds a Screen from already-parsed capture JSON. */
function captureFromJson(file: string, data: unknown): Screen {
  if (!isPlainMap(data)) throw new CaptureError(file, "$", NOT_A_CAPTURE);
  if ("trailblazeNodeTree" in data || "viewHierarchy" in data || "waypointId" in data) {
    const capture = check(file, WaypointCaptureSchema, data, []);
    const size = capture.deviceWidth && capture.deviceHeight ? { width: capture.deviceWidth, height: capture.deviceHeight } : undefined;
    let screen: Screen;
    if (capture.trailblazeNodeTree !== undefined)
      screen = fromTrailblazeNode(file, capture.trailblazeNodeTree, ["trailblazeNodeTree"], "waypointCapture", size);
    else if (capture.viewHierarchy !== undefined)
      screen = fromViewHierarchy(file, capture.viewHierarchy, ["viewHierarchy"], "waypointCapture", size);
    else throw new CaptureError(file, "$", "a waypoint capture needs a trailblazeNodeTree or a viewHierarchy; it has neither");
    if (capture.waypointId !== undefined) screen.waypointId = capture.waypointId;
    if (typeof capture.screenshotFile === "string" && capture.screenshotFile !== "") screen.screenshotFile = capture.screenshotFile;
    return screen;
  }
  if ("driverDetail" in data) return fromTrailblazeNode(file, data, [], "trailblazeNode");
  if ("children" in data || LEGACY_KEYS.some((key) => key in data)) return fromViewHierarchy(file, data, [], "viewHierarchy");
  throw new CaptureError(file, "$", NOT_A_CAPTURE);
}

interface Size {
  width: number;
  height: number;
}

function finish(file: string, format: CaptureFormat, ids: Screen["ids"], root: ScreenNode, size: Size | undefined): Screen {
  const nodes: ScreenNode[] = [];
  const byId = new Map<number, ScreenNode>();
  const stack = [root];
  let right = 0;
  let bottom = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push(node);
    byId.set(node.id, node);
    if (node.bounds) {
      right = Math.max(right, node.bounds.right);
      bottom = Math.max(bottom, node.bounds.bottom);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return { file, format, ids, root, nodes, byId, width: size?.width ?? right, height: size?.height ?? bottom };
}

function fromTrailblazeNode(file: string, value: unknown, at: PropertyKey[], format: CaptureFormat, size?: Size): Screen {
  const tree = check(file, TrailblazeNodeSchema, value, at);
  const seen = new Map<number, string>();
  const build = (json: TrailblazeNodeJson, path: PropertyKey[], depth: number, parent?: ScreenNode): ScreenNode => {
    const id = json.nodeId ?? 0;
    const where = jsonPath(path);
    const earlier = seen.get(id);
    if (earlier !== undefined)
      throw new CaptureError(
        file,
        `${where}.nodeId`,
        `duplicate nodeId ${id} (also at ${earlier}); node ids must be unique within a capture`,
      );
    seen.set(id, where);
    const node: ScreenNode = { id, detail: json.driverDetail as DriverDetail, children: [], depth };
    if (json.ref != null) node.ref = json.ref;
    if (json.bounds != null)
      node.bounds = { left: json.bounds.left, top: json.bounds.top, right: json.bounds.right, bottom: json.bounds.bottom };
    if (parent) node.parent = parent;
    node.children = (json.children ?? []).map((child, i) => build(child, [...path, "children", i], depth + 1, node));
    return node;
  };
  return finish(file, format, "capture", build(tree, at, 0), size);
}

/** Legacy bounds: x1..y2 when any is non-zero, else `bounds` ({left…} or "[l,t][r,b]"), else centerPoint + dimensions. */
function legacyBounds(file: string, json: ViewHierarchyJson, path: PropertyKey[]): Bounds | undefined {
  const { x1 = 0, y1 = 0, x2 = 0, y2 = 0 } = json;
  if ((x1 !== 0 || y1 !== 0 || x2 !== 0 || y2 !== 0) && x2 >= x1 && y2 >= y1) return { left: x1, top: y1, right: x2, bottom: y2 };
  if (typeof json.bounds === "string") {
    const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(json.bounds.replace(/\s+/g, ""));
    if (!m)
      throw new CaptureError(
        file,
        jsonPath([...path, "bounds"]),
        `expected "[left,top][right,bottom]", got ${JSON.stringify(json.bounds)}`,
      );
    return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
  }
  if (json.bounds) return { ...json.bounds };
  const dims = /^(\d+)x(\d+)$/.exec(json.dimensions ?? "");
  const center = /^(-?\d+),(-?\d+)$/.exec(json.centerPoint ?? "");
  if (dims && center) {
    const width = Number(dims[1]);
    const height = Number(dims[2]);
    const left = Number(center[1]) - Math.trunc(width / 2);
    const top = Number(center[2]) - Math.trunc(height / 2);
    return { left, top, right: left + width, bottom: top + height };
  }
  return undefined;
}

const LEGACY_DETAIL_FIELDS = [
  "text",
  "resourceId",
  "accessibilityText",
  "className",
  "hintText",
  "clickable",
  "enabled",
  "focused",
  "checked",
  "selected",
  "focusable",
  "scrollable",
  "password",
] as const;

/**
 * Legacy nodes become `androidMaestro` nodes (the same Maestro field set). Ids: the capture's
 * `nodeId`s (a missing one is 1, upstream's default) when they are unique across the tree;
 * otherwise every node is numbered 1, 2, … in document order and the screen says so (`ids`).
 */
function fromViewHierarchy(file: string, value: unknown, at: PropertyKey[], format: CaptureFormat, size?: Size): Screen {
  const tree = check(file, ViewHierarchySchema, value, at);
  const flat: { json: ViewHierarchyJson; node: ScreenNode }[] = [];
  const build = (json: ViewHierarchyJson, path: PropertyKey[], depth: number, parent?: ScreenNode): ScreenNode => {
    const detail: DriverDetail = { class: "androidMaestro" };
    for (const field of LEGACY_DETAIL_FIELDS) if (json[field] != null) detail[field] = json[field];
    const node: ScreenNode = { id: 0, detail, children: [], depth };
    const bounds = legacyBounds(file, json, path);
    if (bounds) node.bounds = bounds;
    if (parent) node.parent = parent;
    flat.push({ json, node });
    node.children = (json.children ?? []).map((child, i) => build(child, [...path, "children", i], depth + 1, node));
    return node;
  };
  const root = build(tree, at, 0);
  const ids = flat.map(({ json }) => json.nodeId ?? 1);
  const unique = new Set(ids).size === ids.length;
  flat.forEach(({ node }, i) => (node.id = unique ? ids[i]! : i + 1));
  return finish(file, format, unique ? "capture" : "document-order", root, size);
}
