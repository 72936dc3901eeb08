// `trailblaze call <tool>`: start a session, dispatch one tool call through
// the same dispatcher trails use, print the mapped result, tear down.

import { UsageError } from "../../errors.ts";
import { callCheck, resultToJson, isSuccess, type ToolResult } from "../../core/tool-result.ts";
import { SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { openCommandSession } from "../open-session.ts";
import { missingToolMessage } from "../../run/validate.ts";
import { targetFlags, toolOwners } from "../../session/tool-owners.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze call <tool> [--args JSON] [session flags] [--json]

Starts a session, calls one tool with _trailblazeContext injected (exactly as a trail
step would), prints the result and stops every server.
Prints ✓ when the call checked something, ⚠ and why when it succeeded with nothing checked
(an action on a simulated device with no screen loaded) or could not make its check.
Exit code: 0 when the result is Success, 1 for any error variant, 2 for usage or
configuration problems (unknown tool, bad JSON, bad config).

Options:
  --args JSON           tool arguments as a JSON object (default: {})
  --timeout MS          per-call timeout in milliseconds (default: the server's, 60000)
  --json                print {"tool","result":{"status","variant","message","structuredContent"?}}
  -h, --help            show this help

${SESSION_FLAGS_HELP}`;

function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`call: --args is not valid JSON (${(error as Error).message}); example: --args '{"text":"hi"}'`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`call: --args must be a JSON object, got ${JSON.stringify(parsed)}`);
  }
  return parsed as Record<string, unknown>;
}

/** ✓ for a call that checked something; ⚠ and why for one that only acted or could not make its check, as a step's list line says. */
function resultText(tool: string, result: ToolResult): string {
  const check = isSuccess(result) ? callCheck(result) : undefined;
  const head =
    check === undefined
      ? `✗ ${tool} ${result.variant}: ${result.message}`
      : check.kind === "checked"
        ? `✓ ${tool}: ${result.message || "(no text)"}`
        : `⚠ ${tool}: ${result.message || "(no text)"}\n  ${check.kind === "unchecked" ? "nothing checked" : "unverified"}: ${check.reason}`;
  const structured = result.structuredContent === undefined ? "" : `\n${JSON.stringify(result.structuredContent, null, 2)}`;
  return `${head}${structured}\n`;
}

export const callCommand: Command = {
  name: "call",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("call", argv, {
      ...SESSION_FLAG_OPTIONS,
      args: { type: "string" },
      timeout: { type: "string" },
      json: { type: "boolean" },
    });
    const [tool, ...extra] = positionals;
    if (tool === undefined) throw new UsageError('call: name the tool to call, e.g. `trailblaze call myapp_echo --args \'{"text":"hi"}\'`');
    if (extra.length > 0) throw new UsageError(`call: unexpected argument "${extra[0]}" (pass tool arguments with --args JSON)`);
    const args = parseToolArgs(values.args);
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
      throw new UsageError(`call: --timeout expects a positive number of milliseconds, got "${values.timeout}"`);
    }

    await using opened = await openCommandSession(values, io);
    const { session, workspace } = opened;
    // A tool a filter or a skipped server kept out is explained as `run` explains it; one another
    // target has says which; a name no source has is the dispatcher's "Unknown tool" with close names.
    if (!session.registry.has(tool)) {
      const keptOut = session.registry.findSkipped(tool) ?? session.registry.skipped().find((s) => s.name === "*");
      if (keptOut) throw new UsageError(`call: ${missingToolMessage(tool, session.registry, session.spec.agent, false)}`);
      const owners = toolOwners(workspace, session.spec.target, tool, session.registry.names());
      if (owners)
        throw new UsageError(
          `call: Unknown tool "${tool}" in target ${session.spec.target.id}: ${owners.text}: add ${targetFlags(owners)}`,
        );
    }
    const result = await session.call(tool, args, timeoutMs === undefined ? {} : { timeoutMs });
    io.stdout(
      values.json ? `${JSON.stringify({ tool, result: resultToJson(result) }, null, 2)}\n` : terminalText(resultText(tool, result)),
    );
    return isSuccess(result) ? 0 : 1;
  },
};
