// The in-memory screen every capture format normalises to: a tree of nodes with ids, bounds and
// one driver's detail (upstream's TrailblazeNode / DriverNodeDetail), plus per-driver helpers
// (the text a node shows, whether it is interactive or identifiable, a one-line description).

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export const DRIVER_CLASSES = ["androidAccessibility", "androidMaestro", "iosMaestro", "iosAxe", "web", "compose"] as const;
export type DriverClass = (typeof DRIVER_CLASSES)[number];

/**
 * A node's driver-specific properties, keyed by upstream's field names. `class` says which driver
 * captured it; absent fields take upstream's defaults when matched (`isEnabled`/`enabled` true,
 * other booleans false, `nthIndex`/`inputType` 0).
 */
export interface DriverDetail {
  class: DriverClass;
  [field: string]: unknown;
}

export interface ScreenNode {
  /** The capture's own `nodeId` (legacy trees without unique ids: 1, 2, … in document order). */
  id: number;
  ref?: string;
  bounds?: Bounds;
  detail: DriverDetail;
  children: ScreenNode[];
  parent?: ScreenNode;
  /** 0 for the root. */
  depth: number;
}

export type CaptureFormat = "trailblazeNode" | "viewHierarchy" | "waypointCapture";

export interface Screen {
  /** The file it was loaded from, as given (for messages). */
  file: string;
  format: CaptureFormat;
  /** `capture`: ids are the capture's `nodeId`s; `document-order`: assigned 1, 2, … in pre-order. */
  ids: "capture" | "document-order";
  root: ScreenNode;
  /** Every node in pre-order (document order). */
  nodes: ScreenNode[];
  byId: Map<number, ScreenNode>;
  width: number;
  height: number;
  /** The waypoint a waypoint capture was taken at. */
  waypointId?: string;
  /** The screenshot a waypoint capture names (`screenshotFile`: a file name in the capture's folder), as written. */
  screenshotFile?: string;
  /** The screenshot beside the capture (the one it names, else `<name>.example.webp`/`.png`), when it was loaded from a file that has one. */
  screenshot?: string;
  /** Why the screenshot beside the capture is left out before it is read (a link out of the map or capture folder). */
  screenshotNote?: string;
}

function str(detail: DriverDetail, field: string): string | undefined {
  const value = detail[field];
  return typeof value === "string" ? value : undefined;
}

function notBlank(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/** The text a node shows, by upstream's per-driver priority (e.g. text > hintText > contentDescription on Android). */
export function nodeText(detail: DriverDetail): string | undefined {
  switch (detail.class) {
    case "androidAccessibility":
      return str(detail, "text") ?? str(detail, "hintText") ?? str(detail, "contentDescription");
    case "androidMaestro":
    case "iosMaestro":
      return str(detail, "text") ?? str(detail, "hintText") ?? str(detail, "accessibilityText");
    case "iosAxe":
      return [str(detail, "label"), str(detail, "value"), str(detail, "title")].find(notBlank);
    case "compose":
      return str(detail, "editableText") ?? str(detail, "text") ?? str(detail, "contentDescription");
    case "web":
      return str(detail, "ariaName");
  }
}

/** The developer id a Maestro-style `idRegex` matches: resourceId, or the driver's equivalent. */
export function nodeResourceId(detail: DriverDetail): string | undefined {
  switch (detail.class) {
    case "androidAccessibility":
    case "androidMaestro":
    case "iosMaestro":
      return str(detail, "resourceId");
    case "iosAxe":
      return str(detail, "uniqueId");
    case "compose":
      return str(detail, "testTag");
    case "web":
      return str(detail, "dataTestId");
  }
}

/** The node's type for display: the short class name, role or element type. */
export function nodeType(detail: DriverDetail): string | undefined {
  switch (detail.class) {
    case "androidAccessibility":
    case "androidMaestro":
      return str(detail, "className")?.split(".").pop();
    case "iosMaestro":
      return str(detail, "className");
    case "iosAxe":
      return str(detail, "type") ?? str(detail, "role");
    case "compose":
      return str(detail, "role");
    case "web":
      return str(detail, "ariaRole");
  }
}

const AXE_INTERACTIVE_ROLES = new Set([
  "AXButton",
  "AXLink",
  "AXTextField",
  "AXSecureTextField",
  "AXSearchField",
  "AXSwitch",
  "AXSlider",
  "AXCheckBox",
  "AXMenuItem",
  "AXPopUpButton",
  "AXRadioButton",
  "AXSegmentedControl",
  "AXStepper",
  "AXComboBox",
  "AXToolbarButton",
  "AXBackButton",
  "AXPickerWheel",
  "AXTab",
  "AXCell",
]);

/** Whether a user can act on the node (tap, type, scroll), by each driver's own signals. */
export function isInteractive(detail: DriverDetail): boolean {
  const on = (field: string) => detail[field] === true;
  switch (detail.class) {
    case "androidAccessibility":
      return on("isClickable") || on("isLongClickable") || on("isFocusable") || on("isScrollable") || on("isEditable") || on("isCheckable");
    case "androidMaestro":
    case "iosMaestro":
      return on("clickable") || on("focusable") || on("scrollable");
    case "iosAxe": {
      const actions = detail.customActions;
      const role = str(detail, "role");
      return (Array.isArray(actions) && actions.length > 0) || (role !== undefined && AXE_INTERACTIVE_ROLES.has(role));
    }
    case "compose":
      return on("hasClickAction") || on("hasScrollAction");
    case "web":
      return on("isInteractive");
  }
}

const IDENTIFYING: Record<DriverClass, readonly string[]> = {
  androidAccessibility: ["text", "resourceId", "uniqueId", "composeTestTag", "contentDescription", "hintText", "className"],
  androidMaestro: ["text", "resourceId", "accessibilityText", "hintText"],
  iosMaestro: ["text", "resourceId", "accessibilityText", "hintText"],
  iosAxe: ["label", "value", "uniqueId", "title"],
  compose: ["testTag", "role", "text", "editableText", "contentDescription"],
  web: ["ariaRole", "ariaName", "ariaDescriptor", "cssSelector", "dataTestId"],
};

/** Whether a selector could name the node by one of its own properties (not only by position). */
export function hasIdentifiableProperties(detail: DriverDetail): boolean {
  return IDENTIFYING[detail.class].some((field) => notBlank(str(detail, field)));
}

function formatBounds(bounds: Bounds | undefined): string {
  return bounds ? `[${bounds.left},${bounds.top}][${bounds.right},${bounds.bottom}]` : "[no bounds]";
}

/** `#12 Button "Log in" [0,0][100,40]`: id, type, text, bounds. */
export function describeNode(node: ScreenNode): string {
  const parts = [`#${node.id}`];
  const type = nodeType(node.detail);
  if (type) parts.push(type);
  const text = nodeText(node.detail);
  if (text !== undefined) parts.push(JSON.stringify(text));
  const id = nodeResourceId(node.detail);
  if (id && node.detail.class !== "web") parts.push(`id=${id}`);
  parts.push(formatBounds(node.bounds));
  return parts.join(" ");
}

/** The node and all its descendants, in pre-order. */
export function subtree(node: ScreenNode): ScreenNode[] {
  const out: ScreenNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
  }
  return out;
}

export function centerOf(bounds: Bounds): { x: number; y: number } {
  return { x: Math.trunc((bounds.left + bounds.right) / 2), y: Math.trunc((bounds.top + bounds.bottom) / 2) };
}

/**
 * The ref the agent's outline shows for a node and `tap`/`assertVisible` accept: the capture's own
 * ref where it has one (a web or compose element id such as `e5`), else `n` and the node id (`n12`).
 */
export function refOf(node: ScreenNode): string {
  return node.ref ?? `n${node.id}`;
}

/** The nodes `ref` names on `screen`: those with that ref, else for `n<id>` the node with that id. */
export function nodesByRef(screen: Screen, ref: string): ScreenNode[] {
  const wanted = ref.trim().replace(/^\[(.*)]$/, "$1");
  const own = screen.nodes.filter((n) => n.ref === wanted);
  if (own.length > 0) return own;
  const byId = /^n(\d+)$/.exec(wanted);
  const node = byId ? screen.byId.get(Number(byId[1])) : undefined;
  return node && node.ref === undefined ? [node] : [];
}
