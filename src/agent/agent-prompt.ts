// What one request to the model says, built afresh for every turn: the rules (system), then the
// objective, what memory holds (secret values never: only their `{{KEY}}` placeholders), the calls
// made for this objective so far with their results, and the current screen.

export const SYSTEM_PROMPT = `You drive a mobile app or web page to reach one objective of a UI test.
Each turn you see the objective, what you have done for it, and the screen as it is now. Call exactly one tool per turn; the screen is shown again after every action.
- Act on what the screen shows. Prefer tools that name an element by its text or a selector over coordinates, so the recorded test still replays when the layout moves.
- Fill the tool's "reasoning" or "reason" argument, when it has one, with one short sentence: why this call.
- To type a value from memory, write its placeholder (e.g. {{password}}); it is replaced when the tool runs. Secret values are never shown to you.
- When the objective is reached, call objectiveStatus with status COMPLETED and a short explanation. If it cannot be reached after trying the reasonable options, call objectiveStatus with status FAILED and say why.
- A step that verifies something must check it with an assertion tool (assert…, web_verify…) before objectiveStatus COMPLETED; if the check fails, the step fails.`;

export interface DoneCall {
  tool: string;
  args: Record<string, unknown>;
  /** What came back: the tool's message, or why the call was refused. */
  outcome: string;
  ok: boolean;
}

interface PromptInput {
  objective: string;
  verify: boolean;
  /** Memory keys: a secret's value is replaced by its placeholder. */
  memory: Record<string, unknown>;
  secretKeys: readonly string[];
  done: readonly DoneCall[];
  /** A note for this turn (e.g. the last answer called no tool). */
  note?: string;
  screen: string;
  /** The run's secrets masked out of a value: applied before any cut, so a cut never leaves a secret's first characters. */
  mask<T>(value: T): T;
}

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function promptText(input: PromptInput): string {
  const parts = [`${input.verify ? "Verify" : "Objective"}: ${input.objective}`];
  const keys = Object.keys(input.memory);
  if (keys.length > 0) {
    const secret = new Set(input.secretKeys);
    const lines = keys.map((key) =>
      secret.has(key) ? `- ${key}: secret, write {{${key}}}` : `- ${key}: ${clip(JSON.stringify(input.mask(input.memory[key])), 120)}`,
    );
    parts.push(`Memory:\n${lines.join("\n")}`);
  }
  if (input.done.length > 0) {
    const lines = input.done.map(
      (call, i) =>
        `${i + 1}. ${call.tool} ${clip(JSON.stringify(input.mask(call.args)), 300)} -> ${call.ok ? "ok" : "FAILED"}: ${clip(input.mask(call.outcome))}`,
    );
    parts.push(`Done so far for this objective:\n${lines.join("\n")}`);
  }
  if (input.note) parts.push(`Note: ${input.note}`);
  parts.push(`Screen now:\n${input.screen}`);
  return parts.join("\n\n");
}
