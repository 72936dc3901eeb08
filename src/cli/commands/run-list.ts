// `trailblaze run --list`: each trail's plan (its steps and the tool calls chosen for its session)
// printed without starting anything; exit 2 when a file does not parse or a trail would not start.

import { ConfigError, ConfigNotFoundError, type ConfigProblem } from "../../errors.ts";
import type { Workspace } from "../../config/workspace.ts";
import { listTrail, type GivenArgs } from "../../run/list-plans.ts";
import type { SuiteEntry } from "../../run/run-suite.ts";
import { terminalText } from "../../core/terminal-text.ts";
import type { CliIO } from "../command.ts";
import { loadCliWorkspace } from "../open-session.ts";

/** Prints the plans of `entries` and the files that did not parse; the exit code. */
export async function listPlans(
  entries: SuiteEntry[],
  problems: ConfigProblem[],
  values: Record<string, unknown>,
  given: GivenArgs,
  io: CliIO,
): Promise<number> {
  let workspace: Workspace | undefined;
  try {
    workspace = await loadCliWorkspace(values as { config?: string }, io);
  } catch (error) {
    if (!(error instanceof ConfigNotFoundError) || values.config !== undefined) throw error;
  }
  let failed = problems.length > 0;
  let argsFailed = 0;
  const blocks: string[] = [];
  for (const { file, trail, driver } of entries) {
    try {
      const listed = listTrail(
        file,
        trail,
        driver === undefined ? values : { ...values, driver },
        workspace,
        { cwd: io.cwd, env: io.env },
        given,
      );
      blocks.push(listed.text);
      if (listed.failed) argsFailed++;
    } catch (error) {
      failed = true;
      io.stderr(`error: ${file}: ${(error as Error).message}\n`);
    }
  }
  if (blocks.length > 0) io.stdout(terminalText(blocks.join("\n")));
  if (problems.length > 0) io.stderr(`error: ${new ConfigError(problems).message}\n`);
  const notStarting = argsFailed > 0 ? `; ${argsFailed} trail(s) would not start: their args` : "";
  io.stdout(
    `\n${entries.length} trail file(s) planned${problems.length > 0 ? `; ${new Set(problems.map((p) => p.file)).size} file(s) with problems` : ""}${notStarting}.\n`,
  );
  return failed || argsFailed > 0 ? 2 : 0;
}
