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

/** A negative number (`-1`, `-0.5`): after an option that takes a value, it is that value, not an option. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/**
 * `argv` with `--name -1` (or `-n -1`) written `--name=-1` for options that take a value, so a
 * negative number reaches the option's own check (`--workers -1`: "expects a whole number from 1 to
 * 64") instead of reading as an option with no value.
 */
function negativeValuesInline(argv: readonly string[], options: Options): string[] {
  const byShort = new Map(Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return [...out, ...argv.slice(i)];
    const name = arg.startsWith("--") ? arg.slice(2) : /^-[^-]$/.test(arg) ? byShort.get(arg.slice(1)) : undefined;
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs that throws UsageError naming the command, the option and pointing at `--help`. */
export function parseCommandArgs<const O extends Options>(command: string, given: string[], options: O) {
  const argv = negativeValuesInline(given, options);
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
