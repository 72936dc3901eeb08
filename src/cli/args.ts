// Argument parsing shared by commands: node:util parseArgs, with the options checked first so a
// mistake gets our message (the option, what is wrong, the closest real option, where --help is).
// `--help` never reaches a command: the router (main.ts) answers it.

import { parseArgs, type ParseArgsConfig } from "node:util";
import { closest } from "../core/did-you-mean.ts";
import { UsageError } from "../errors.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The problem with one option of `argv`, or undefined when every option is known and well formed. */
function optionProblem(argv: readonly string[], options: Options): string | undefined {
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return undefined;
    if (!arg.startsWith("-") || arg === "-") continue;
    const long = arg.startsWith("--");
    const [written, inline] = long ? [arg.slice(2).split("=")[0]!, arg.includes("=")] : [arg.slice(1, 2), arg.length > 2];
    const name = long ? written : byShort.get(written);
    const option = name === undefined ? undefined : options[name];
    if (!option) {
      const near = closest(written, Object.keys(options));
      const hint = near.length > 0 ? `; did you mean ${near.map((n) => `--${n}`).join(" or ")}?` : "";
      return `unknown option ${arg.split("=")[0]}${hint}`;
    }
    if (option.type === "boolean") {
      if (long && inline) return `--${name} takes no value (got ${arg})`;
      continue;
    }
    if (inline) continue;
    const next = argv[i + 1];
    if (next === undefined || (next.startsWith("-") && next !== "-")) return `--${name} needs a value`;
    i++;
  }
  return undefined;
}

/** parseArgs that throws UsageError naming the command, the option and pointing at `--help`. */
export function parseCommandArgs<const O extends Options>(command: string, argv: string[], options: O) {
  const problem = optionProblem(argv, options);
  const usage = `\nRun \`trailblaze ${command} --help\` for usage.`;
  if (problem) throw new UsageError(`${command}: ${problem}${usage}`);
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^TypeError \[[A-Z_]+\]: /, "") : String(error);
    throw new UsageError(`${command}: ${message}${usage}`);
  }
}
