// Scripted models for `trailblaze eval` tests, answered by the local model server
// (test/support/llm-server.ts): each answers from the request alone (the objective, the calls so far
// and the screen the prompt shows), so runs of many trails on several workers get the same
// answers in any order. `capable` does each objective by a plan of steps, finding each element's
// ref by its words on the screen shown; `hopeless` taps what is not there and gives up.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentWorkspace } from "./agent-workspace.ts";
import { done, type LlmServer, type SeenRequest, type Turn } from "./llm-server.ts";

/** One action of a plan: a tool and the words of the element it acts on (looked up in the outline), or its own arguments. */
export interface PlannedCall {
  tool: string;
  /** The element's words as the outline shows them (`Settings`), or a descriptor (`link "Counter"`); its ref goes into `ref`. */
  on?: string;
  args?: Record<string, unknown>;
}

/** The objective, as the request's "## Objective" section gives it. */
const objectiveOf = (request: SeenRequest) => /^## Objective\n(.*)$/m.exec(request.text)?.[1]?.trim() ?? "";

/** How many calls of this objective succeeded so far (the lines of "## Done so far for this objective" that say ok). */
const succeeded = (request: SeenRequest) => (request.text.match(/^\d+\. \S+ .* -> ok:/gm) ?? []).length;

/** What the last call of this objective answered, when it failed. */
const lastFailure = (request: SeenRequest) => {
  const lines = request.text.match(/^\d+\. \S+ .* -> (?:ok|FAILED): .*$/gm) ?? [];
  return /-> FAILED: (.*)$/.exec(lines.at(-1) ?? "")?.[1];
};

/**
 * The ref of the first element on the screen shown whose text is exactly `words`
 * (`[n7] TextView "Settings"`), or that a descriptor names (`link "Counter"`: `[e5] link "Counter"`).
 */
export function refOn(request: SeenRequest, words: string): string | undefined {
  const screen = request.text.slice(request.text.indexOf("## The screen now"));
  const wanted = words.includes('"') ? words : JSON.stringify(words);
  for (const line of screen.split("\n")) {
    const match = /^\s*\[([a-z]\d+)\]\s+(.*)$/.exec(line);
    if (match && match[2]!.includes(wanted)) return match[1]!;
  }
  return undefined;
}

/**
 * A model that drives the app by a plan for each objective (its words, as the trail writes them):
 * the calls one after another, then objectiveStatus COMPLETED. An objective it has no plan for, an
 * element it cannot find, or a call that failed makes it give up (FAILED, saying why).
 */
export function capable(
  plans: Readonly<Record<string, readonly PlannedCall[]>>,
  usage = { input: 300, output: 20 },
): (request: SeenRequest) => Turn {
  return (request) => {
    const objective = objectiveOf(request);
    const plan = plans[objective];
    if (!plan)
      return { calls: [{ tool: "objectiveStatus", args: { status: "FAILED", explanation: `no plan for "${objective}"` } }], usage };
    const failed = lastFailure(request);
    if (failed !== undefined) return { calls: [{ tool: "objectiveStatus", args: { status: "FAILED", explanation: failed } }], usage };
    const next = plan[succeeded(request)];
    if (!next) return { ...done("done"), usage };
    const ref = next.on === undefined ? undefined : refOn(request, next.on);
    if (next.on !== undefined && ref === undefined)
      return { calls: [{ tool: "objectiveStatus", args: { status: "FAILED", explanation: `no "${next.on}" on the screen` } }], usage };
    return { calls: [{ tool: next.tool, args: { ...(ref ? { ref } : {}), ...next.args } }], usage };
  };
}

/** A model that cannot drive the app: it taps an element that is not on the screen, then gives up. */
export function hopeless(tap = "tap", usage = { input: 500, output: 40 }): (request: SeenRequest) => Turn {
  return (request) =>
    request.text.includes("## Done so far for this objective")
      ? { calls: [{ tool: "objectiveStatus", args: { status: "FAILED", explanation: "I cannot find what the objective names" } }], usage }
      : { calls: [{ tool: tap, args: { ref: tap === "tap" ? "n999" : "e999", reasoning: "a guess" } }], usage };
}

/** Answers each request with the scripted model its body names (`model`). */
export function byModel(models: Readonly<Record<string, (request: SeenRequest) => Turn>>): (request: SeenRequest) => Turn {
  return (request) => {
    const model = models[String(request.body.model)];
    if (!model) return { status: 404, body: { error: { message: `no model ${String(request.body.model)}` } } };
    return model(request);
  };
}

/** What the capable model does for each objective of the calendar's trails. */
export const CALENDAR_PLANS: Record<string, PlannedCall[]> = {
  "Open the navigation drawer": [{ tool: "tap", on: "Open the calendar drawer" }],
  "Open Settings, then General, then Theme": [
    { tool: "tap", on: "Settings" },
    { tool: "tap", on: "General" },
    { tool: "tap", on: "Theme" },
  ],
  "The theme picker offers a dark theme": [{ tool: "assertVisible", on: "Dark" }],
  "The drawer shows Settings": [{ tool: "assertVisible", on: "Settings" }],
};

/** The agent fixture with a second, cheaper model beside test-model ($2 and $8 a million tokens). */
export function evalWorkspace(key: string, llm: LlmServer): string {
  const dir = agentWorkspace(key, llm);
  const anchor = join(dir, "trails/config/trailblaze.yaml");
  writeFileSync(
    anchor,
    readFileSync(anchor, "utf8").replace(
      "        - id: test-model\n",
      "        - id: cheap-model\n          vision: false\n          cost: { input_per_million: 0.5, output_per_million: 2.0 }\n        - id: test-model\n",
    ),
  );
  return dir;
}
