// The contract every CLI subcommand implements; main.ts routes argv to one of them.

import type { Invocation } from "./invocation.ts";

export interface CliIO {
  /** Human output and `--json` documents. */
  stdout(text: string): void;
  /** Diagnostics, warnings, progress. */
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (live output, colours unless NO_COLOR). */
  isTTY: boolean;
  /** How the user started the CLI, for the commands we print (default: read from `env`, invocation.ts). */
  invocation?: Invocation;
}

export interface Command {
  name: string;
  /** Full `--help` text; commands in it are spelled `trailblaze <command>` (rendered by invocation.ts). */
  help: string;
  /** Returns the process exit code: 0 ok, 1 a step/call/check failed, 2 usage/config/environment. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** A command as the router lists it: what `trailblaze --help` shows, and how to load the rest. */
export interface CommandEntry {
  name: string;
  /** One line for `trailblaze --help`. */
  summary: string;
  load(): Promise<Command>;
}
