// The screen engine (src/screen/ScreenState) as the simulated device's `DeviceScreen`: recorded
// selectors are parsed and resolved on the current screen, failures carry the closest
// candidates, nodes are described for messages, and actions move the device through its app map.

import { describeNode, nodeResourceId, nodeText, type ScreenNode as EngineNode } from "../screen/screen-model.ts";
import type { Resolution } from "../screen/resolve-selector.ts";
import { nodeSelectorFor } from "../screen/node-selector.ts";
import { parseSelector, type Selector as EngineSelector } from "../screen/selector.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import { textSelector } from "../screen/tool-call.ts";
import type { DeviceScreen, NodeMatch, ScreenMove, ScreenNode, Selector, SelectorMatch, TextMode, TextQuery } from "./device-screen.ts";

/** A node as upstream's MatchDescriptor: its child-index path from the root, bounds, text and ids. */
function matchOf(node: EngineNode): NodeMatch {
  const indexPath: number[] = [];
  for (let at = node; at.parent; at = at.parent) indexPath.unshift(at.parent.children.indexOf(at));
  const text = nodeText(node.detail);
  const resourceId = nodeResourceId(node.detail);
  const accessibilityId = ["accessibilityText", "contentDescription"]
    .map((f) => node.detail[f])
    .find((v): v is string => typeof v === "string");
  return {
    indexPath,
    ...(node.bounds ? { bounds: { ...node.bounds } } : {}),
    ...(text !== undefined ? { matchedText: text } : {}),
    ...(resourceId !== undefined ? { resourceId } : {}),
    ...(accessibilityId !== undefined ? { accessibilityId } : {}),
  };
}

/** A move of the device along a shortcut of its app map. */
interface ScreenMoveRecord {
  from: string;
  to: string;
  shortcut: string;
}

/** What the screen saw since it was last asked: the nodes tools resolved or acted on, the moves, the checks. */
export interface ScreenActivity {
  /** Ids of the nodes handed out (matches, hit nodes, a waypoint's required nodes), in order, once each. */
  nodes: number[];
  moves: ScreenMoveRecord[];
  /** Ids of the map's waypoints the screen was checked against, in order. */
  checks: string[];
  /** Selectors (and text queries, as the selector they resolve) that matched nothing, in order. */
  misses: EngineSelector[];
}

/** `DeviceScreen` over a ScreenState (one static capture, or an app map and its current waypoint). */
export class EngineScreen implements DeviceScreen {
  readonly state: ScreenState;
  /** Engine nodes behind the nodes handed out, so textOf reads the node that was matched. */
  readonly #nodes = new WeakMap<ScreenNode, EngineNode>();
  #seen = new Set<number>();
  #moves: ScreenMoveRecord[] = [];
  #checks: string[] = [];
  #misses: EngineSelector[] = [];

  constructor(state: ScreenState) {
    this.state = state;
  }

  /** The activity since the last call (what a run's report marks on the step's screen), and starts afresh. */
  takeActivity(): ScreenActivity {
    const activity = { nodes: [...this.#seen], moves: this.#moves, checks: this.#checks, misses: this.#misses };
    this.#seen = new Set();
    this.#moves = [];
    this.#checks = [];
    this.#misses = [];
    return activity;
  }

  #node(node: EngineNode): ScreenNode {
    this.#seen.add(node.id);
    const out: ScreenNode = { nodeId: String(node.id), description: describeNode(node), match: matchOf(node) };
    this.#nodes.set(out, node);
    return out;
  }

  #match(resolution: Resolution, wanted: EngineSelector | string, missed?: EngineSelector): SelectorMatch {
    const match: SelectorMatch = { kind: resolution.kind, nodes: resolution.nodes.map((n) => this.#node(n)) };
    if (resolution.kind === "noMatch") {
      match.closest = this.state.closestCandidates(wanted).map(describeNode);
      if (missed) this.#misses.push(missed);
    }
    return match;
  }

  resolve(selector: Selector): SelectorMatch {
    const parsed = parseSelector(selector, "selector");
    return this.#match(this.state.resolve(parsed), parsed, parsed);
  }

  findByText(query: TextQuery, mode: TextMode): SelectorMatch {
    return this.#match(this.state.findByText(query, mode), query.text, textSelector(query, mode));
  }

  findByRef(ref: string): SelectorMatch {
    return this.#match(this.state.findByRef(ref), ref);
  }

  selectorOf(node: ScreenNode): Selector | undefined {
    const engine = this.#nodes.get(node) ?? this.state.screen.byId.get(Number(node.nodeId));
    return engine ? nodeSelectorFor(this.state.screen, engine) : undefined;
  }

  hitTest(x: number, y: number): ScreenNode | undefined {
    const node = this.state.hitTest(x, y);
    return node ? this.#node(node) : undefined;
  }

  textOf(node: ScreenNode): string | undefined {
    const engine = this.#nodes.get(node) ?? this.state.screen.byId.get(Number(node.nodeId));
    return engine ? nodeText(engine.detail) : undefined;
  }

  checkWaypoint(id: string): { ok: boolean; detail: string } {
    const { map, waypoint: at, screen } = this.state;
    if (!map) {
      if (screen.waypointId === id) return { ok: true, detail: `the capture ${screen.file} was taken at ${id}` };
      const taken = screen.waypointId ? ` (a capture of ${screen.waypointId})` : "";
      return {
        ok: false,
        detail: `the device shows the static capture ${screen.file}${taken} and has no app map to check ${id} against (load one with --map DIR --start WAYPOINT_ID)`,
      };
    }
    if (!map.waypoints.has(id))
      return { ok: false, detail: `unknown waypoint "${id}"; the map ${map.dir} has ${[...map.waypoints.keys()].join(", ")}` };
    const check = this.state.checkWaypoint(id);
    this.#checks.push(id);
    // The nodes the check found: required ones present, and forbidden ones present (why it fails).
    for (const found of [...check.required.filter((r) => r.ok), ...check.forbidden.filter((r) => !r.ok)])
      for (const nodeId of found.nodeIds) this.#seen.add(nodeId);
    const where = `the device is at ${at}`;
    if (check.ok) return { ok: true, detail: where };
    if (check.skipped) return { ok: false, detail: `${check.skipped}; ${where}` };
    const failed = [
      ...check.required.filter((r) => !r.ok).map((r) => `required "${r.description}" not found`),
      ...check.forbidden
        .filter((r) => !r.ok)
        .map((r) => `forbidden "${r.description}" found (${r.nodeIds.map((n) => `#${n}`).join(", ")})`),
    ];
    return { ok: false, detail: `${where}: ${failed.join("; ")}` };
  }

  async apply(tool: string, args: Record<string, unknown>): Promise<ScreenMove> {
    const outcome = await this.state.applyAction(tool, args);
    if (outcome.moved) this.#moves.push({ from: outcome.from, to: outcome.to, shortcut: outcome.shortcut });
    return { moved: outcome.moved, message: outcome.message };
  }
}
