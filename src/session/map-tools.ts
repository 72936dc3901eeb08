// A session's app map as tools, as upstream exposes them: each shortcut and each trailhead is a
// tool named by its `id`, taking its `parameters:`. A shortcut must start at its `from` waypoint;
// its recorded calls run in order through the session (so the simulated device moves as any call
// moves it), and it must end at `to` (when its calls left the device at `from`, the device takes
// the edge itself). A trailhead runs its calls from anywhere and lands at `to`. Either then checks
// the `to` waypoint's selectors on the screen, as upstream's post-condition does. Without a
// simulated map, a trailmap's own shortcuts and trailheads are still tools: their calls run, and the
// result is unverified (nothing says where the device was or is).

import { unverified } from "../builtins/screen-checks.ts";
import { exceptionThrown, isSuccess, success, type ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import { expandComposedTool, type ComposedDefinition } from "../scripting/composed-tool.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import type { NavigationParameter, Shortcut, Trailhead } from "../screen/shortcut.ts";

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

function inputSchema(parameters: NavigationParameter[]): Record<string, unknown> {
  const properties = Object.fromEntries(
    parameters.map((p) => [
      p.name,
      {
        type: p.type,
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(p.hasDefault ? { default: p.default } : {}),
      },
    ]),
  );
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

function definition(edge: Trailhead): ComposedDefinition {
  return {
    id: edge.id,
    parameters: edge.parameters.map((p) => ({
      name: p.name,
      required: p.required,
      hasDefault: p.hasDefault,
      ...(p.hasDefault ? { default: p.default } : {}),
    })),
    tools: edge.tools.map((call) => ({ [call.name]: call.args })),
  };
}

const messageOf = (result: ToolResult): string => ((result as { message?: unknown }).message as string) ?? "failed";

/** Runs the edge's calls in order; the first failure is the tool's failure, naming the call. */
async function runCalls(edge: Trailhead, args: Record<string, unknown>, call: Call): Promise<ToolResult | undefined> {
  let calls: Array<[string, Record<string, unknown>]>;
  try {
    calls = expandComposedTool(definition(edge), args);
  } catch (error) {
    return exceptionThrown(error instanceof Error ? error.message : String(error));
  }
  for (const [index, [name, callArgs]] of calls.entries()) {
    const result = await call(name, callArgs);
    if (!isSuccess(result))
      return exceptionThrown(`${edge.id}: call ${index + 1} of ${calls.length} (${name}) failed: ${messageOf(result)} (${edge.file})`);
  }
  return undefined;
}

/** Upstream's post-condition: the screen now satisfies the `to` waypoint. */
function arrived(kind: string, edge: Trailhead, state: ScreenState, moved: string): ToolResult {
  const check = state.checkWaypoint(edge.to);
  if (check.skipped) return exceptionThrown(`${kind} ${edge.id}: the device is at ${edge.to} but it cannot be checked: ${check.skipped}`);
  const failed = [
    ...check.required.filter((r) => !r.ok).map((r) => `required "${r.description}" not found`),
    ...check.forbidden.filter((r) => !r.ok).map((r) => `forbidden "${r.description}" found`),
  ];
  if (failed.length > 0)
    return exceptionThrown(`${kind} ${edge.id}: the device is at ${edge.to} but the screen does not satisfy it: ${failed.join("; ")}`);
  return success(`${moved} (${kind} ${edge.id})`, { structuredContent: { waypoint: edge.to } });
}

function shortcutTool(shortcut: Shortcut, state: ScreenState, call: Call): (args: Record<string, unknown>) => Promise<ToolResult> {
  return async (args) => {
    const at = state.waypoint;
    if (at !== shortcut.from) {
      const from = state.map?.outgoing.get(at ?? "")?.map((s) => s.id) ?? [];
      const others = from.length > 0 ? `; shortcuts from ${at}: ${from.join(", ")}` : "";
      return exceptionThrown(
        `shortcut ${shortcut.id} goes from ${shortcut.from}, but the device is at ${at}; call it from ${shortcut.from}${others}`,
      );
    }
    const failed = await runCalls(shortcut, args, call);
    if (failed) return failed;
    if (state.waypoint === shortcut.from) await state.moveTo(shortcut.to, `shortcut ${shortcut.id} to`);
    if (state.waypoint !== shortcut.to) {
      return exceptionThrown(`shortcut ${shortcut.id} should end at ${shortcut.to}, but its calls took the device to ${state.waypoint}`);
    }
    return arrived("shortcut", shortcut, state, `moved from ${shortcut.from} to ${shortcut.to}`);
  };
}

function trailheadTool(trailhead: Trailhead, state: ScreenState, call: Call): (args: Record<string, unknown>) => Promise<ToolResult> {
  return async (args) => {
    const from = state.waypoint;
    const failed = await runCalls(trailhead, args, call);
    if (failed) return failed;
    if (state.waypoint !== trailhead.to) await state.moveTo(trailhead.to, `trailhead ${trailhead.id} to`);
    return arrived("trailhead", trailhead, state, `moved from ${from} to ${trailhead.to}`);
  };
}

function navigationTool(
  edge: Trailhead,
  kind: "shortcut" | "trailhead",
  source: string,
  invoke: (args: Record<string, unknown>) => Promise<ToolResult>,
): RegisteredTool {
  const summary = kind === "shortcut" ? `shortcut ${(edge as Shortcut).from} → ${edge.to}` : `trailhead → ${edge.to}`;
  return {
    name: edge.id,
    description: `${edge.description?.trim() ?? `The ${kind} ${edge.id}.`} (${summary})`,
    inputSchema: inputSchema(edge.parameters),
    rawMeta: {},
    meta: readToolMeta({}).meta,
    source,
    transport: "builtin",
    invoke: ({ args }) => invoke(args),
  };
}

/**
 * The tools of `state`'s app map (none for a static capture), calling other tools through `call`.
 * Metadata-only trailheads (no `tools:`) mark a tool registered elsewhere and are not tools here.
 */
export function mapTools(state: ScreenState, source: string, call: Call): RegisteredTool[] {
  const map = state.map;
  if (!map) return [];
  return [
    ...map.shortcuts.map((s) => navigationTool(s, "shortcut", source, shortcutTool(s, state, call))),
    ...map.trailheads.filter((t) => t.tools.length > 0).map((t) => navigationTool(t, "trailhead", source, trailheadTool(t, state, call))),
  ];
}

/** A trailmap's shortcuts and trailheads with no simulated map: their calls run; where the device is stays unverified. */
export function unmappedTools(edges: { shortcuts: Shortcut[]; trailheads: Trailhead[] }, source: string, call: Call): RegisteredTool[] {
  const unchecked = (edge: Trailhead, kind: "shortcut" | "trailhead") => async (args: Record<string, unknown>) => {
    const failed = await runCalls(edge, args, call);
    if (failed) return failed;
    const from = kind === "shortcut" ? `at ${(edge as Shortcut).from} before or ` : "";
    return unverified(
      "no app map loaded",
      `${kind} ${edge.id} ran ${edge.tools.map((t) => t.name).join(", ")}; would check that the device was ${from}at ${edge.to} after`,
    );
  };
  return [
    ...edges.shortcuts.map((s) => navigationTool(s, "shortcut", source, unchecked(s, "shortcut"))),
    ...edges.trailheads.filter((t) => t.tools.length > 0).map((t) => navigationTool(t, "trailhead", source, unchecked(t, "trailhead"))),
  ];
}
