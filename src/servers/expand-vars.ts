// `${VAR}` and `${VAR:-default}` in `command:` entries, expanded against the session's
// environment when the server is launched (so secrets stay out of the YAML and the logs).

import { ConfigError, UsageError, type ConfigProblem } from "../errors.ts";
import { formatPath } from "../core/yaml-file.ts";
import type { ResolvedServer } from "../config/script-paths.ts";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
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

export interface ExpandedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Expands `command`, `args` and `env` values of a command entry. Every reference to an unset
 * variable without a default is reported at once, located at the entry.
 */
export function expandCommand(server: Extract<ResolvedServer, { kind: "command" }>, env: Record<string, string | undefined>): ExpandedCommand {
  const unset: { path: (string | number)[]; name: string }[] = [];
  const expand = (text: string, path: (string | number)[]): string => {
    const { value, missing } = expandVars(text, env);
    for (const name of missing) unset.push({ path, name });
    return value;
  };
  const command = expand(server.command, ["command"]);
  const args = server.args.map((arg, i) => expand(arg, ["args", i]));
  const expandedEnv = Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, expand(value, ["env", key])]));
  if (unset.length > 0) {
    const message = (name: string) => `\${${name}} is not set in the environment; set it, or give a default: \${${name}:-value}`;
    const origin = server.origin;
    if (!origin) throw new UsageError(`${server.display}: ${message(unset[0]!.name)}`);
    const problems: ConfigProblem[] = unset.map(({ path, name }) => ({
      ...origin.where,
      path: formatPath(["mcp_servers", origin.index, ...path]),
      message: message(name),
    }));
    throw new ConfigError(problems);
  }
  return { command, args, env: expandedEnv };
}
