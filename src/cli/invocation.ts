// How the user started the CLI (`npx trailblaze`, `bunx trailblaze`, `bun trailblaze`, a bare
// `trailblaze` on PATH), so every command we print — help, hints, errors — runs as printed.
// Our texts spell commands as `trailblaze <command> …` and `bun test`; they are rendered here.

/** The words a printed command starts with. */
export interface Invocation {
  /** How to run this CLI again, e.g. `npx trailblaze`. */
  cli: string;
  /** How to run the Bun that came with it, e.g. `npx bun` (for `bun test`). */
  bun: string;
}

/** Command names `render` recognises after `trailblaze ` (invocation.test.ts checks it covers every command). */
const COMMAND_WORD =
  /(?<![\w./@-])trailblaze(?= (?:<command>|--?[a-z]|(?:run|eval|tools|types|call|step|verify|bundle|check-bundle|check|mcp|init-tool|init|screen|merge-reports|map)\b))/g;
const BUN_TEST = /(?<![\w./@-])bun test\b/g;

/**
 * The invocation, read from what npm, npx, bun and bunx put in the environment, and from the
 * launcher (launcher.sh exports how it was called). Outside those: `npx trailblaze`, which works
 * in any project that installed the package.
 */
export function invocationOf(env: Record<string, string | undefined>): Invocation {
  const byBun = (env.npm_config_user_agent ?? "").startsWith("bun/");
  const event = env.npm_lifecycle_event;
  if (env.npm_command === "exec" && (event === "npx" || event === "bunx")) {
    return byBun ? { cli: "bunx trailblaze", bun: "bun" } : { cli: "npx trailblaze", bun: "npx bun" };
  }
  // `bun trailblaze` runs the package script of that name (this repository) or the installed bin.
  if (byBun && (event === "trailblaze" || (event === undefined && env.npm_command === "run-script")))
    return { cli: "bun trailblaze", bun: "bun" };
  if (event === "trailblaze") return { cli: "npm run trailblaze --", bun: "npx bun" };
  // Started by name from PATH (a global install, or node_modules/.bin on PATH).
  const launched = env.TRAILBLAZE_LAUNCHED_AS;
  if (launched !== undefined && !launched.includes("/")) return { cli: launched, bun: "npx bun" };
  return { cli: "npx trailblaze", bun: "npx bun" };
}

/** `text` with each printed `trailblaze <command>` and `bun test` in the user's own words. */
export function renderCommands(text: string, invocation: Invocation): string {
  return text.replace(COMMAND_WORD, invocation.cli).replace(BUN_TEST, `${invocation.bun} test`);
}

/** A renderer for the commands a command prints, in the words its user typed. */
export function printedCommands(io: { invocation?: Invocation; env: Record<string, string | undefined> }): (text: string) => string {
  const invocation = io.invocation ?? invocationOf(io.env);
  return (text) => renderCommands(text, invocation);
}
