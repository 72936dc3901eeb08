// Writing recordings into trail files: a new trail from recorded steps (`trailblaze mcp --record`),
// or one step's `recording: tools:` spliced into an existing file with every other byte kept
// (`--trail`). Secret values are turned back into their `{{KEY}}` placeholders before either
// (Secrets.withPlaceholders).

import { Document, isMap, parseDocument, stringify } from "yaml";
import { afterLastEntry, columnOf, indentBlock, splice } from "../config/yaml-splice.ts";
import { UsageError } from "../errors.ts";
import type { TrailStep } from "./trail-types.ts";

/** A call as recorded: the tool and the arguments it was called with (placeholders restored). */
export interface CallToRecord {
  tool: string;
  args: Record<string, unknown>;
}

interface StepToRecord {
  /** The step's text (`- step: …`, or `- verify: …` for a step that checks something). */
  text: string;
  verify?: boolean;
  calls: readonly CallToRecord[];
}

const callNode = (call: CallToRecord) => ({ [call.tool]: call.args });

/** The calls as a YAML block list (`- tool: {…}` each), unindented, no trailing newline. */
function callsBlock(calls: readonly CallToRecord[]): string {
  return stringify(calls.map(callNode), { lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, "");
}

export interface RecordedTrailConfig {
  id: string;
  target: string;
  /** Comment lines written above `config:` (without `# `). */
  header?: readonly string[];
}

/**
 * A whole trail file in the current map form: `config: {id, target}` and one `- step:` (or
 * `- verify:`) per recorded step, its calls under `recording: tools:`. A step with no calls gets no recording,
 * so `run` says it needs an agent instead of passing it as a no-op.
 */
export function recordedTrailText(config: RecordedTrailConfig, steps: readonly StepToRecord[]): string {
  const doc = new Document({
    config: { id: config.id, target: config.target },
    trail: steps.map((step) => ({
      [step.verify ? "verify" : "step"]: step.text,
      ...(step.calls.length > 0 ? { recording: { tools: step.calls.map(callNode) } } : {}),
    })),
  });
  const header = (config.header ?? []).map((line) => `# ${line}\n`).join("");
  return header + doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * `text` (the trail file `file`) with `calls` written as `step`'s `recording: <slot>:` (default
 * `tools`; a device key or platform for `run --save-recording`): after the step's last entry when
 * it has no `recording:`, as a new entry of its block `recording:` map, or in place of that slot's
 * calls when it has them. Everything else in the file stays as written. A step written in flow style
 * (`{ step: …, recording: {…} }`) is rewritten through the YAML Document API, which keeps comments
 * but may re-space that step.
 */
export function spliceRecording(text: string, file: string, step: TrailStep, calls: readonly CallToRecord[], slot = "tools"): string {
  if (step.path === undefined) throw new UsageError(`${file}: cannot locate step "${step.title}" in the file to write its recording`);
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`${file}: cannot edit it: ${doc.errors[0]!.message}`);
  const node = doc.getIn(step.path, true);
  if (!isMap(node))
    throw new UsageError(
      `${file}:${step.where.line}:${step.where.col}: step "${step.title}" is not a map (e.g. a bare tool name); write its recording by hand`,
    );
  const recording = node.get("recording", true);
  const block = callsBlock(calls);
  if (!node.flow && node.range && recording === undefined && node.items.length > 0) {
    const indent = columnOf(text, node.range[0]);
    const last = node.items.at(-1)!;
    const end =
      (last.value as { range?: [number, number, number] } | null)?.range?.[1] ??
      (last.key as { range?: [number, number, number] }).range![1];
    return splice(text, afterLastEntry(text, end), `\n${indentBlock(`recording:\n  ${slot}:\n${indentBlock(block, 4)}`, indent)}`);
  }
  if (isMap(recording) && !recording.flow && recording.range && recording.items.length > 0 && !recording.has(slot)) {
    const indent = columnOf(text, recording.range[0]);
    const end = recording.range[1];
    return splice(text, afterLastEntry(text, end), `\n${indentBlock(`${slot}:\n${indentBlock(block, 2)}`, indent)}`);
  }
  const tools = doc.createNode(calls.map(callNode));
  if (isMap(recording)) recording.set(slot, tools);
  else node.set("recording", doc.createNode({ [slot]: calls.map(callNode) }));
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
