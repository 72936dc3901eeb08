// Which tool names a target's sources already advertise, for `init-tool` to refuse a name that
// would collide: a list-only session of the target with the host agent (every server kind runs
// there; a QuickJS server answers from .cache/trailblaze-listings/ while its bundle is unchanged),
// its registered and its skipped tools (a skipped tool is still advertised), then stopped.

import type { TargetConfig, Workspace } from "../../config/workspace.ts";
import { resolveSessionSpec } from "../../session/session-spec.ts";
import type { CliIO } from "../command.ts";
import { startSession } from "../open-session.ts";

type Advertised =
  | { ok: true /** tool name → the source advertising it (`tools/shop/greet.ts`, `builtin`, …) */; sources: Map<string, string> }
  | { ok: false /** why the target's tools could not be listed (its first line) */; why: string };

/** The tools every source of `target` advertises, from a list-only host session with no logs, no browser and no output. */
export async function advertisedTools(workspace: Workspace, target: TargetConfig, io: CliIO): Promise<Advertised> {
  try {
    const spec = resolveSessionSpec(
      workspace,
      { target: target.id, agent: "host", browser: "none", "no-logging": true },
      { cwd: io.cwd, env: io.env },
    );
    const quiet = () => {};
    await using session = await startSession(spec, io, { listOnly: true, onWarning: quiet, onNotice: quiet, onNameWarning: quiet });
    const sources = new Map<string, string>();
    for (const tool of session.registry.skipped()) sources.set(tool.name, tool.source);
    for (const tool of session.registry.list()) sources.set(tool.name, tool.source);
    return { ok: true, sources };
  } catch (error) {
    return { ok: false, why: (error instanceof Error ? error.message : String(error)).split("\n")[0]! };
  }
}
