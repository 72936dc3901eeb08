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

/** The tools offered to the model, and the bytes of their schemas. */
interface Offer {
  tools: ReturnType<typeof toOffered>[];
  bytes: number;
}

/**
 * The offers a session has made, by step kind, registry change and waypoint: the same list every turn
 * and every objective until a server (re)lists its tools or the device reaches another waypoint, so the
 * list, its size and the SDK's tool set (ask-model.ts keys it by the list) are built once.
 */
const offers = new WeakMap<Session, Map<string, Offer>>();

function offerOf(session: Session, verify: boolean): Offer {
  let made = offers.get(session);
  if (made === undefined) offers.set(session, (made = new Map()));
  const key = `${verify} ${session.registry.changes} ${session.screen?.waypoint ?? ""}`;
  let offer = made.get(key);
  if (offer === undefined) {
    const tools = offeredTools(session.registry, { driver: session.spec.driver, verify, screen: session.screen }).map(toOffered);
    offer = { tools, bytes: Buffer.byteLength(JSON.stringify(tools)) };
    made.set(key, offer);
  }
  return offer;
}

/** A call the model wrote: its tool, its arguments as written, and as reports and the recording see them (placeholders back). */
interface WrittenCall {
  tool: string;
  args: Record<string, unknown>;
  written: Record<string, unknown>;
}

/** How a turn's answer left the objective: ended (its outcome), going on, or going on after a call ran. */
type AnswerEnd = ObjectiveOutcome | "next" | "called";

/** One objective's turns: what they gathered so far, and the steps each turn takes. */
class ObjectiveRun {
  readonly #options: ObjectiveOptions;
  readonly #turns: AgentTurn[] = [];
  readonly #recording: RecordedAgentCall[] = [];
  /** The calls so far, as the next request shows them. */
  readonly #done: DoneCall[] = [];
  readonly #tokens = { input: 0, output: 0 };
  /** An assertion passed (a step that verifies may complete). */
  #asserted = false;
  /** A word to the model in the next request (it called no tool, or several). */
  #note: string | undefined;
  /** The status the model last reported with objectiveStatus (IN_PROGRESS…). */
  #lastStatus: string | undefined;
  /** The signatures of the calls so far (the last STUCK_WINDOW), and the warning for the next request. */
  readonly #signatures: string[] = [];
  #stuck: string | undefined;
  readonly #system: string;

  constructor(options: ObjectiveOptions) {
    this.#options = options;
    const { session } = options;
    this.#system = systemPrompt({ platform: session.spec.driver.platform, device: deviceDescription(session), context: options.context });
  }

  finish(status: ObjectiveOutcome["status"], message: string, error?: LlmError): ObjectiveOutcome {
    const cost = costOf(this.#options.agent, this.#tokens);
    return {
      status,
      message: this.#options.secrets.mask(message),
      recording: this.#recording,
      turns: this.#turns,
      tokens: { ...this.#tokens },
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ...(error ? { error } : {}),
    };
  }

  /** One turn: the screen shown, the model asked, its call checked and run; the outcome when the objective ends with it. */
  async turn(n: number): Promise<ObjectiveOutcome | undefined> {
    const { session, agent, secrets } = this.#options;
    const t0 = performance.now();
    const screen = await showScreen(session, secrets, { vision: agent.choice.model.vision !== false });
    const offer = offerOf(session, this.#options.verify);
    const request = this.#request(screen, offer.tools);
    const requestBytes = Buffer.byteLength(request.system) + Buffer.byteLength(request.text) + offer.bytes;
    let answer: ModelAnswer;
    try {
      answer = await askModel(agent, request, this.#options.signal);
    } catch (error) {
      const llm = error instanceof LlmError ? error : new LlmError(String(error), 1, { cause: error });
      return this.finish("failed", llm.message, llm);
    }
    this.#tokens.input += answer.usage.input;
    this.#tokens.output += answer.usage.output;
    const overBudget = this.#options.tokenBudget?.spend(answer.usage);
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
    const ended = await this.#answer(turn, answer, offer.tools, overBudget);
    turn.durationMs = Math.round(performance.now() - t0);
    this.#turns.push(turn);
    this.#options.onTurn?.(turn);
    if (ended === "called") return session.fatal ? this.finish("failed", session.fatal.message) : undefined;
    return ended === "next" ? undefined : ended;
  }

  /** This turn's request, masked: the system prompt, the objective, the calls so far and the screen; the note and stuck warning are spent. */
  #request(screen: Awaited<ReturnType<typeof showScreen>>, tools: Offer["tools"]) {
    const { memory, secrets } = this.#options;
    const secretKeys = memory.keys().filter((key) => memory.isSecret(key));
    const text = promptText({
      objective: secrets.mask(this.#options.objective),
      verify: this.#options.verify,
      earlier: this.#options.earlier,
      lastStatus: this.#lastStatus,
      stuck: this.#stuck,
      // Secret keys are named, never valued: the model writes their placeholders.
      memory: { ...memory.snapshot(), ...Object.fromEntries(secretKeys.map((key) => [key, undefined])) },
      secretKeys,
      done: this.#done,
      ...(this.#note !== undefined ? { note: this.#note } : {}),
      screen: screen.outline,
      mask: (value) => secrets.maskValue(value),
    });
    this.#note = undefined;
    this.#stuck = undefined;
    return { system: secrets.mask(this.#system), text: secrets.mask(text), tools, ...(screen.image ? { image: screen.image } : {}) };
  }

  /** What the model's answer does: past the token cap, no call, a loop, a call not offered, objectiveStatus, or a call to run. */
  async #answer(turn: AgentTurn, answer: ModelAnswer, tools: Offer["tools"], overBudget: string | undefined): Promise<AnswerEnd> {
    const { secrets } = this.#options;
    const first = answer.calls[0];
    // The arguments as reports, the model and the recording see them: any secret value back to its placeholder.
    const written = first === undefined ? undefined : secrets.withPlaceholders(first.args);
    if (first === undefined) turn.text = secrets.mask(answer.text);
    else turn.called = { tool: first.tool, args: written! };
    if (overBudget !== undefined) {
      Object.assign(turn, { outcome: `not run: ${overBudget}`, ok: false });
      return this.finish("failed", overBudget);
    }
    if (first === undefined || written === undefined) {
      this.#note = "your last answer called no tool: answer with exactly one tool call (objectiveStatus when you are done).";
      return "next";
    }
    if (answer.calls.length > 1)
      this.#note = `you called ${answer.calls.length} tools at once; only the first (${first.tool}) ran. Call one tool per turn.`;
    const loop = this.#loopCheck(first.tool, written);
    if (loop !== undefined) {
      Object.assign(turn, { outcome: `not run: ${loop}`, ok: false });
      return this.finish("failed", `the agent is stuck: ${loop}`);
    }
    const call = { tool: first.tool, args: first.args, written };
    const offered = tools.some((t) => t.name === first.tool);
    if (first.invalid !== undefined || !offered) {
      // A tool offered whose call the SDK refused: its arguments did not parse as JSON.
      const outcome = !offered
        ? `there is no tool named ${first.tool} in this session; call one of the tools offered`
        : `the arguments of ${first.tool} are not valid JSON (${clipped(first.invalid!)}); call it again with its arguments as one JSON object`;
      return this.#notRun(turn, call, outcome);
    }
    if (first.tool === OBJECTIVE_STATUS) return this.#objectiveStatus(turn, call);
    return this.#call(turn, call);
  }

  /**
   * Stuck detection: a loop long past any legitimate repetition ends the objective (its message
   * returned); a shorter one is told in the next request.
   */
  #loopCheck(tool: string, written: Record<string, unknown>): string | undefined {
    this.#signatures.push(signatureOf(tool, written));
    if (this.#signatures.length > STUCK_WINDOW) this.#signatures.shift();
    const hint = stuckHint(this.#signatures);
    if (hint?.level === "critical") return hint.message;
    this.#stuck = hint?.message;
    return undefined;
  }

  /** A call that did not run: the turn and the next request say why. */
  #notRun(turn: AgentTurn, call: WrittenCall, outcome: string, refused = false): "next" {
    Object.assign(turn, { outcome, ok: false, ...(refused ? { refused: true } : {}) });
    this.#done.push({ tool: call.tool, args: call.written, outcome, ok: false });
    return "next";
  }

  /** objectiveStatus: COMPLETED ends the objective (a step that verifies, only once an assertion passed), FAILED too, anything else is noted. */
  #objectiveStatus(turn: AgentTurn, call: WrittenCall): AnswerEnd {
    const status = String(call.args.status ?? "").toUpperCase();
    const explanation = String(call.args.explanation ?? "");
    if (status === "COMPLETED" && this.#options.verify && !this.#asserted) {
      return this.#notRun(
        turn,
        call,
        "not accepted: this step verifies something, so check it with an assertion tool first (its recording must fail at replay when the state is absent)",
      );
    }
    Object.assign(turn, { outcome: `${status.toLowerCase() || "no status"}: ${explanation}`, ok: status !== "FAILED" });
    if (status === "COMPLETED") return this.finish("completed", explanation || "completed");
    if (status === "FAILED") return this.finish("failed", `the agent gave up: ${explanation}`);
    this.#lastStatus = status || "(no status)";
    this.#done.push({ tool: call.tool, args: call.written, outcome: "in progress noted; go on", ok: true });
    return "next";
  }

  /** A session's tool: its placeholders resolved, the call checked (call-guard.ts), run, and recorded when it succeeds. */
  async #call(turn: AgentTurn, call: WrittenCall): Promise<AnswerEnd> {
    const { session, secrets, memory } = this.#options;
    let resolved: Record<string, unknown>;
    try {
      resolved = interpolate(call.args, this.#options.lookup, { knownKeys: this.#options.knownKeys }) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      return this.#notRun(turn, call, secrets.mask(error.message));
    }
    // A placeholder names a secret by its key, or as upstream writes memory keys, `memory.KEY`.
    const isSecretKey = (key: string) => memory.isSecret(key) || (key.startsWith("memory.") && memory.isSecret(key.slice(7)));
    const refused = refusal(
      this.#options.policy,
      { tool: call.tool, written: call.written, resolved, sensitiveArgs: session.registry.get(call.tool)?.meta.sensitiveArgs ?? [] },
      { secrets, isSecretKey, pageUrl: await pageUrl(session) },
    );
    if (refused !== undefined) return this.#notRun(turn, call, refused, true);

    const result = await this.#options.call(call.tool, resolved);
    const ok = isSuccess(result);
    const outcome = secrets.mask(result.message);
    Object.assign(turn, { outcome, ok });
    const check = ok ? callCheck(result) : undefined;
    if (check && check.kind !== "checked") turn.unverified = secrets.mask(check.reason);
    this.#done.push({ tool: call.tool, args: call.written, outcome, ok });
    if (ok) {
      // What the recording keeps: the durable form a call by ref names (recordAs), else the call as written if recordable.
      if (result.recordAs) this.#recording.push({ tool: result.recordAs.tool, args: secrets.withPlaceholders(result.recordAs.args) });
      else if (session.registry.get(call.tool)?.meta.isRecordable !== false) this.#recording.push({ tool: call.tool, args: call.written });
      if (asserts(call.tool)) this.#asserted = true;
    } else if (this.#options.verify && asserts(call.tool)) {
      return this.finish("failed", result.message.startsWith(`${call.tool}: `) ? result.message : `${call.tool}: ${result.message}`);
    }
    return "called";
  }
}

/** Runs one objective, a turn per model call, until it ends or the cap on model calls is reached. */
export async function runObjective(options: ObjectiveOptions): Promise<ObjectiveOutcome> {
  const run = new ObjectiveRun(options);
  for (let n = 1; n <= options.maxCalls.value; n++) {
    if (options.signal?.aborted) return run.finish("failed", "interrupted");
    const ended = await run.turn(n);
    if (ended !== undefined) return ended;
  }
  const { value, from } = options.maxCalls;
  return run.finish("failed", `the model did not finish the objective in ${value} call${value === 1 ? "" : "s"} (${from})`);
}
