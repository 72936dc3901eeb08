// The control tools `trailblaze mcp --record` / `--trail` serve beside the session's tools
// (names under the reserved `trailblaze_` prefix), the contract each recording mode implements,
// and how a control tool's answer becomes a CallToolResult.

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { RESERVED_PREFIX } from "../core/tool-names.ts";
import { ToolCollisionError } from "../errors.ts";
import type { ToolRegistry } from "../registry/registry.ts";
import type { ToolResult } from "../core/tool-result.ts";
import { screenOutline } from "../screen/outline.ts";
import type { ScreenState } from "../screen/screen-state.ts";
import type { Lookup } from "../trail/interpolate.ts";

export const CONTROL_TOOLS = {
  beginStep: `${RESERVED_PREFIX}beginStep`,
  nextStep: `${RESERVED_PREFIX}nextStep`,
  completeStep: `${RESERVED_PREFIX}completeStep`,
  discardStep: `${RESERVED_PREFIX}discardStep`,
} as const;

/** `_meta["trailblaze/source"]` of the control tools, as tools/list shows it. */
export const CONTROL_SOURCE = "trailblaze mcp";

const NO_ARGS = { type: "object", properties: {}, additionalProperties: false } as const;

export const CONTROL_TOOL_DEFINITIONS: Readonly<Record<keyof typeof CONTROL_TOOLS, Tool>> = {
  beginStep: {
    name: CONTROL_TOOLS.beginStep,
    description:
      'Starts a new trail step with this text (what the step does, in plain words, e.g. "Open the settings"); ' +
      "every successful tool call after it is recorded under that step until the next beginStep or completeStep. " +
      "Returns the step's index and the current screen (outline, and waypoint on an app map).",
    inputSchema: {
      type: "object",
      properties: {
        step: { type: "string", description: "The step's text, as `- step:` in the trail file" },
        verify: { type: "boolean", description: "true: a step that checks something (written as `- verify:`); default false" },
      },
      required: ["step"],
      additionalProperties: false,
    },
  },
  nextStep: {
    name: CONTROL_TOOLS.nextStep,
    description:
      "Replays the trail's recorded steps up to the first one without a recording and returns it: {index, step, done} " +
      "plus the current screen (outline, and waypoint on an app map). Do what the step says with the session's tools, " +
      "then call trailblaze_completeStep. done: true means every step has a recording.",
    inputSchema: NO_ARGS,
  },
  completeStep: {
    name: CONTROL_TOOLS.completeStep,
    description:
      "Ends the current step: its successful calls are written to the trail file as the step's recording: tools:. " +
      "With --trail, replay then continues and the next step without a recording is returned, as trailblaze_nextStep does.",
    inputSchema: NO_ARGS,
  },
  discardStep: {
    name: CONTROL_TOOLS.discardStep,
    description:
      "Forgets the calls recorded for the current step so far (the step stays open; make its calls again). " +
      "The device is not rolled back: it stays where those calls left it.",
    inputSchema: NO_ARGS,
  },
};

/** A control tool's answer: JSON text for any client, the same object as structuredContent. */
export function controlResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
    isError,
    _meta: { trailblaze: { variant: isError ? "ExceptionThrown" : "Success" } },
  };
}

/** A control tool refused or failed: the message alone. */
export function controlError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true, _meta: { trailblaze: { variant: "ExceptionThrown" } } };
}

/** What the simulated device shows, for the agent: `{waypoint?, screen?}` (nothing when no screen is loaded). */
export function screenInfo(state: ScreenState | undefined): { waypoint?: string; screen?: string } {
  if (state === undefined) return {};
  return { ...(state.waypoint !== undefined ? { waypoint: state.waypoint } : {}), screen: screenOutline(state.screen) };
}

/** One of the two recording modes (`--record`, `--trail`) of a served session. */
export interface RecordingMode {
  /** `record` or `trail`, for the prompt and messages. */
  readonly kind: "record" | "trail";
  /** The trail file, as given on the command line. */
  readonly file: string;
  /** The control tools this mode serves, in tools/list order. */
  tools(): Tool[];
  /** Answers a control tool call (`name` is one of `tools()`). */
  control(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Why a session tool may not be called now (e.g. `--trail` before trailblaze_nextStep), or undefined. */
  refusal(): string | undefined;
  /** What `{{KEY}}` placeholders in the agent's arguments read: memory (secrets included), and with --trail `args.NAME`. */
  placeholders(): { lookup: Lookup; knownKeys: () => Iterable<string> };
  /** A session tool call ended: `args` as the agent wrote them; recorded when `result` is a Success. */
  called(name: string, args: Record<string, unknown>, result: ToolResult): Promise<void>;
}

/** Throws ToolCollisionError when a session tool has the name of one of the mode's control tools. */
export function checkControlNames(mode: RecordingMode, registry: ToolRegistry): void {
  for (const control of mode.tools()) {
    const taken = registry.get(control.name);
    if (taken) throw new ToolCollisionError(control.name, CONTROL_SOURCE, taken.source);
  }
}
