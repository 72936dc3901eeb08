// `trailblaze mcp`: start one session and serve its tools to any MCP client
// over this process's stdin/stdout until the client hangs up or SIGTERM arrives.

import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UsageError } from "../../errors.ts";
import { serveSession } from "../../mcp-serve/serve-session.ts";
import { servedTools } from "../../mcp-serve/served-tools.ts";
import { SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../../session/session-spec.ts";
import { parseCommandArgs } from "../args.ts";
import type { CliIO, Command } from "../command.ts";
import { openSession } from "../open-session.ts";
import { onInterrupt } from "../reaper.ts";

const HELP = `Usage: trailblaze mcp [--cwd DIR] [session flags]

Starts one session (host or on-device agent) and serves its tools as an MCP server over
stdio, for any MCP client (Claude Desktop, Cursor, the MCP Inspector, the SDK Client).
stdout carries only the protocol; warnings and notices go to stderr.

  tools/list   the session's tools, except those with _meta["trailblaze/isForLlm"]: false;
               names, input schemas, descriptions and annotations as advertised, plus
               _meta "trailblaze/source" and "trailblaze/toolset"
  tools/call   dispatched with _trailblazeContext injected, as a trail step would be; the
               memory a successful call writes persists for later calls; the result
               variant is in _meta.trailblaze.variant

Closing stdin or SIGTERM stops every server of the session, then exits 0.

Options:
  --cwd DIR             working directory of the session: relative script: paths, the
                        config search and logs/ resolve against it (default: the current
                        directory; desktop clients usually start servers elsewhere)
  -h, --help            show this help

${SESSION_FLAGS_HELP}`;

export const mcpCommand: Command = {
  name: "mcp",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("mcp", argv, { ...SESSION_FLAG_OPTIONS, cwd: { type: "string" } });
    if (positionals.length > 0) throw new UsageError(`mcp: unexpected argument "${positionals[0]}"; see --help`);

    // stdout belongs to the protocol from here on: anything the session path prints goes to stderr.
    const sessionIo: CliIO = { ...io, cwd: values.cwd === undefined ? io.cwd : resolve(io.cwd, values.cwd), stdout: io.stderr };
    await using session = await openSession(values, sessionIo);
    session.onFatal((error) => io.stderr(`error: ${error.message}\nnote: that server's tools now fail with FatalError\n`));

    const transport = new StdioServerTransport();
    const hangUp = () => void transport.close();
    // The SDK transport does not notice end of input; the client closing stdin means "stop".
    process.stdin.once("end", hangUp);
    process.stdout.on("error", hangUp);
    const stopOnTerm = onInterrupt(async (signal) => {
      if (signal !== "SIGTERM") return;
      await transport.close();
      await session.close();
      process.exit(0);
    });
    try {
      const { spec } = session;
      const served = servedTools(session.registry).length;
      const serving = serveSession(session, transport, { log: (line) => io.stderr(`note: ${line}\n`) });
      io.stderr(
        `trailblaze mcp: serving ${served} tool(s) of target ${spec.target.id} ` +
          `(driver ${spec.driver.key}, agent ${spec.agent}, session ${spec.id}) on stdio\n`,
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
