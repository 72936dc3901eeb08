// What the simulated device and a loaded screen say to each other: the actions the device
// records, and the questions a screen engine answers (resolve a selector, find text or a ref,
// hit-test a point, read a node's text, name a node durably, check a waypoint, move on after an
// action).

export interface DeviceAction {
  action: string;
  /** ISO timestamp. */
  at: string;
  /** The validated details of the action (selector, text, coordinates, …). */
  [detail: string]: unknown;
}

export type MatchKind = "singleMatch" | "multipleMatches" | "noMatch";

/** A node of the loaded screen, as the screen engine identifies it. */
export interface ScreenNode {
  /** The capture's own node id. */
  nodeId: string;
  /** One line for messages: `#12 Button "Log in" [0,0][100,40]`. */
  description?: string;
  /** Upstream's MatchDescriptor of the node (findMatches' `matches`). */
  match?: NodeMatch;
}

/** Upstream's MatchDescriptor: where the node is in the tree, its bounds, text and ids. */
export interface NodeMatch {
  indexPath: number[];
  bounds?: { left: number; top: number; right: number; bottom: number };
  matchedText?: string;
  resourceId?: string;
  accessibilityId?: string;
}

export interface SelectorMatch {
  kind: MatchKind;
  /** In upstream's order (top-to-bottom, then left-to-right): the first is the one a tap uses. */
  nodes: ScreenNode[];
  /** On `noMatch`: the nodes that come closest to what was asked, described, for the failure message. */
  closest?: string[];
}

/** A selector as recordings write it (`{ androidAccessibility: { textRegex } }`, legacy `{ textRegex, idRegex }`, …). */
export type Selector = Record<string, unknown>;

/**
 * How text is looked for: `contains` — the text anywhere in a node's text, any case
 * (tapOnElementWithText); `pattern` — the text as a full-string Maestro pattern
 * (assertVisibleWithText, assertNotVisibleWithText).
 */
export type TextMode = "contains" | "pattern";

export interface TextQuery {
  text: string;
  /** Resource id pattern the node must also have. */
  id?: string;
  enabled?: boolean;
  selected?: boolean;
}

/** What an action did to the screen: moved to another waypoint, or left it as it was (and why). */
export interface ScreenMove {
  moved: boolean;
  /** One line for the step's output: `moved from a to b (shortcut s)` / `screen unchanged at a: …`. */
  message: string;
}

/** What a loaded screen answers. Kept small: the engine decides how selectors and text match. */
export interface DeviceScreen {
  /** Resolves a recorded selector; a malformed one throws (the step fails with the selector error). */
  resolve(selector: Selector): SelectorMatch;
  findByText(query: TextQuery, mode: TextMode): SelectorMatch;
  /** The node with snapshot ref `ref`: the ref the agent's outline shows (`n12`, or a web or compose element id such as `e5`). */
  findByRef(ref: string): SelectorMatch;
  /**
   * The node selector a recording keeps for a node found here (what `tap` by ref is recorded as):
   * one that finds it alone on this screen; undefined when nothing but its place names it.
   */
  selectorOf(node: ScreenNode): Selector | undefined;
  /** The node a tap at a point lands on, if any. */
  hitTest(x: number, y: number): ScreenNode | undefined;
  /** The text a node shows, if any. */
  textOf(node: ScreenNode): string | undefined;
  /** Whether the current screen satisfies waypoint `id`; `detail` says which selectors failed. */
  checkWaypoint(id: string): { ok: boolean; detail: string };
  /** Tool `tool` acted on the device with `args` (as called): move to the screen it leads to, or stay. */
  apply(tool: string, args: Record<string, unknown>): Promise<ScreenMove>;
}
