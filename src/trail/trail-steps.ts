// Trail steps and their recordings: `- step:` / `- verify:` items, the trailhead,
// bare `- tools:` blocks, and recorded tool calls (`- toolName: {args}`).

import type { ConfigProblem } from "../errors.ts";
import { closest, didYouMean } from "../core/did-you-mean.ts";
import { describeValue, isPlainMap, valueAt } from "../core/describe.ts";
import { locate, problemAt } from "../core/yaml-file.ts";
import type { FieldPath, YamlFile } from "../core/yaml-file.ts";
import type { RecordedCall, StepKind, TrailStep } from "./trail-types.ts";

/** Title upstream gives a trailhead written without `step:`. */
const DEFAULT_TRAILHEAD_TITLE = "Reach the trailhead starting state";

const STEP_KEYS = ["step", "verify", "recording", "recordable", "maxRetries"];
const TRAILHEAD_KEYS = ["step", "recording", "tools", "recordable", "maxRetries"];

/** Collects problems while reading; every reader reports into one list. */
export class StepReader {
  readonly problems: ConfigProblem[] = [];
  constructor(readonly yaml: YamlFile) {}

  private at(path: FieldPath): unknown {
    return valueAt(this.yaml.data, path);
  }

  problem(path: FieldPath, anchor: "key" | "value" | "parent", message: string, shownPath?: FieldPath): void {
    this.problems.push(problemAt(this.yaml, path, anchor, message, shownPath));
  }

  /** Reports keys outside `allowed`; returns the allowed keys they were probably meant to be. */
  private unknownKeys(path: FieldPath, value: Record<string, unknown>, allowed: readonly string[]): string[] {
    const meant: string[] = [];
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      meant.push(...closest(key, allowed, 1));
      const hint = didYouMean(key, allowed) || `; a step takes ${allowed.join(", ")}`;
      this.problem([...path, key], "key", `unknown key "${key}"${hint}`, path);
    }
    return meant;
  }

  /** One recorded call: `toolName: {args}` (a one-key map) or a bare `toolName`. */
  call(path: FieldPath): RecordedCall | undefined {
    const value = this.at(path);
    const where = locate(this.yaml, path);
    if (typeof value === "string" && value.trim() !== "") return { tool: value.trim(), args: {}, where };
    if (!isPlainMap(value) || Object.keys(value).length !== 1) {
      const keys = isPlainMap(value) ? Object.keys(value) : [];
      const found =
        keys.length > 1
          ? `a map with ${keys.length} keys (${keys.join(", ")}); start each call with its own - and indent arguments under the tool name`
          : describeValue(value);
      this.problem(path, "value", `expected a tool call like \`tapOn: { text: OK }\`, got ${found}`);
      return undefined;
    }
    const [tool, args] = Object.entries(value)[0]!;
    if (args === null || args === undefined) return { tool, args: {}, where };
    if (!isPlainMap(args)) {
      this.problem(
        [...path, tool],
        "value",
        `expected the arguments of ${tool} as a map (e.g. ${tool}: { name: value }), got ${describeValue(args)}`,
      );
      return undefined;
    }
    if (Object.keys(args).length === 0) return { tool, args, where };
    const argWheres = Object.fromEntries(Object.keys(args).map((key) => [key, locate(this.yaml, [...path, tool, key], "key")]));
    return { tool, args, where, argWheres };
  }

  /** A recording value: a list of calls, or one call written as a single map. */
  calls(path: FieldPath): RecordedCall[] {
    const value = this.at(path);
    if (value === null || value === undefined) return [];
    if (Array.isArray(value)) {
      return value.flatMap((_, i) => this.call([...path, i]) ?? []);
    }
    if (isPlainMap(value) && Object.keys(value).length > 1) {
      const keys = Object.keys(value);
      this.problem(
        path,
        "value",
        `a recording written as a map holds one tool call, this one has ${keys.length} (${keys.join(", ")}); write them as a list, one \`- tool: {...}\` per call`,
      );
      return [];
    }
    const one = this.call(path);
    return one ? [one] : [];
  }

  /** `recording:` — classifier (device key, platform, `all`, `tools`) → calls. */
  recordings(path: FieldPath): Record<string, RecordedCall[]> {
    const value = this.at(path);
    if (value === null || value === undefined) return {};
    if (!isPlainMap(value)) {
      this.problem(
        path,
        "value",
        `expected a map from device key, platform or \`tools\` to tool calls, got ${describeValue(value)}; put the calls under a key, e.g. recording: { tools: [...] }`,
      );
      return {};
    }
    const out: Record<string, RecordedCall[]> = {};
    for (const key of Object.keys(value)) out[key] = this.calls([...path, key]);
    return out;
  }

  private common(path: FieldPath, value: Record<string, unknown>): { recordable: boolean; maxRetries?: number } {
    const out: { recordable: boolean; maxRetries?: number } = { recordable: true };
    if (value.recordable !== undefined) {
      if (typeof value.recordable === "boolean") out.recordable = value.recordable;
      else this.problem([...path, "recordable"], "value", `expected a boolean, got ${describeValue(value.recordable)}`);
    }
    if (value.maxRetries !== undefined) {
      const n = value.maxRetries;
      if (typeof n === "number" && Number.isInteger(n) && n >= 0) out.maxRetries = n;
      else this.problem([...path, "maxRetries"], "value", `expected a whole number >= 0, got ${describeValue(n)}`);
    }
    return out;
  }

  private title(path: FieldPath, key: string, value: unknown): string | undefined {
    if (typeof value === "string" && value.trim() !== "") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    this.problem([...path, key], "value", `expected the ${key} text (a non-empty string), got ${describeValue(value)}`);
    return undefined;
  }

  /** A `- step:` / `- verify:` item. */
  step(path: FieldPath): TrailStep | undefined {
    const value = this.at(path);
    if (!isPlainMap(value)) {
      this.problem(
        path,
        "value",
        `expected a step like \`- step: Tap Login\` or \`- verify: The greeting shows\`, got ${describeValue(value)}`,
      );
      return undefined;
    }
    const meant = this.unknownKeys(path, value, STEP_KEYS);
    const hasStep = "step" in value;
    const hasVerify = "verify" in value;
    if (hasStep && hasVerify) {
      this.problem([...path, "verify"], "key", "has both step: and verify:; a step is one or the other", path);
      return undefined;
    }
    if (!hasStep && !hasVerify) {
      // A misspelt step:/verify: was reported above already.
      if (!meant.includes("step") && !meant.includes("verify")) {
        this.problem(path, "value", "needs step: (what to do) or verify: (what to check)");
      }
      return undefined;
    }
    const kind: StepKind = hasStep ? "step" : "verify";
    const title = this.title(path, kind, value[kind]);
    const recordings = this.recordings([...path, "recording"]);
    const common = this.common(path, value);
    if (title === undefined) return undefined;
    return { kind, title, recordings, ...common, where: locate(this.yaml, path), path };
  }

  /** `trailhead:` — `{ step, recording }` (current), `{ step, tools }` (older) or a bare tool name. */
  trailhead(path: FieldPath): TrailStep | undefined {
    const value = this.at(path);
    const where = locate(this.yaml, path);
    if (typeof value === "string") {
      const call = this.call(path);
      return call
        ? { kind: "trailhead", title: DEFAULT_TRAILHEAD_TITLE, recordings: { tools: [call] }, recordable: true, where, path }
        : undefined;
    }
    if (!isPlainMap(value)) {
      this.problem(
        path,
        "value",
        `expected a trailhead like \`trailhead: { step: Launch the app, recording: {...} }\`, got ${describeValue(value)}`,
      );
      return undefined;
    }
    this.unknownKeys(path, value, TRAILHEAD_KEYS);
    if (value.recording !== undefined && value.tools !== undefined) {
      this.problem([...path, "tools"], "key", "has both recording: and tools:; use recording: { tools: [...] }", path);
    }
    if (value.step === undefined && value.recording === undefined && value.tools === undefined) {
      this.problem(path, "value", "an empty trailhead; give it a step: and a recording:");
      return undefined;
    }
    const title = value.step === undefined ? DEFAULT_TRAILHEAD_TITLE : this.title(path, "step", value.step);
    const recordings = value.tools !== undefined ? { tools: this.calls([...path, "tools"]) } : this.recordings([...path, "recording"]);
    const common = this.common(path, value);
    if (title === undefined) return undefined;
    return { kind: "trailhead", title, recordings, ...common, where, path };
  }

  /** A bare `- tools: [...]` block of the older list form: a step with no text. */
  toolsBlock(path: FieldPath): TrailStep {
    const calls = this.calls(path);
    const names = [...new Set(calls.map((c) => c.tool))];
    const title = names.length ? `Run ${names.join(", ")}` : "Run recorded tools";
    return { kind: "step", title, recordings: { tools: calls }, recordable: true, where: locate(this.yaml, path), path };
  }

  /** A list of `- step:` / `- verify:` items at `path`. */
  steps(path: FieldPath): TrailStep[] {
    const value = this.at(path);
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) {
      this.problem(path, "value", `expected a list of steps (- step: ... / - verify: ...), got ${describeValue(value)}`);
      return [];
    }
    return value.flatMap((_, i) => this.step([...path, i]) ?? []);
  }
}
