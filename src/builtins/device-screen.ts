// What the simulated device and a loaded screen say to each other: the actions the device
// records, and the questions a screen engine answers (resolve a selector, find text, hit-test a
// point, read a node's text, move on after an action).

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
}

export interface SelectorMatch {
  kind: MatchKind;
  nodes: ScreenNode[];
}

/** A selector as recordings write it (`{ androidAccessibility: { textRegex } }`, `{ ref }`, `{ web: { cssSelector } }`, …). */
export type Selector = Record<string, unknown>;

/** What a loaded screen answers. Kept minimal: the engine decides how selectors and text match. */
export interface DeviceScreen {
  resolve(selector: Selector): SelectorMatch;
  /** Elements showing `text` (upstream treats it as a regular expression). */
  findByText(text: string): SelectorMatch;
  /** The topmost node at a point, if any. */
  hitTest(x: number, y: number): ScreenNode | undefined;
  /** The text a node shows, if any. */
  textOf(node: ScreenNode): string | undefined;
  /** An action happened on the device (tap, swipe, back…): move to the screen it leads to. */
  apply(action: DeviceAction): void;
}
