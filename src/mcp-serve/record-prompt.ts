// The `record-trail` MCP prompt: tells an agent how to record a trail with the control tools of
// the mode the server runs in (`--record`, `--trail`), or how to start one when it runs in neither.

import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { CONTROL_TOOLS, type RecordingMode } from "./control-tools.ts";

export const RECORD_PROMPT_NAME = "record-trail";

export const RECORD_PROMPT: Prompt = {
  name: RECORD_PROMPT_NAME,
  title: "Record a Trailblaze trail",
  description: "How to record a trail with this session's tools: what to call, in which order, and what gets written.",
  arguments: [
    {
      name: "goal",
      description: 'What the trail should do (with --record), e.g. "open the theme picker from the day view"',
      required: false,
    },
  ],
};

const COMMON = [
  "Each successful call of a session tool is recorded; a failed call is not, so retry with other arguments until it succeeds.",
  "Prefer tools that name what they act on (tapOnElementBySelector, tapOnElementWithText, assertVisibleWithText) over coordinates: the recording must replay on the same screens.",
  "Where a secret is needed, pass {{KEY}} for a --secret KEY of the session: it is replaced before the call and recorded as written (a secret's value typed out is recorded as {{KEY}} too).",
  `${CONTROL_TOOLS.discardStep} forgets the current step's calls so far; it does not move the device back.`,
];

function recordText(file: string, goal: string | undefined): string {
  return [
    `Record a new trail into ${file}${goal ? ` that does this: ${goal}` : ""}.`,
    "",
    `1. Call ${CONTROL_TOOLS.beginStep} {"step": "<what this step does, in plain words>"}. It returns the current screen (outline, and waypoint on an app map).`,
    "2. Do that step with the session's tools.",
    `3. Call ${CONTROL_TOOLS.completeStep}, then begin the next step. Finish with a step that checks where the app should be: ${CONTROL_TOOLS.beginStep} {"step": "…", "verify": true}, then an assertion (e.g. assertWaypoint or assertVisibleWithText).`,
    "",
    ...COMMON,
    `${file} is rewritten after every recorded call; \`trailblaze run ${file}\` with the same session flags replays it.`,
  ].join("\n");
}

function trailText(file: string): string {
  return [
    `Fill in the steps of ${file} that have no recording yet.`,
    "",
    `1. Call ${CONTROL_TOOLS.nextStep}. It replays the recorded steps and returns the first step without a recording: {index, step, done}, with the current screen (outline, and waypoint on an app map).`,
    "2. Do what that step says with the session's tools (a verify: step: call the assertion that checks it).",
    `3. Call ${CONTROL_TOOLS.completeStep}: the step's calls are written to ${file} as its recording, replay goes on, and the next step without a recording is returned.`,
    "4. Repeat until done is true.",
    "",
    ...COMMON,
    `Then \`trailblaze run ${file}\` with the same session flags replays the whole trail.`,
  ].join("\n");
}

/** The prompt's text for the server's mode; `goal` is the optional prompt argument. */
export function recordPromptResult(mode: RecordingMode | undefined, goal: string | undefined): GetPromptResult {
  const text =
    mode === undefined
      ? "This trailblaze mcp server was started without a trail file, so nothing is recorded. To record, start it with " +
        "--record FILE (a new trail from the steps you make) or --trail FILE (fill in the steps of an existing trail that have no " +
        "recording), with the same session flags you will replay with; then get this prompt again."
      : mode.kind === "record"
        ? recordText(mode.file, goal)
        : trailText(mode.file);
  return { description: RECORD_PROMPT.description!, messages: [{ role: "user", content: { type: "text", text } }] };
}
