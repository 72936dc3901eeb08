// `trailblaze mcp --trail FILE`: the steps of FILE that have a recording are replayed on the
// session's simulated device, up to the first that has none; the agent does that step with the
// session's tools, and trailblaze_completeStep splices its successful calls into FILE as the
// step's `recording: tools:` (comments and layout kept), then replay goes on.

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { InterpolationError } from "../errors.ts";
import { exceptionThrown, isSuccess, type ToolResult } from "../core/tool-result.ts";
import { classifiersFor } from "../run/plan.ts";
import { trailLookup } from "../run/trail-args.ts";
import type { Session } from "../session/session.ts";
import { interpolate } from "../trail/interpolate.ts";
import { selectRecording, type SessionClassifiers } from "../trail/select-recording.ts";
import { parseTrailFile } from "../trail/trail-file.ts";
import { spliceRecording, type CallToRecord } from "../trail/trail-record.ts";
import type { Trail } from "../trail/trail-types.ts";
import { RecordedFile } from "../trail/recorded-file.ts";
import { CONTROL_TOOL_DEFINITIONS, CONTROL_TOOLS, controlError, controlResult, screenInfo, type RecordingMode } from "./control-tools.ts";

interface TrailFillerOptions {
  /** FILE as given (messages, results and the parsed trail's `file`). */
  file: string;
  /** FILE resolved. */
  path: string;
  trail: Trail;
  /** `{{args.NAME}}` values (`--arg`, else the declared defaults). */
  args: Record<string, unknown>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class TrailFiller implements RecordingMode {
  readonly kind = "trail";
  readonly file: string;
  readonly #out: RecordedFile;
  readonly #session: Session;
  readonly #args: Record<string, unknown>;
  readonly #classifiers: SessionClassifiers;
  #trail: Trail;
  /** 0-based index of the first step not replayed or recorded yet. */
  #cursor = 0;
  /** The step the agent is recording (0-based index), with its calls so far. */
  #open: { index: number; calls: CallToRecord[] } | undefined;
  /** Why replay cannot go on (a recorded step failed); every later call says so. */
  #broken: string | undefined;

  constructor(session: Session, options: TrailFillerOptions) {
    this.#session = session;
    this.file = options.file;
    this.#out = new RecordedFile("--trail", options.file, options.path, session.spec.root);
    this.#trail = options.trail;
    this.#args = options.args;
    this.#classifiers = classifiersFor(options.trail, session.spec.driver);
  }

  tools(): Tool[] {
    return [CONTROL_TOOL_DEFINITIONS.nextStep, CONTROL_TOOL_DEFINITIONS.completeStep, CONTROL_TOOL_DEFINITIONS.discardStep];
  }

  placeholders() {
    return trailLookup(this.#session.memory, this.#args);
  }

  get #done(): boolean {
    return this.#open === undefined && this.#cursor >= this.#trail.steps.length;
  }

  refusal(): string | undefined {
    if (this.#broken !== undefined) return this.#broken;
    if (this.#open !== undefined) return undefined;
    if (this.#done)
      return `every step of ${this.file} has a recording now (${CONTROL_TOOLS.nextStep} says done: true); replay it with trailblaze run ${this.file}`;
    return `call ${CONTROL_TOOLS.nextStep} first: it replays the recorded steps of ${this.file} and opens the first step without a recording, which the calls after it are recorded into`;
  }

  async control(name: string, _args: Record<string, unknown>): Promise<CallToolResult> {
    if (this.#broken !== undefined) return controlError(this.#broken);
    if (name === CONTROL_TOOLS.nextStep) {
      if (this.#open === undefined) await this.#advance();
      return this.#broken !== undefined ? controlError(this.#broken) : controlResult(this.#current());
    }
    const open = this.#open;
    if (open === undefined) {
      const why = this.#done ? `every step of ${this.file} has a recording` : `no step is open; call ${CONTROL_TOOLS.nextStep} first`;
      return controlError(`${name}: ${why}`);
    }
    const step = this.#trail.steps[open.index]!;
    if (name === CONTROL_TOOLS.discardStep) {
      const discarded = open.calls.length;
      open.calls = [];
      return controlResult({ index: open.index + 1, step: step.title, discarded, file: this.file, ...screenInfo(this.#session.screen) });
    }
    if (open.calls.length === 0) {
      return controlError(
        `${name}: step ${open.index + 1} "${step.title}" has no successful call to record yet; make its calls first ` +
          "(a step that checks something records the assertion, e.g. assertVisibleWithText or assertWaypoint)",
      );
    }
    try {
      this.#write(open.index, open.calls);
    } catch (error) {
      return controlError(`${name}: ${messageOf(error)}`);
    }
    const recorded = open.calls.length;
    this.#open = undefined;
    this.#cursor = open.index + 1;
    await this.#advance();
    if (this.#broken !== undefined) return controlError(this.#broken);
    return controlResult({ recorded: { index: open.index + 1, step: step.title, calls: recorded }, ...this.#current() });
  }

  async called(name: string, args: Record<string, unknown>, result: ToolResult): Promise<void> {
    if (this.#open === undefined || !isSuccess(result)) return;
    // A call by ref is kept as the durable call it names (the node's selector), as the built-in agent keeps it.
    const kept = result.recordAs ?? { tool: name, args };
    this.#open.calls.push({ tool: kept.tool, args: this.#session.secrets.withPlaceholders(kept.args) });
  }

  /** `{index, step, done}` for the open step (or done), with the screen. */
  #current(): Record<string, unknown> {
    const total = this.#trail.steps.length;
    const screen = screenInfo(this.#session.screen);
    if (this.#open === undefined) return { index: null, step: null, done: true, total, file: this.file, ...screen };
    const step = this.#trail.steps[this.#open.index]!;
    return { index: this.#open.index + 1, step: step.title, kind: step.kind, done: false, total, file: this.file, ...screen };
  }

  /** Replays recorded steps from the cursor; opens the first without a recording, or stops at the end or a failure. */
  async #advance(): Promise<void> {
    const { lookup, knownKeys } = this.placeholders();
    for (; this.#cursor < this.#trail.steps.length; this.#cursor++) {
      const index = this.#cursor;
      const step = this.#trail.steps[index]!;
      const calls = selectRecording(step, this.#classifiers);
      if (calls === undefined) {
        this.#open = { index, calls: [] };
        return;
      }
      for (const call of calls) {
        const where = `${call.where.file}:${call.where.line}:${call.where.col}`;
        let result: ToolResult;
        try {
          result = await this.#session.call(call.tool, interpolate(call.args, lookup, { knownKeys }) as Record<string, unknown>);
        } catch (error) {
          if (!(error instanceof InterpolationError)) result = exceptionThrown(messageOf(error));
          else result = exceptionThrown(error.message);
        }
        if (!isSuccess(result)) {
          this.#broken = this.#session.secrets.mask(
            `step ${index + 1} "${step.title}" failed on replay at ${where}: ${call.tool}: ${result.message}; ` +
              `fix or remove that recording in ${this.file}, then start trailblaze mcp --trail again`,
          );
          return;
        }
      }
    }
  }

  /** Splices `calls` into step `index` of FILE as it is on disk now, atomically, and re-reads the trail. */
  #write(index: number, calls: readonly CallToRecord[]): void {
    const text = this.#out.read();
    const trail = parseTrailFile(this.file, text);
    const before = this.#trail.steps[index]!;
    const step = trail.steps[index];
    if (step === undefined || step.title !== before.title || trail.steps.length !== this.#trail.steps.length) {
      throw new Error(
        `${this.file} changed on disk since it was read (step ${index + 1} is no longer "${before.title}"); start trailblaze mcp --trail again`,
      );
    }
    const edited = spliceRecording(text, this.file, step, calls);
    this.#trail = parseTrailFile(this.file, edited);
    this.#out.write(edited);
  }
}
