// `trailblaze mcp --record FILE`: the agent's successful calls become a new trail. Steps start
// with trailblaze_beginStep (or, for a call outside any step, a step named after its tool); FILE
// is rewritten atomically after every change, in the trail format `run` reads.

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isSuccess, type ToolResult } from "../core/tool-result.ts";
import type { Session } from "../session/session.ts";
import { recordedTrailText, type CallToRecord, type RecordedTrailConfig } from "../trail/trail-record.ts";
import { RecordedFile } from "../trail/recorded-file.ts";
import { CONTROL_TOOL_DEFINITIONS, CONTROL_TOOLS, controlError, controlResult, screenInfo, type RecordingMode } from "./control-tools.ts";

interface OpenStep {
  text: string;
  verify?: boolean;
  calls: CallToRecord[];
}

interface StepRecorderOptions {
  /** FILE as given (messages and results). */
  file: string;
  /** FILE resolved. */
  path: string;
  /** `config:` of the written trail, and its header comment lines. */
  config: RecordedTrailConfig;
}

export class StepRecorder implements RecordingMode {
  readonly kind = "record";
  readonly file: string;
  readonly #out: RecordedFile;
  readonly #config: RecordedTrailConfig;
  readonly #session: Session;
  readonly #steps: OpenStep[] = [];
  /** The step calls are recorded into; undefined between completeStep and the next step. */
  #open: OpenStep | undefined;

  constructor(session: Session, options: StepRecorderOptions) {
    this.#session = session;
    this.file = options.file;
    this.#out = new RecordedFile("--record", options.file, options.path, session.spec.root);
    this.#config = options.config;
  }

  tools(): Tool[] {
    return [CONTROL_TOOL_DEFINITIONS.beginStep, CONTROL_TOOL_DEFINITIONS.completeStep, CONTROL_TOOL_DEFINITIONS.discardStep];
  }

  refusal(): string | undefined {
    return undefined;
  }

  placeholders() {
    const memory = this.#session.memory;
    return { lookup: (key: string) => memory.lookup(key), knownKeys: () => memory.keys() };
  }

  async control(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (name === CONTROL_TOOLS.beginStep) {
      // A secret typed into the step's text is written (and answered) as its {{KEY}}, as in arguments.
      const text = typeof args.step === "string" ? this.#session.secrets.withPlaceholders(args.step.trim()) : "";
      if (text === "")
        return controlError(
          `${CONTROL_TOOLS.beginStep}: expected {"step": "<what the step does>"}, a non-empty text, got ${JSON.stringify(args)}`,
        );
      if (args.verify !== undefined && typeof args.verify !== "boolean") {
        return controlError(
          `${CONTROL_TOOLS.beginStep}: verify is true (a step that checks something) or false, got ${JSON.stringify(args.verify)}`,
        );
      }
      this.#begin(text, args.verify === true);
      this.#write();
      return controlResult({
        index: this.#steps.length,
        step: text,
        ...(args.verify === true ? { verify: true } : {}),
        file: this.file,
        ...screenInfo(this.#session.screen),
      });
    }
    if (name === CONTROL_TOOLS.completeStep) {
      const open = this.#open;
      if (open === undefined)
        return controlError(`${CONTROL_TOOLS.completeStep}: no step is open; start one with ${CONTROL_TOOLS.beginStep} {"step": "…"}`);
      this.#open = undefined;
      return controlResult({
        index: this.#steps.indexOf(open) + 1,
        step: open.text,
        recorded: open.calls.length,
        file: this.file,
        ...screenInfo(this.#session.screen),
      });
    }
    const open = this.#open;
    if (open === undefined) return controlError(`${CONTROL_TOOLS.discardStep}: no step is open, so there is nothing to discard`);
    const discarded = open.calls.length;
    open.calls.length = 0;
    this.#write();
    return controlResult({
      index: this.#steps.indexOf(open) + 1,
      step: open.text,
      discarded,
      file: this.file,
      ...screenInfo(this.#session.screen),
    });
  }

  async called(name: string, args: Record<string, unknown>, result: ToolResult): Promise<void> {
    if (!isSuccess(result)) return;
    const open = this.#open ?? this.#begin(name);
    // A call by ref is kept as the durable call it names (the node's selector), as the built-in agent keeps it.
    const kept = result.recordAs ?? { tool: name, args };
    open.calls.push({ tool: kept.tool, args: this.#session.secrets.withPlaceholders(kept.args) });
    this.#write();
  }

  #begin(text: string, verify = false): OpenStep {
    const step: OpenStep = { text, ...(verify ? { verify } : {}), calls: [] };
    this.#steps.push(step);
    this.#open = step;
    return step;
  }

  #write(): void {
    this.#out.write(recordedTrailText(this.#config, this.#steps));
  }
}
