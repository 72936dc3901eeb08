// Argument parsing shared by commands: node:util parseArgs with our usage
// errors. `--help` never reaches a command: the router (main.ts) answers it.

import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** parseArgs that throws UsageError naming the command and pointing at `--help`. */
export function parseCommandArgs<const O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^TypeError \[[A-Z_]+\]: /, "") : String(error);
    throw new UsageError(`${command}: ${message}\nRun \`bun trailblaze ${command} --help\` for usage.`);
  }
}
