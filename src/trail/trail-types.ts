// The parsed shape of a trail file, shared by the parser, the planner and the runner.

import type { FieldPath, Where } from "../core/yaml-file.ts";

export type { Where } from "../core/yaml-file.ts";

/** One recorded tool call: `- toolName: { ...args }`. */
export interface RecordedCall {
  tool: string;
  /** `{}` when the call was written with no or empty arguments. */
  args: Record<string, unknown>;
  where: Where;
  /** Where each top-level argument's key is written, for messages about one argument. */
  argWheres?: Record<string, Where>;
}

export type StepKind = "trailhead" | "step" | "verify";

export interface TrailStep {
  kind: StepKind;
  /** The natural-language text of `step:` / `verify:` (or a generated one for a bare `- tools:` block). */
  title: string;
  /**
   * Recorded calls by classifier, in file order. Keys as written: a device key from
   * `config.devices`, a platform (`android` | `ios` | `web`), `all`, or `tools`.
   * An empty list is an explicit no-op for that classifier.
   */
  recordings: Record<string, RecordedCall[]>;
  /** `recordable: false` in the file: the step is always meant for an agent. Default true. */
  recordable: boolean;
  /** Per-step retry budget from the file, when set. */
  maxRetries?: number;
  where: Where;
  /** Where the step is in the document (e.g. `["trail", 2]`), for edits that splice its recording in. */
  path?: FieldPath;
}

type TrailArgType = "string" | "integer" | "boolean" | "array" | "object";
export const TRAIL_ARG_TYPES: readonly TrailArgType[] = ["string", "integer", "boolean", "array", "object"];

/** A declared trail parameter (`config.args`), supplied with `--arg NAME=VALUE`, used as `{{args.NAME}}`. */
export interface TrailArg {
  /** Declared type; `string` when the file does not say. */
  type?: string;
  description?: string;
  /** Present only when the file declares `default:` (a string default keeps its text as written). */
  default?: unknown;
  /** True when there is no `default:`: a run without `--arg NAME=…` fails before it starts. */
  required: boolean;
}

export interface Trail {
  /** The file name as given to the parser (used in messages). */
  file: string;
  /** `config.id`, else derived from the file name. */
  id: string;
  title?: string;
  description?: string;
  /** Free-form text for an agent's system prompt (upstream `context`). */
  context?: string;
  priority?: string;
  /** Upstream's free-form platform hint, as written (e.g. `android`). */
  platform?: string;
  target?: string;
  /** Driver yaml key (normalized from an enum name). */
  driver?: string;
  agent?: "host" | "on-device";
  /** Device key → driver yaml key; entries without a driver are left out. */
  devices: Record<string, string>;
  memory: Record<string, unknown>;
  args: Record<string, TrailArg>;
  /** A non-empty reason (or true) marks the whole trail skipped. */
  skip?: boolean | string;
  /** Upstream per-classifier skip reasons (`skip: { ios: "blocked on #123" }`); see `skipReason`. */
  skipByDevice?: Record<string, string>;
  tags: string[];
  metadata?: Record<string, unknown>;
  source?: { type?: string; reason?: string };
  /** Trailhead first (when there is one), then the steps in file order. */
  steps: TrailStep[];
}
