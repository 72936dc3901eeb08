// The screen a simulated device shows: one static capture, or an app map and the waypoint it is
// at. Resolves selectors and text, hit-tests points, checks waypoints, and applies actions —
// an action that is the recorded action of a shortcut from the current waypoint (the same target
// node by any tap tool, or the same tool with the same key or arguments) moves the device to the
// shortcut's `to` waypoint.

import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../errors.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import type { AppMap } from "./app-map.ts";
import { closestNodes, wantedStrings } from "./closest-candidates.ts";
import { hitTest } from "./hit-test.ts";
import { resolveSelector, type Resolution } from "./resolve-selector.ts";
import { centerOf, describeNode, nodesByRef, type Screen, type ScreenNode } from "./screen-model.ts";
import type { Selector } from "./selector.ts";
import { actionOf, type Shortcut } from "./shortcut.ts";
import { callTarget, textSelector, type CallTarget, type TextQuery } from "./tool-call.ts";
import { checkWaypoint, type WaypointCheck } from "./waypoint.ts";

type ActionOutcome =
  | { moved: true; from: string; to: string; shortcut: string; message: string }
  | { moved: false; reason: string; message: string };

export class ScreenState {
  #screen: Screen;
  #waypoint: string | undefined;
  readonly map: AppMap | undefined;

  private constructor(screen: Screen, map?: AppMap, waypoint?: string) {
    this.#screen = screen;
    this.map = map;
    this.#waypoint = waypoint;
  }

  /** A device that always shows one capture. */
  static fromCapture(screen: Screen): ScreenState {
    return new ScreenState(screen);
  }

  /** A device at waypoint `start` of `map`; the waypoint must exist and have a capture. */
  static async fromMap(map: AppMap, start: string): Promise<ScreenState> {
    const screen = await captureOf(map, start, "start");
    return new ScreenState(screen, map, start);
  }

  get screen(): Screen {
    return this.#screen;
  }

  /** The current waypoint id (undefined for a static capture). */
  get waypoint(): string | undefined {
    return this.#waypoint;
  }

  resolve(selector: Selector): Resolution {
    return resolveSelector(this.#screen, selector);
  }

  /** As tapOnElementWithText (`contains`: the text anywhere, any case) or assertVisibleWithText (`pattern`). */
  findByText(query: TextQuery, mode: "contains" | "pattern"): Resolution {
    return this.resolve(textSelector(query, mode));
  }

  /** The nodes snapshot ref `ref` names (`n12`, or a capture's own ref such as `e5`). */
  findByRef(ref: string): Resolution {
    const nodes = nodesByRef(this.#screen, ref);
    return { kind: nodes.length === 0 ? "noMatch" : nodes.length === 1 ? "singleMatch" : "multipleMatches", nodes };
  }

  /** The node a tap at (x, y) lands on. */
  hitTest(x: number, y: number): ScreenNode | undefined {
    return hitTest(this.#screen, x, y);
  }

  /** Up to three nodes whose text or id come closest to a selector's (or a text's) wanted strings. */
  closestCandidates(wanted: Selector | string, max = 3): ScreenNode[] {
    return closestNodes(this.#screen, typeof wanted === "string" ? [wanted] : wantedStrings(wanted), max);
  }

  /** Checks the current screen against a waypoint of the map. */
  checkWaypoint(id: string, platform?: string): WaypointCheck {
    const waypoint = this.map?.waypoints.get(id);
    if (!waypoint)
      throw new ConfigError([
        { file: this.map?.dir ?? this.#screen.file, line: 0, col: 0, path: "", message: unknownWaypoint(this.map, id) },
      ]);
    return checkWaypoint(this.#screen, waypoint, platform);
  }

  /** The node a call acts on here (the first match for a selector, the hit for a point). */
  targetNode(target: CallTarget): ScreenNode | undefined {
    if (target.kind === "selector") return this.resolve(target.selector).nodes[0];
    if (target.kind === "point") return this.hitTest(target.x, target.y);
    if (target.kind === "ref") return this.findByRef(target.ref).nodes[0];
    return undefined;
  }

  /**
   * Applies a tool call to the screen. When it is the recorded action of a shortcut from the
   * current waypoint, the device moves to the shortcut's `to` waypoint; otherwise it stays, and
   * the outcome says why. Selector errors in `args` throw SelectorError.
   */
  async applyAction(toolName: string, args: Record<string, unknown>): Promise<ActionOutcome> {
    if (!this.map || this.#waypoint === undefined) {
      return { moved: false, reason: "static", message: `screen unchanged: a static capture (${this.#screen.file}) has no shortcuts` };
    }
    const from = this.#waypoint;
    const candidates = this.map.outgoing.get(from) ?? [];
    const live = callTarget(toolName, args, toolName);
    const liveNode = this.targetNode(live);
    for (const shortcut of candidates) {
      if (this.#sameAction(shortcut, toolName, args, live, liveNode)) {
        this.#screen = await captureOf(this.map, shortcut.to, `shortcut ${shortcut.id} to`);
        this.#waypoint = shortcut.to;
        return {
          moved: true,
          from,
          to: shortcut.to,
          shortcut: shortcut.id,
          message: `moved from ${from} to ${shortcut.to} (shortcut ${shortcut.id})`,
        };
      }
    }
    const on = liveNode ? ` on ${describeNode(liveNode)}` : "";
    const reason = candidates.length === 0 ? "no-shortcuts" : "no-matching-shortcut";
    const why =
      candidates.length === 0
        ? `no shortcut starts at ${from}`
        : `no shortcut from ${from} records ${toolName}${on} (its shortcuts: ${candidates.map((s) => s.id).join(", ")})`;
    return { moved: false, reason, message: `screen unchanged at ${from}: ${why}` };
  }

  #sameAction(
    shortcut: Shortcut,
    toolName: string,
    args: Record<string, unknown>,
    live: CallTarget,
    liveNode: ScreenNode | undefined,
  ): boolean {
    const action = actionOf(shortcut);
    // Upstream recognises a shortcut by the node its action lands on: any tap tool on that node.
    if (!action || (action.name !== toolName && !(isTap(action.name) && isTap(toolName)))) return false;
    const recorded = callTarget(action.name, action.args, `${shortcut.id} ${action.name}`);
    if (recorded.kind === "key" || live.kind === "key") return recorded.kind === "key" && live.kind === "key" && recorded.key === live.key;
    if (recorded.kind === "selector" || recorded.kind === "point" || recorded.kind === "ref") {
      const node = this.targetNode(recorded);
      return node !== undefined && node === liveNode;
    }
    if (action.name !== toolName) return false;
    const strip = (a: Record<string, unknown>) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== "reason"));
    return isDeepStrictEqual(strip(action.args), strip(args));
  }

  /** Moves the device to waypoint `id` of the map (a shortcut or trailhead run as a whole); `role` names who asked, for errors. */
  async moveTo(id: string, role: string): Promise<void> {
    if (!this.map)
      throw new ConfigError([
        { file: this.#screen.file, line: 0, col: 0, path: "", message: `${role}: ${unknownWaypoint(undefined, id)}` },
      ]);
    this.#screen = await captureOf(this.map, id, role);
    this.#waypoint = id;
  }

  /** Where a tap on the call's target lands: the target's center. */
  tapPoint(target: CallTarget): { x: number; y: number } | undefined {
    if (target.kind === "point") return { x: target.x, y: target.y };
    const node = this.targetNode(target);
    return node?.bounds ? centerOf(node.bounds) : undefined;
  }
}

/** A tool that taps a node (tap, tapOnElementWithText, tapOnElementBySelector, tapOnPoint, web_click, …). */
function isTap(name: string): boolean {
  return /^(?:[a-z]+_)?(?:tap(?:On[A-Za-z]*)?|click)$/.test(name);
}

function unknownWaypoint(map: AppMap | undefined, id: string): string {
  if (!map) return `no app map is loaded, so there is no waypoint "${id}"`;
  const ids = [...map.waypoints.keys()];
  // A real map has a hundred waypoints: name them all only when there are few.
  if (ids.length <= 8) return `unknown waypoint "${id}"; the map has ${ids.join(", ")}`;
  return `unknown waypoint "${id}"${didYouMean(id, ids)}; the map has ${ids.length} waypoints, one per waypoints/*.waypoint.yaml`;
}

async function captureOf(map: AppMap, id: string, role: string): Promise<Screen> {
  if (!map.waypoints.has(id))
    throw new ConfigError([{ file: map.dir, line: 0, col: 0, path: "", message: `${role}: ${unknownWaypoint(map, id)}` }]);
  const screen = await map.capture(id);
  if (!screen)
    throw new ConfigError([
      {
        file: map.waypoints.get(id)!.file,
        line: 0,
        col: 0,
        path: "",
        message: `${role}: waypoint ${id} has no capture (<name>.example.json beside it), so the device cannot show it`,
      },
    ]);
  return screen;
}
