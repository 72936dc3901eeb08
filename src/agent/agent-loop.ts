// The built-in agent's loop for one objective (a trail step in words, `step`, `verify`): each
// turn builds a fresh request (objective, calls so far, the screen now), the model answers with a
// tool call, its placeholders are resolved and the call is checked (call-guard.ts: a refused call
// does not run, and the model reads why), the call runs through the session, and the screen is
// shown again. objectiveStatus ends it; so do a failing assertion in a step that verifies, the cap
// on model calls, and the tokens the trail may spend (checked after every answer, before its call
// runs). The successful recordable calls, as the model wrote them (placeholders kept), are the
// recording; a call by ref is recorded as the durable call its tool names (`recordAs`: the node's
// selector).

import { InterpolationError, LlmError } from "../errors.ts";
import { callCheck, isSuccess, type ToolResult } from "../core/tool-result.ts";
import type { Secrets } from "../core/secrets.ts";
import { askModel, type AgentModel, type ModelAnswer } from "../llm/ask-model.ts";
import type { Cap } from "../llm/llm-config.ts";
import type { Memory } from "../session/memory.ts";
import type { Session } from "../session/session.ts";
import { interpolate, type Lookup } from "../trail/interpolate.ts";
import { pageUrl, refusal, type CallPolicy } from "./call-guard.ts";
import { signatureOf, STUCK_WINDOW, stuckHint } from "./agent-progress.ts";
import { promptText, systemPrompt, type DoneCall } from "./agent-prompt.ts";
import { showScreen } from "./agent-screen.ts";
import { asserts, OBJECTIVE_STATUS, offeredTools, toOffered } from "./agent-tools.ts";

/** Upstream's default cap on model calls per objective. */
export const DEFAULT_MAX_LLM_CALLS = 50;

export interface AgentTurn {
  /** 1-based. */
  turn: number;
  /** The screen outline the model was shown (masked). */
  shown: string;
  /** Whether a screenshot went with it. */
  image: boolean;
  /** Bytes of the request's text (system, objective, history, screen) and tool schemas. */
  requestBytes: number;
  /** The tool the model called and its arguments as written, or its text when it called none. */
  called?: { tool: string; args: Record<string, unknown> };
  text?: string;
  /** What the call returned (or why it did not run). */
  outcome?: string;
  ok?: boolean;
  /** The call was refused before it ran (call-guard.ts); `outcome` says why. */
  refused?: boolean;
  /**
   * For a call that succeeded without checking anything for real: why (a check it could not make,
   * or an action with nothing to check it against). A step whose calls all have one is unverified.
   */
  unverified?: string;
  tokens: { input: number; output: number };
  /** USD, when the model's prices are configured. */
  costUsd?: number;
  durationMs: number;
}

/** The tokens a trail may spend on the model (`--max-llm-tokens`), shared by its steps' objectives. */
export class TokenBudget {
  /** The cap and where it was set (`--max-llm-tokens N`, or llm: defaults: max_tokens_per_trail at its line). */
  readonly cap: Cap;
  /** What the budget is for, as the failure names it: `this trail`, or `this objective` (step, verify). */
  readonly scope: string;
  /** Tokens (input and output) spent so far. */
  spent = 0;

  constructor(cap: Cap, scope = "this trail") {
    this.cap = cap;
    this.scope = scope;
  }

  /** Counts an answer's tokens; the failure message once the cap is passed, else undefined. */
  spend(tokens: { input: number; output: number }): string | undefined {
    this.spent += tokens.input + tokens.output;
    return this.spent > this.cap.value ? `the model used ${this.spent} tokens in ${this.scope}, past ${this.cap.from}` : undefined;
  }
}

export interface RecordedAgentCall {
  tool: string;
  args: Record<string, unknown>;
}

interface ObjectiveOutcome {
  status: "completed" | "failed";
  message: string;
  recording: RecordedAgentCall[];
  turns: AgentTurn[];
  tokens: { input: number; output: number };
  costUsd?: number;
  /** The model could not be used (the run's exit code comes from it). */
  error?: LlmError;
}

interface ObjectiveOptions {
  session: Session;
  agent: AgentModel;
  objective: string;
  /** A step that verifies: it must end with an assertion, and a failing one ends it. */
  verify: boolean;
  /** The trail's `config.context`, for the system prompt. */
  context?: string | undefined;
  /** The trail's objectives done before this one, in order. */
  earlier?: readonly string[] | undefined;
  /** Model calls per objective, and where that cap was set. */
  maxCalls: Cap;
  /** The trail's token cap, when there is one: every answer's tokens count against it. */
  tokenBudget?: TokenBudget;
  memory: Memory;
  secrets: Secrets;
  /** Resolves the placeholders the model writes (`{{key}}`, `{{args.NAME}}` in a trail). */
  lookup: Lookup;
  /** Keys offered when a placeholder names an unknown one. */
  knownKeys(): Iterable<string>;
  /** Where the model's calls may go (call-guard.ts). */
  policy: CallPolicy;
  /** Runs one call, its placeholders resolved and the call checked (the caller reports it). */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  signal?: AbortSignal;
  /** Each turn as it ends (live output). */
  onTurn?(turn: AgentTurn): void;
}

/** An SDK error as one short line for the model. */
const clipped = (text: string, max = 300) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** The device as the system prompt names it: `Android device (1080x2400 pixels, driver android-ondevice-accessibility)`; for a browser, its viewport. */
function deviceDescription(session: Session): string {
  const { driver, screen } = session.spec;
  if (driver.platform === "WEB") return `viewport ${screen.width}x${screen.height}, driver ${driver.key}`;
  return `${driver.platform === "IOS" ? "iOS" : "Android"} device (${screen.width}x${screen.height} pixels, driver ${driver.key})`;
}

function costOf(agent: AgentModel, tokens: { input: number; output: number }): number | undefined {
  const cost = agent.choice.model.cost;
  if (cost?.inputPerMillion === undefined && cost?.outputPerMillion === undefined) return undefined;
  return (tokens.input * (cost.inputPerMillion ?? 0) + tokens.output * (cost.outputPerMillion ?? 0)) / 1_000_000;
}

export async function runObjective(options: ObjectiveOptions): Promise<ObjectiveOutcome> {
  const { session, agent, secrets, memory } = options;
  const turns: AgentTurn[] = [];
  const recording: RecordedAgentCall[] = [];
  const done: DoneCall[] = [];
  const tokens = { input: 0, output: 0 };
  let asserted = false;
  let note: string | undefined;
  /** The status the model last reported with objectiveStatus (IN_PROGRESS…). */
  let lastStatus: string | undefined;
  /** The signatures of the calls so far (the last STUCK_WINDOW), and the warning for the next request. */
  const signatures: string[] = [];
  let stuck: string | undefined;
  const system = systemPrompt({ platform: session.spec.driver.platform, device: deviceDescription(session), context: options.context });
  const vision = agent.choice.model.vision !== false;
  // A placeholder names a secret by its key, or as upstream writes memory keys, `memory.KEY`.
  const isSecretKey = (key: string) => memory.isSecret(key) || (key.startsWith("memory.") && memory.isSecret(key.slice(7)));
  // The offer is the session's tools, the same every turn unless a server registers more or the device reaches another waypoint.
  const offers = new Map<string, { tools: ReturnType<typeof toOffered>[]; bytes: number }>();
  const finish = (status: ObjectiveOutcome["status"], message: string, error?: LlmError): ObjectiveOutcome => {
    const cost = costOf(agent, tokens);
    return {
      status,
      message: secrets.mask(message),
      recording,
      turns,
      tokens: { ...tokens },
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ...(error ? { error } : {}),
    };
  };

  for (let n = 1; n <= options.maxCalls.value; n++) {
    if (options.signal?.aborted) return finish("failed", "interrupted");
    const t0 = performance.now();
    const screen = await showScreen(session, secrets, { vision });
    const key = `${session.registry.size} ${session.screen?.waypoint ?? ""}`;
    let offer = offers.get(key);
    if (offer === undefined) {
      const tools = offeredTools(session.registry, { driver: session.spec.driver, verify: options.verify, screen: session.screen }).map(
        toOffered,
      );
      offer = { tools, bytes: Buffer.byteLength(JSON.stringify(tools)) };
      offers.set(key, offer);
    }
    const { tools } = offer;
    const secretKeys = memory.keys().filter((key) => memory.isSecret(key));
    const text = promptText({
      objective: secrets.mask(options.objective),
      verify: options.verify,
      earlier: options.earlier,
      lastStatus,
      stuck,
      // Secret keys are named, never valued: the model writes their placeholders.
      memory: { ...memory.snapshot(), ...Object.fromEntries(secretKeys.map((key) => [key, undefined])) },
      secretKeys,
      done,
      ...(note !== undefined ? { note } : {}),
      screen: screen.outline,
      mask: (value) => secrets.maskValue(value),
    });
    note = undefined;
    stuck = undefined;
    const request = { system: secrets.mask(system), text: secrets.mask(text), tools, ...(screen.image ? { image: screen.image } : {}) };
    const requestBytes = Buffer.byteLength(request.system) + Buffer.byteLength(request.text) + offer.bytes;
    let answer: ModelAnswer;
    try {
      answer = await askModel(agent, request, options.signal);
    } catch (error) {
      const llm = error instanceof LlmError ? error : new LlmError(String(error), 1, { cause: error });
      return finish("failed", llm.message, llm);
    }
    tokens.input += answer.usage.input;
    tokens.output += answer.usage.output;
    const overBudget = options.tokenBudget?.spend(answer.usage);
    const turn: AgentTurn = {
      turn: n,
      shown: screen.outline,
      image: screen.image !== undefined,
      requestBytes,
      tokens: answer.usage,
      durationMs: 0,
    };
    const cost = costOf(agent, answer.usage);
    if (cost !== undefined) turn.costUsd = cost;
    const end = (outcome: ObjectiveOutcome | undefined) => {
      turn.durationMs = Math.round(performance.now() - t0);
      turns.push(turn);
      options.onTurn?.(turn);
      return outcome;
    };

    const first = answer.calls[0];
    // The arguments as reports, the model and the recording see them: any secret value back to its placeholder.
    const written = first === undefined ? undefined : secrets.withPlaceholders(first.args);
    if (first === undefined) turn.text = secrets.mask(answer.text);
    else turn.called = { tool: first.tool, args: written! };
    if (overBudget !== undefined) {
      Object.assign(turn, { outcome: `not run: ${overBudget}`, ok: false });
      return end(finish("failed", overBudget))!;
    }
    if (first === undefined || written === undefined) {
      note = "your last answer called no tool: answer with exactly one tool call (objectiveStatus when you are done).";
      end(undefined);
      continue;
    }
    if (answer.calls.length > 1)
      note = `you called ${answer.calls.length} tools at once; only the first (${first.tool}) ran. Call one tool per turn.`;
    // Stuck detection: a loop long past any legitimate repetition ends the objective; a shorter one is told next turn.
    signatures.push(signatureOf(first.tool, written));
    if (signatures.length > STUCK_WINDOW) signatures.shift();
    const hint = stuckHint(signatures);
    if (hint?.level === "critical") {
      Object.assign(turn, { outcome: `not run: ${hint.message}`, ok: false });
      return end(finish("failed", `the agent is stuck: ${hint.message}`))!;
    }
    stuck = hint?.message;

    if (first.invalid !== undefined || !tools.some((t) => t.name === first.tool)) {
      // A tool offered whose call the SDK refused: its arguments did not parse as JSON.
      const outcome = !tools.some((t) => t.name === first.tool)
        ? `there is no tool named ${first.tool} in this session; call one of the tools offered`
        : `the arguments of ${first.tool} are not valid JSON (${clipped(first.invalid!)}); call it again with its arguments as one JSON object`;
      Object.assign(turn, { outcome, ok: false });
      done.push({ tool: first.tool, args: written, outcome, ok: false });
      end(undefined);
      continue;
    }

    if (first.tool === OBJECTIVE_STATUS) {
      const status = String(first.args.status ?? "").toUpperCase();
      const explanation = String(first.args.explanation ?? "");
      if (status === "COMPLETED" && options.verify && !asserted) {
        const outcome =
          "not accepted: this step verifies something, so check it with an assertion tool first (its recording must fail at replay when the state is absent)";
        Object.assign(turn, { outcome, ok: false });
        done.push({ tool: first.tool, args: written, outcome, ok: false });
        end(undefined);
        continue;
      }
      Object.assign(turn, { outcome: `${status.toLowerCase() || "no status"}: ${explanation}`, ok: status !== "FAILED" });
      if (status === "COMPLETED") return end(finish("completed", explanation || "completed"))!;
      if (status === "FAILED") return end(finish("failed", `the agent gave up: ${explanation}`))!;
      lastStatus = status || "(no status)";
      done.push({ tool: first.tool, args: written, outcome: "in progress noted; go on", ok: true });
      end(undefined);
      continue;
    }

    let resolved: Record<string, unknown>;
    try {
      resolved = interpolate(first.args, options.lookup, { knownKeys: options.knownKeys }) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      const outcome = secrets.mask(error.message);
      Object.assign(turn, { outcome, ok: false });
      done.push({ tool: first.tool, args: written, outcome, ok: false });
      end(undefined);
      continue;
    }
    const refused = refusal(
      options.policy,
      { tool: first.tool, written, resolved, sensitiveArgs: session.registry.get(first.tool)?.meta.sensitiveArgs ?? [] },
      { secrets, isSecretKey, pageUrl: await pageUrl(session) },
    );
    if (refused !== undefined) {
      Object.assign(turn, { outcome: refused, ok: false, refused: true });
      done.push({ tool: first.tool, args: written, outcome: refused, ok: false });
      end(undefined);
      continue;
    }

    const result = await options.call(first.tool, resolved);
    const ok = isSuccess(result);
    const outcome = secrets.mask(result.message);
    Object.assign(turn, { outcome, ok });
    const check = ok ? callCheck(result) : undefined;
    if (check && check.kind !== "checked") turn.unverified = secrets.mask(check.reason);
    done.push({ tool: first.tool, args: written, outcome, ok });
    if (ok) {
      // What the recording keeps: the durable form a call by ref names (recordAs), else the call as written if recordable.
      if (result.recordAs) recording.push({ tool: result.recordAs.tool, args: secrets.withPlaceholders(result.recordAs.args) });
      else if (session.registry.get(first.tool)?.meta.isRecordable !== false) recording.push({ tool: first.tool, args: written });
      if (asserts(first.tool)) asserted = true;
    } else if (options.verify && asserts(first.tool)) {
      return end(finish("failed", result.message.startsWith(`${first.tool}: `) ? result.message : `${first.tool}: ${result.message}`))!;
    }
    end(undefined);
    if (session.fatal) return finish("failed", session.fatal.message);
  }
  const { value, from } = options.maxCalls;
  return finish("failed", `the model did not finish the objective in ${value} call${value === 1 ? "" : "s"} (${from})`);
}
