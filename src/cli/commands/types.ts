// `trailblaze types`: start a session, write the trailblaze-client.d.ts that types `ctx.tools`
// with every tool it registers, tear it down.

import { join, resolve } from "node:path";
import { writeAtomically } from "../../core/cache-files.ts";
import { escapesTo, isInside } from "../../core/real-path.ts";
import { displayPath } from "../../config/workspace.ts";
import { UsageError } from "../../errors.ts";
import type { Session } from "../../session/session.ts";
import type { SessionSpec } from "../../session/session-spec.ts";
import { SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { clientDts } from "../../typegen/client-dts.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { openCommandSession } from "../open-session.ts";

const CLIENT_DTS = "trailblaze-client.d.ts";

const HELP = `Usage: trailblaze types [session flags] [-o FILE]

Starts the target's servers for one session (target, driver, agent mode), as \`tools\` does,
and writes ${CLIENT_DTS}: a TrailblazeToolMap entry for every tool the session
registers (framework tools, server tools, per-file tools; not the ones a _meta filter skips),
so that \`ctx.tools.<name>(args)\` in a trailblaze.tool handler is checked by tsc. Arguments are
typed from each tool's input schema; results from its outputSchema, else string (its text).
Keep the file in your tsconfig's include, and re-run after adding or changing tools.

Options:
  -o, --out FILE        where to write it, or - for stdout (default: ${CLIENT_DTS} in
                        the target's tools folder, <workspace root>/tools/)
  -h, --help            show this help

${SESSION_FLAGS_HELP}`;

/** Where the d.ts goes by default: the folder the target's per-file tools are looked up in (see config/per-file-tools.ts). */
function defaultClientDtsPath(spec: Pick<SessionSpec, "target" | "root">): string {
  return join(spec.target.toolsDir ?? join(spec.root, "tools"), CLIENT_DTS);
}

/**
 * The default output, refused (UsageError) when it is in the workspace as written but a link
 * carries it outside, as init-tool's files are (scaffold-write.ts): -o names another place.
 */
function checkedDefaultPath(spec: Pick<SessionSpec, "target" | "root">, cwd: string): string {
  const file = defaultClientDtsPath(spec);
  const escape = isInside(spec.root, file) ? escapesTo(spec.root, file) : undefined;
  if (escape !== undefined) {
    throw new UsageError(
      `types: ${displayPath(file, cwd)} leads to ${escape} through a symbolic link, outside the workspace root ${spec.root}; ` +
        `the default output is written inside the workspace only. Remove the link, or name the file with -o FILE; nothing was written`,
    );
  }
  return file;
}

/** The d.ts for everything `session` registered. */
function sessionClientDts(session: Session): string {
  const { spec, registry } = session;
  const tools = registry.list().map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  }));
  return clientDts(tools, { listedFor: `target ${spec.target.id}, driver ${spec.driver.key}, agent ${spec.agent}` });
}

export const typesCommand: Command = {
  name: "types",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("types", argv, { ...SESSION_FLAG_OPTIONS, out: { type: "string", short: "o" } });
    if (positionals.length > 0) throw new UsageError(`types: unexpected argument "${positionals[0]}"; see --help`);
    await using opened = await openCommandSession(values, io, { listOnly: true });
    const { session } = opened;
    const text = sessionClientDts(session);
    if (values.out === "-") {
      io.stdout(text);
      return 0;
    }
    const file = values.out === undefined ? checkedDefaultPath(session.spec, io.cwd) : resolve(io.cwd, values.out);
    writeAtomically(file, text);
    const count = session.registry.list().length;
    io.stdout(
      `wrote ${displayPath(file, io.cwd)}: ${count} tool${count === 1 ? "" : "s"} (target ${session.spec.target.id}, driver ${session.spec.driver.key}, agent ${session.spec.agent})\n`,
    );
    return 0;
  },
};
