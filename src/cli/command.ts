// The contract every CLI subcommand implements; main.ts routes argv to one of them.

export interface CliIO {
  /** Human output and `--json` documents. */
  stdout(text: string): void;
  /** Diagnostics, warnings, progress. */
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (live output, colours unless NO_COLOR). */
  isTTY: boolean;
}

export interface Command {
  name: string;
  /** Full `--help` text. */
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
