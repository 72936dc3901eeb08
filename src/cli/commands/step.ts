// `trailblaze step "<objective>"` and `trailblaze verify "<condition>"`: one objective for the
// built-in agent on a fresh session (a target, its simulated screen or its browser), for a user or
// their coding agent at the terminal. Prints each model call and the calls that reached it, as a
// recording to paste under a step; exit 0 when it is reached (verify: the condition holds), 1 when not.

import { stringify } from "yaml";
import { LlmError, UsageError } from "../../errors.ts";
import { Secrets } from "../../core/secrets.ts";
import { runObjective, TokenBudget, type AgentTurn } from "../../agent/agent-loop.ts";
import { callPolicy } from "../../agent/call-guard.ts";
import { resultToJson } from "../../core/tool-result.ts";
import { uncheckedStep } from "../../run/step-check.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { chosenModel, MODEL_FLAG_OPTIONS, MODEL_FLAGS_HELP } from "../agent-flags.ts";
import { maskedIo } from "../masked-io.ts";
import { openCommandSession } from "../open-session.ts";
import { parseSecrets, SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { workspaceRootAbove } from "../../config/workspace-root.ts";
import { terminalLine, terminalText } from "../../core/terminal-text.ts";

function help(verify: boolean): string {
  const [name, words, example] = verify
    ? ["verify", "CONDITION", '"The theme picker offers Dark"']
    : ["step", "OBJECTIVE", '"Open Settings, then General"'];
  return `Usage: trailblaze ${name} ${words} [options] [session flags]

${verify ? "Checks a condition on the screen with the built-in agent: it looks, and must confirm it with\nan assertion tool. Exit 0 when the condition holds, 1 when it does not." : "Does one step with the built-in agent: it sees the screen, calls the session's tools one at a\ntime, and says when the objective is reached. Exit 0 when it is, 1 when not."}
Prints each model call, then the calls that did it as a recording (YAML) to paste under a
step. Needs a model (docs/agent.md): --llm, $TRAILBLAZE_DEFAULT_MODEL or llm: defaults.model.

Example: trailblaze ${name} ${example} --map maps/calendar --start calendar/android/day_view

Options:
${MODEL_FLAGS_HELP}
  --secret KEY=VALUE    a memory value the agent writes as {{KEY}} and never sees (repeatable)
  --json                print {"status","message","unverified"?,"recording","turns","tokens","costUsd"?}
  -h, --help            show this help

Reached with nothing checked for real (no screen loaded: its checks unverified, its actions checked
by nothing) prints ⚠ and why; --require-screen makes that exit 1.
Exit codes: 0 reached · 1 not reached (or the model kept failing) · 2 usage, configuration, a
model that cannot be used (no key, a key refused, an unknown model).

${SESSION_FLAGS_HELP}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * A model call as it is printed: what the model wrote and what came back, each on this one line,
 * masked, then escaped for the terminal (`line`).
 */
function turnLine(turn: AgentTurn, line: (text: string) => string): string {
  const what = turn.called ? `${turn.called.tool} ${JSON.stringify(turn.called.args)}` : `(no tool) ${JSON.stringify(turn.text ?? "")}`;
  return `  ${turn.ok === false ? "✗" : "·"} ${turn.turn}. ${line(what)}${turn.outcome ? ` -> ${line(turn.outcome)}` : ""}\n`;
}

function agentCommand(verify: boolean): Command {
  const name = verify ? "verify" : "step";
  return {
    name,
    help: help(verify),
    async run(argv, rawIo) {
      const { values, positionals } = parseCommandArgs(name, argv, {
        ...SESSION_FLAG_OPTIONS,
        ...MODEL_FLAG_OPTIONS,
        secret: { type: "string", multiple: true },
        json: { type: "boolean" },
      });
      const objective = positionals.join(" ").trim();
      if (objective === "")
        throw new UsageError(
          `${name}: say what to ${verify ? "check" : "do"}, e.g. trailblaze ${name} ${verify ? '"The Settings row is visible"' : '"Open Settings"'}`,
        );
      const secrets = new Secrets(Object.fromEntries(parseSecrets(name, values.secret, rawIo.env)), {
        warn: (message) => rawIo.stderr(`warning: ${message}\n`),
      });
      const io = maskedIo(rawIo, secrets);
      // What the model and the tools wrote, masked before it is escaped (an escaped secret would no longer read as itself).
      const line = (text: string) => terminalLine(secrets.mask(text));
      let chosen;
      try {
        chosen = chosenModel(values, workspaceRootAbove(io.cwd), { ...io, command: name }, secrets);
      } catch (error) {
        if (error instanceof LlmError) throw new LlmError(`${name}: ${error.message}`, error.exitCode, { cause: error });
        throw error;
      }
      if ("noModel" in chosen) throw new UsageError(`${name}: ${chosen.noModel}`);
      const { model, maxCalls, maxTokens } = chosen;
      await using opened = await openCommandSession(values, io, { secrets });
      const { session } = opened;
      // What each call checked, as a trail's step reads it (step-check.ts): a reached objective checked nothing unless one did.
      const calls: { name: string; result: Record<string, unknown> }[] = [];
      const outcome = await runObjective({
        session,
        agent: model,
        objective,
        verify,
        maxCalls,
        // The one objective is what step and verify spend on.
        ...(maxTokens !== undefined ? { tokenBudget: new TokenBudget(maxTokens, "this objective") } : {}),
        memory: session.memory,
        secrets,
        lookup: (key) => session.memory.lookup(key),
        knownKeys: () => session.memory.keys(),
        // No trail: the model goes where the target's platform names, nowhere else.
        policy: callPolicy(session),
        call: async (tool, args) => {
          const result = await session.call(tool, args);
          calls.push({ name: tool, result: resultToJson(result) });
          return result;
        },
        ...(values.json ? {} : { onTurn: (turn: AgentTurn) => io.stderr(turnLine(turn, line)) }),
      });
      const unverified = outcome.status === "completed" ? uncheckedStep(calls) : undefined;
      if (values.json) {
        io.stdout(
          `${JSON.stringify({ status: outcome.status, message: outcome.message, ...(unverified !== undefined ? { unverified } : {}), recording: outcome.recording, turns: outcome.turns, tokens: outcome.tokens, ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}) }, null, 2)}\n`,
        );
      } else {
        const cost = outcome.costUsd !== undefined ? `, $${outcome.costUsd.toFixed(4)}` : "";
        const mark = outcome.status !== "completed" ? "✗" : unverified !== undefined ? "⚠" : "✓";
        // The model's own failure is the error below, printed once; this line counts what it cost.
        const message = outcome.error ? (verify ? "not checked" : "not reached") : line(outcome.message);
        io.stdout(
          `${mark} ${message} (${model.choice.label}: ${plural(outcome.turns.length, "model call")}, ${plural(outcome.tokens.input + outcome.tokens.output, "token")}${cost})\n`,
        );
        if (unverified !== undefined) io.stdout(`unverified: ${line(unverified)}\n`);
        if (outcome.status === "completed" && outcome.recording.length > 0) {
          // YAML writes a control character escaped in a double-quoted string; a bidi override it keeps.
          io.stdout(
            `recording:\n  tools:\n${terminalText(
              secrets.mask(
                stringify(
                  outcome.recording.map((c) => ({ [c.tool]: c.args })),
                  { lineWidth: 0 },
                )
                  .replace(/^/gm, "    ")
                  .trimEnd(),
              ),
            )}\n`,
          );
        }
      }
      if (outcome.error) throw outcome.error;
      // Reached with nothing checked for real: exit 0 as a run does, unless --require-screen fails it.
      return outcome.status === "completed" && (unverified === undefined || !values["require-screen"]) ? 0 : 1;
    },
  };
}

export const stepCommand = agentCommand(false);
export const verifyCommand = agentCommand(true);
