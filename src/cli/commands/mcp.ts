// `trailblaze mcp`: start one session and serve its tools to any MCP client
// over this process's stdin/stdout until the client hangs up or SIGTERM arrives;
// with --record / --trail, what the client does is recorded into a trail file.

import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UsageError } from "../../errors.ts";
import { RESERVED_PREFIX } from "../../core/tool-names.ts";
import { serveSession } from "../../mcp-serve/serve-session.ts";
import { servedTools } from "../../mcp-serve/served-tools.ts";
import { parseKeyValue } from "../../session/session-spec.ts";
import { parseSecrets, SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { maskedIo } from "../masked-io.ts";
import { Secrets } from "../../core/secrets.ts";
import { parseCommandArgs } from "../args.ts";
import type { CliIO, Command } from "../command.ts";
import { openCommandSession } from "../open-session.ts";
import { answeringUnknownTools } from "../unknown-tool-answer.ts";
import { targetFlags, toolOwners } from "../../session/tool-owners.ts";
import type { TargetConfig, Workspace } from "../../config/workspace.ts";
import type { ToolRegistry } from "../../registry/registry.ts";
import { onInterrupt } from "../reaper.ts";
import { prepareRecording, replayCommand, startRecording } from "./mcp-recording.ts";

const HELP = `Usage: trailblaze mcp [--cwd DIR] [--record FILE | --trail FILE] [session flags]

Starts one session (host or on-device agent) and serves its tools as an MCP server over
stdio, for any MCP client (Claude Desktop, Cursor, the MCP Inspector, the SDK Client).
stdout carries only the protocol; warnings and notices go to stderr.

  tools/list   the session's tools, except those with _meta["trailblaze/isForLlm"]: false;
               names, input schemas, descriptions and annotations as advertised, plus
               _meta "trailblaze/source" and "trailblaze/toolset"
  tools/call   dispatched with _trailblazeContext injected, as a trail step would be:
               {{KEY}} in arguments (a --secret or memory key) is replaced first; the
               memory a successful call writes persists for later calls; the result
               variant is in _meta.trailblaze.variant
  prompts/list the record-trail prompt: how an agent records a trail with this server

Recording with your agent (the agent drives the simulated device; what it does becomes the
recording, replayed later by \`trailblaze run FILE\` with the same session flags):
  --record FILE   write a new trail: trailblaze_beginStep {step} starts a step, every
                  successful call is appended to its recording: tools: (a call outside any
                  step starts one named after its tool), trailblaze_completeStep ends it,
                  trailblaze_discardStep forgets its calls so far. FILE is rewritten
                  atomically after every change; an existing non-empty FILE is refused
  --trail FILE    fill in an existing trail: its config chooses the session as in run;
                  trailblaze_nextStep replays the recorded steps and returns the first
                  without a recording ({index, step, done}, the screen's outline and
                  waypoint); the calls after it are written as that step's recording by
                  trailblaze_completeStep (comments and layout of FILE kept), which goes
                  on to the next. Other tools are refused until a step is open
  While recording, {{KEY}} placeholders (and {{args.NAME}} with --trail) are replaced before
  the call and recorded as written; a --secret value typed out is recorded as {{KEY}}; a
  failed call is not recorded.

Closing stdin or SIGTERM stops every server of the session, then exits 0.

Options:
  --cwd DIR             working directory of the session: relative script: paths, the
                        config search and logs/ resolve against it (default: the current
                        directory; desktop clients usually start servers elsewhere)
  --record FILE         record a new trail into FILE (see above)
  --trail FILE          fill in the steps of trail FILE that have no recording (see above)
  --secret KEY=VALUE    a secret usable as {{KEY}}, masked in logs and written as {{KEY}} in
                        recordings (repeatable); --secret KEY reads the environment variable KEY
  --arg NAME=VALUE      with --trail: a trail parameter (config.args), as {{args.NAME}} (repeatable)
  -h, --help            show this help

${SESSION_FLAGS_HELP}`;

/** Why `name` is refused when this session has no such tool (not even a skipped one) but another target has it. */
function unknownElsewhere(registry: ToolRegistry, workspace: Workspace, target: TargetConfig, name: string): string | undefined {
  if (registry.has(name) || registry.findSkipped(name) || name.startsWith(RESERVED_PREFIX)) return undefined;
  const owners = toolOwners(workspace, target, name, registry.names());
  return owners && `Unknown tool "${name}" in target ${target.id}: ${owners.text}: start trailblaze mcp with ${targetFlags(owners)}`;
}

export const mcpCommand: Command = {
  name: "mcp",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("mcp", argv, {
      ...SESSION_FLAG_OPTIONS,
      cwd: { type: "string" },
      record: { type: "string" },
      trail: { type: "string" },
      secret: { type: "string", multiple: true },
      arg: { type: "string", multiple: true },
    });
    if (positionals.length > 0) throw new UsageError(`mcp: unexpected argument "${positionals[0]}"; see --help`);
    const secrets = new Secrets(Object.fromEntries(parseSecrets("mcp", values.secret, io.env)), {
      warn: (message) => io.stderr(`warning: ${message}\n`),
    });
    const given = Object.fromEntries((values.arg ?? []).map((entry) => parseKeyValue("--arg", entry)));

    // stdout belongs to the protocol from here on: anything the session path prints goes to stderr.
    // Every line printed, notes and errors included, is masked with the secrets the session adds to.
    const sessionIo: CliIO = maskedIo(
      { ...io, cwd: values.cwd === undefined ? io.cwd : resolve(io.cwd, values.cwd), stdout: io.stderr },
      secrets,
    );
    const prepared = prepareRecording(values, sessionIo.cwd);
    await using opened = await openCommandSession(values, sessionIo, {
      ...(prepared?.kind === "trail" ? { trail: prepared.hints } : {}),
      secrets,
    });
    const { session, workspace } = opened;
    session.onFatal((error) => sessionIo.stderr(`error: ${error.message}\nnote: that server's tools now fail with FatalError\n`));
    const recording = prepared && startRecording(prepared, session, given, replayCommand(prepared.file, values));

    const transport = new StdioServerTransport();
    // A tool another target has is refused with which one, before it reaches the session's server as an unknown name.
    const served = answeringUnknownTools(transport, (name) => {
      const refused = unknownElsewhere(session.registry, workspace, session.spec.target, name);
      if (refused !== undefined) sessionIo.stderr(`note: call ${name} refused: ${refused}\n`);
      return refused === undefined ? undefined : session.secrets.mask(refused);
    });
    const hangUp = () => void transport.close();
    // The SDK transport does not notice end of input; the client closing stdin means "stop".
    process.stdin.once("end", hangUp);
    process.stdout.on("error", hangUp);
    const stopOnTerm = onInterrupt(async (signal) => {
      if (signal !== "SIGTERM") return;
      await transport.close();
      await opened[Symbol.asyncDispose]();
      process.exit(0);
    });
    try {
      const { spec } = session;
      const count = servedTools(session.registry).length;
      const serving = serveSession(session, served, {
        log: (line) => sessionIo.stderr(`note: ${line}\n`),
        ...(recording ? { recording } : {}),
      });
      io.stderr(
        `trailblaze mcp: serving ${count} tool(s) of target ${spec.target.id} ` +
          `(driver ${spec.driver.key}, agent ${spec.agent}, session ${spec.id}) on stdio\n`,
      );
      if (recording)
        io.stderr(
          `trailblaze mcp: ${recording.kind === "record" ? "recording a new trail into" : "filling in the unrecorded steps of"} ${recording.file}\n`,
        );
      await serving;
    } finally {
      stopOnTerm();
      process.stdin.off("end", hangUp);
      process.stdout.off("error", hangUp);
    }
    return 0;
  },
};
