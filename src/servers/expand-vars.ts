// `${VAR}` and `${VAR:-default}` in server entries (a command's `command`, `args` and `env`, a
// script's `env`), expanded against the session's environment when the server is launched (so
// secrets stay out of the YAML and the logs). Only what an entry names this way reaches the server.

import { ConfigError, UsageError, type ConfigProblem } from "../errors.ts";
import { formatPath } from "../core/yaml-file.ts";
import type { ResolvedServer } from "../config/script-paths.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

interface Expansion {
  value: string;
  /** Variables referenced without a default that the environment does not define. */
  missing: string[];
}

/**
 * Replaces `${NAME}` with the variable's value (empty counts as set) and `${NAME:-fallback}`
 * with the value, or `fallback` when the variable is unset or empty (as in POSIX shells).
 * Anything else, `$NAME` included, is left as written.
 */
export function expandVars(text: string, env: Record<string, string | undefined>): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const current = env[name];
    if (fallback !== undefined) return current === undefined || current === "" ? fallback : current;
    if (current === undefined) {
      missing.push(name);
      return whole;
    }
    return current;
  });
  return { value, missing };
}

interface ExpandedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Expands the values an entry gives through `expand`; every reference to an unset variable
 * without a default is reported at once, located at the entry, when `done` is called.
 */
function expander(server: ResolvedServer, env: Record<string, string | undefined>) {
  const unset: { path: (string | number)[]; name: string }[] = [];
  const expand = (text: string, path: (string | number)[]): string => {
    const { value, missing } = expandVars(text, env);
    for (const name of missing) unset.push({ path, name });
    return value;
  };
  const expandEnv = (entries: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, expand(value, ["env", key])]));
  const done = (): void => {
    if (unset.length === 0) return;
    const message = (name: string) => `\${${name}} is not set in the environment; set it, or give a default: \${${name}:-value}`;
    const origin = server.origin;
    if (!origin) throw new UsageError(`${server.display}: ${message(unset[0]!.name)}`);
    const problems: ConfigProblem[] = unset.map(({ path, name }) => ({
      ...origin.where,
      path: formatPath(["mcp_servers", origin.index, ...path]),
      message: message(name),
    }));
    throw new ConfigError(problems);
  };
  return { expand, expandEnv, done };
}

/**
 * Expands `command`, `args` and `env` values of a command entry. Every reference to an unset
 * variable without a default is reported at once, located at the entry.
 */
export function expandCommand(
  server: Extract<ResolvedServer, { kind: "command" }>,
  env: Record<string, string | undefined>,
): ExpandedCommand {
  const { expand, expandEnv, done } = expander(server, env);
  const command = expand(server.command, ["command"]);
  const args = server.args.map((arg, i) => expand(arg, ["args", i]));
  const expandedEnv = expandEnv(server.env);
  done();
  return { command, args, env: expandedEnv };
}

/** The `env:` values of a script entry, expanded the same way (none: an empty map). */
export function expandScriptEnv(
  server: Extract<ResolvedServer, { kind: "script" }>,
  env: Record<string, string | undefined>,
): Record<string, string> {
  if (server.env === undefined) return {};
  const { expandEnv, done } = expander(server, env);
  const expanded = expandEnv(server.env);
  done();
  return expanded;
}
