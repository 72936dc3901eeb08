// What one request to the model says, built afresh for every turn, with what upstream's agent sends
// (trailblaze_base_system_prompt.md, trailblaze_system_prompt.md, TrailblazeAiRunnerMessages), in
// our own words. The system text: the rules (prompts/base.md), the device or browser and its hints
// (prompts/mobile.md, prompts/web.md, with the device described), and the trail's `config.context`.
// The user text: the objective; what came before it in the trail; the remembered values (at most
// 50, each cut at 200 characters and escaped onto one line; a secret only by its placeholder); the
// last status the model reported; a hint when it is repeating itself; the objective again with the
// guidance for its shape (a verification, a condition, a branch, several steps); the calls made
// for it so far; and the screen now.

import type { Platform } from "../core/drivers.ts";
import BASE from "./prompts/base.md" with { type: "text" };
import MOBILE from "./prompts/mobile.md" with { type: "text" };
import WEB from "./prompts/web.md" with { type: "text" };

export interface DoneCall {
  tool: string;
  args: Record<string, unknown>;
  /** What came back: the tool's message, or why the call was refused. */
  outcome: string;
  ok: boolean;
}

interface SystemInput {
  platform: Platform;
  /** The device or browser, as the platform text names it: `Android device (1080x2400 pixels, android-ondevice-accessibility)`. */
  device: string;
  /** The trail's `config.context`, added as upstream adds it to the system prompt. */
  context?: string | undefined;
}

/** The system text: the rules, the device's text with the device described, and the trail's context. */
export function systemPrompt(input: SystemInput): string {
  const platform = (input.platform === "WEB" ? WEB : MOBILE).replaceAll("{{device_description}}", input.device);
  const context = input.context?.trim() ? `\n\n**About this test (its config.context)**\n${input.context.trim()}` : "";
  return `${BASE.trim()}\n\n${platform.trim()}${context}`;
}

interface PromptInput {
  objective: string;
  verify: boolean;
  /** The trail's objectives done before this one, in order (upstream shows the last, and how many more). */
  earlier?: readonly string[] | undefined;
  /** Memory keys: a secret's value is replaced by its placeholder. */
  memory: Record<string, unknown>;
  secretKeys: readonly string[];
  /** The status the model last reported for this objective with objectiveStatus, unless COMPLETED. */
  lastStatus?: string | undefined;
  /** Stuck detection's warning for this turn (agent-progress.ts). */
  stuck?: string | undefined;
  done: readonly DoneCall[];
  /** A note for this turn (e.g. the last answer called no tool). */
  note?: string;
  screen: string;
  /** The run's secrets masked out of a value: applied before any cut, so a cut never leaves a secret's first characters. */
  mask<T>(value: T): T;
}

/** Upstream's caps on the remembered values a request shows (TrailblazeAiRunnerMessages). */
const MAX_REMEMBERED_VALUES = 50;
const MAX_REMEMBERED_VALUE_LENGTH = 200;

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A remembered value on one line: cut, then escaped, so a value cannot open a section of its own. */
function rememberedValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return clip(text, MAX_REMEMBERED_VALUE_LENGTH)
    .replaceAll("\\", "\\\\")
    .replaceAll('"', '\\"')
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r");
}

/** An objective that starts with a condition (`If the banner shows, close it`). */
const CONDITIONAL = /^if\s+\S/i;
/** …that also says what to do otherwise: one branch must still be done. */
const ELSE_BRANCH = /\b(otherwise|but if|else if|else)\b/i;
const MULTI_STEP = [" and then ", " then ", " followed by ", " after that "];

/** What finishing means for an objective of this shape (upstream's completion guidance). */
function completionGuidance(objective: string, verify: boolean): string[] {
  const startsWithIf = CONDITIONAL.test(objective.trimStart());
  const branching = startsWithIf && ELSE_BRANCH.test(objective);
  const conditional = startsWithIf && !branching;
  const multiStep = MULTI_STEP.some((words) => objective.toLowerCase().includes(words));
  const lines: string[] = [];
  if (branching)
    lines.push(
      "This objective branches (if … otherwise): work out which condition holds and do that branch's action. It is not done until one branch's action is.",
    );
  else if (conditional)
    lines.push(
      "This objective is conditional: when its condition does not hold (what it names is not there), call objectiveStatus COMPLETED; finding nothing to do is the right outcome, not a failure.",
    );
  if (multiStep) lines.push("This objective has several steps: do every one of them before COMPLETED.");
  if (!multiStep && !verify)
    lines.push(
      "A single action is done once it succeeded: do not wait for the element you acted on to stay visible (screens change after a tap).",
    );
  lines.push("A tool that answered ok usually did its work, even when the screen changed more than you expected.");
  lines.push(
    conditional
      ? "Call FAILED only on a clear error (an error dialog, a crash) or after several different approaches failed."
      : "Call FAILED when what the objective needs is not on the screen and cannot be reached, on a clear error (an error dialog, a crash), or after several different approaches failed.",
  );
  return lines.map((line) => `- ${line}`);
}

export function promptText(input: PromptInput): string {
  const parts = [`## Objective\n${input.objective}`];
  const earlier = [...new Set(input.earlier ?? [])];
  if (earlier.length > 0) {
    const more = earlier.length > 1 ? `\n- (and ${earlier.length - 1} objective(s) before it)` : "";
    parts.push(`## Done before this objective\n- [x] ${earlier.at(-1)}${more}`);
  }
  const keys = Object.keys(input.memory);
  if (keys.length > 0) {
    const secret = new Set(input.secretKeys);
    const lines = keys
      .slice(0, MAX_REMEMBERED_VALUES)
      .map((key) =>
        secret.has(key) ? `- ${key}: secret, write {{${key}}}` : `- ${key}: "${rememberedValue(input.mask(input.memory[key]))}"`,
      );
    if (keys.length > MAX_REMEMBERED_VALUES) lines.push(`- (${keys.length - MAX_REMEMBERED_VALUES} more value(s) not shown)`);
    parts.push(`## Remembered values\n${lines.join("\n")}`);
  }
  if (input.lastStatus && input.lastStatus !== "COMPLETED") parts.push(`## Your last status\n${input.lastStatus}`);
  if (input.stuck) parts.push(`## You may be stuck\n${input.stuck}`);
  const task = [
    `## What to do\n> ${input.verify ? "Verify" : "Task"}: ${input.objective}`,
    ...(input.verify
      ? [
          "This objective verifies: only check what the screen shows now. Change nothing: tap nothing, type nothing. If what it names is not there, the objective fails at once.",
        ]
      : []),
    "Do this objective and nothing past it.",
    "Call objectiveStatus when it is done, or to report progress: IN_PROGRESS when more actions are needed, COMPLETED when all of it is done, FAILED when it cannot be done after several attempts.",
    `How to tell it is done:\n${completionGuidance(input.objective, input.verify).join("\n")}`,
  ];
  parts.push(task.join("\n\n"));
  if (input.done.length > 0) {
    const lines = input.done.map(
      (call, i) =>
        `${i + 1}. ${call.tool} ${clip(JSON.stringify(input.mask(call.args)), 300)} -> ${call.ok ? "ok" : "FAILED"}: ${clip(input.mask(call.outcome))}`,
    );
    parts.push(`## Done so far for this objective\n${lines.join("\n")}`);
  }
  if (input.note) parts.push(`Note: ${input.note}`);
  parts.push(`## The screen now\n${input.screen}`);
  return parts.join("\n\n");
}
