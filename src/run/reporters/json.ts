// `--reporter json`: the run as one JSON document (docs/formats.md "JSON documents"),
// stamped with the format it is written in (`version`), which `merge-reports` checks it
// against (report-schema.ts).

import { REPORT_FORMAT, type ReportJson } from "../report-schema.ts";
import type { RunReport, StepReport, TrailReport } from "../run-types.ts";

type TrailJson = ReportJson["trails"][number];
type ToolResultJson = TrailJson["steps"][number]["tools"][number]["result"];

function stepJson(step: StepReport): TrailJson["steps"][number] {
  return {
    index: step.index,
    kind: step.kind,
    title: step.title,
    status: step.status,
    durationMs: step.durationMs,
    // `result` is resultToJson's {status, variant, message, …}; run-types keeps it a plain record.
    tools: step.tools.map((t) => ({
      name: t.name,
      args: t.args,
      result: t.result as ToolResultJson,
      startedAt: t.startedAt,
      durationMs: t.durationMs,
    })),
    ...(step.failure ? { failure: step.failure } : {}),
    ...(step.unverified !== undefined ? { unverified: step.unverified } : {}),
    ...(step.memory ? { memory: step.memory } : {}),
    ...(step.screen ? { screen: step.screen } : {}),
    ...(step.agent ? { agent: step.agent } : {}),
    line: step.line,
    col: step.col,
  };
}

function trailJson(trail: TrailReport): TrailJson {
  return {
    file: trail.file,
    id: trail.id,
    ...(trail.title !== undefined ? { title: trail.title } : {}),
    ...(trail.tags !== undefined ? { tags: trail.tags } : {}),
    status: trail.status,
    startedAt: trail.startedAt,
    durationMs: trail.durationMs,
    unverified: trail.unverified,
    ...(trail.healed !== undefined ? { healed: trail.healed } : {}),
    ...(trail.savedRecording ? { savedRecording: trail.savedRecording } : {}),
    ...(trail.session ? { session: trail.session } : {}),
    steps: trail.steps.map(stepJson),
    ...(trail.error !== undefined ? { error: trail.error } : {}),
    ...(trail.problems ? { problems: trail.problems } : {}),
    ...(trail.skipReason !== undefined ? { skipReason: trail.skipReason } : {}),
    ...(trail.memory !== undefined ? { memory: trail.memory } : {}),
  };
}

/**
 * `{"version":1,"trails":[…],"summary":{"passed","failed","errors","skipped","unverified","durationMs"}}`
 * plus `interrupted`/`shard`/`problems`/`screens` when set.
 */
export function runToJson(run: RunReport): ReportJson {
  return {
    version: REPORT_FORMAT,
    trails: run.trails.map(trailJson),
    summary: { ...run.summary },
    ...(run.interrupted !== undefined ? { interrupted: run.interrupted } : {}),
    ...(run.shard ? { shard: run.shard } : {}),
    ...(run.problems ? { problems: run.problems } : {}),
    ...(run.screens ? { screens: run.screens } : {}),
  };
}

export function formatJsonReport(run: RunReport): string {
  return `${JSON.stringify(runToJson(run), null, 2)}\n`;
}
