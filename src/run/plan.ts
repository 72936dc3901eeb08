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

/** The message for a step with no recording for this session. */
export function needsAgentMessage(planned: PlannedStep, classifiers: SessionClassifiers): string {
  const keys = Object.keys(planned.step.recordings);
  const tried = classifierChain(classifiers).join(", ");
  const has =
    keys.length > 0
      ? `it has recordings for ${keys.join(", ")} only`
      : planned.step.recordable
        ? "it has no recording"
        : "it is marked recordable: false";
  return `this step needs an agent: ${has} (this session replays ${tried}), and no model is chosen for the built-in agent; give one with --llm provider/model (or llm: defaults.model in trailblaze.yaml, see docs/agent.md), or record tool calls for it under recording: tools:`;
}
