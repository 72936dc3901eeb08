// Planning a trail for a session: which recording each step replays (device
// key, else platform, else `tools`), computed without starting anything.

import type { DriverInfo } from "../core/drivers.ts";
import type { TrailSessionHints } from "../session/session-spec.ts";
import { classifierChain, selectRecording, type SessionClassifiers } from "../trail/select-recording.ts";
import type { RecordedCall, Trail, TrailStep } from "../trail/trail-types.ts";

export interface PlannedStep {
  /** 1-based position in the trail. */
  index: number;
  step: TrailStep;
  /** The calls to replay; undefined when the step has no recording for this session (it needs an agent). */
  calls?: RecordedCall[];
  /** The recording key chosen, as written in the file. */
  recordingKey?: string;
}

export interface TrailPlan {
  trail: Trail;
  classifiers: SessionClassifiers;
  steps: PlannedStep[];
}

/** What a trail's config contributes to its session (target, driver, agent, devices, memory). */
export function trailHints(trail: Trail): TrailSessionHints {
  const recordings = trail.steps.flatMap((step) => Object.entries(step.recordings));
  const hints: TrailSessionHints = {
    devices: trail.devices,
    memory: trail.memory,
    tools: [...new Set(recordings.flatMap(([, calls]) => calls.map((call) => call.tool)))],
    classifiers: [...new Set(recordings.map(([key]) => key.toLowerCase()))],
  };
  if (trail.target !== undefined) hints.target = trail.target;
  if (trail.driver !== undefined) hints.driver = trail.driver;
  if (trail.agent !== undefined) hints.agent = trail.agent;
  return hints;
}

/** The trail's device key whose driver is the session's, if any (first in file order). */
export function deviceKeyFor(trail: Trail, driver: DriverInfo): string | undefined {
  return Object.entries(trail.devices).find(([, key]) => key === driver.key)?.[0];
}

export function classifiersFor(trail: Trail, driver: DriverInfo): SessionClassifiers {
  const deviceKey = deviceKeyFor(trail, driver);
  return { ...(deviceKey === undefined ? {} : { deviceKey }), platform: driver.platform, driver: driver.key };
}

export function planTrail(trail: Trail, classifiers: SessionClassifiers): TrailPlan {
  const steps = trail.steps.map((step, i): PlannedStep => {
    const calls = selectRecording(step, classifiers);
    if (calls === undefined) return { index: i + 1, step };
    const recordingKey = Object.entries(step.recordings).find(([, value]) => value === calls)?.[0];
    return recordingKey === undefined ? { index: i + 1, step, calls } : { index: i + 1, step, calls, recordingKey };
  });
  return { trail, classifiers, steps };
}

/** The words a step with no recording for this session has: what it has, and what the session replays. */
function unrecorded(planned: PlannedStep, classifiers: SessionClassifiers): string {
  const keys = Object.keys(planned.step.recordings);
  const tried = classifierChain(classifiers).join(", ");
  const has =
    keys.length > 0
      ? `it has recordings for ${keys.join(", ")} only`
      : planned.step.recordable
        ? "it has no recording"
        : "it is marked recordable: false";
  return `${has} (this session replays ${tried})`;
}

/** Why a step has no agent when nothing says otherwise. */
const NO_MODEL =
  "no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in trailblaze.yaml (docs/agent.md)";

/**
 * The message for a step with no recording for this session and no agent; `noAgent` says why there
 * is none (llm/model-choice.ts noModelReason: what turned the model off, or how to choose one).
 */
export function needsAgentMessage(planned: PlannedStep, classifiers: SessionClassifiers, noAgent = NO_MODEL): string {
  return `this step needs an agent: ${unrecorded(planned, classifiers)}, and ${noAgent}; or record tool calls for it under recording: tools:`;
}

/** What `check` says of such a step when a model is chosen: run gives it to the agent (`model`: its label and where it was chosen). */
export function agentStepMessage(planned: PlannedStep, classifiers: SessionClassifiers, model: { label: string; origin: string }): string {
  const asks = planned.step.recordable
    ? "which asks the model on each run until a passing one saves its calls as the step's recording"
    : "which asks the model on every run";
  return `this step goes to the built-in agent: ${unrecorded(planned, classifiers)}, and run gives it to ${model.label} (chosen by ${model.origin}), ${asks}`;
}
