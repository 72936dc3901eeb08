// Resolving a target's mcp_servers paths (script, bundle, command cwd) against the workspace
// root (the folder holding trailblaze-config/ or trails/), reporting every missing file at once.

import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { displayPath } from "./config-files.ts";
import type { ConfigProblem } from "../errors.ts";
import type { CommandServer, ServerEntry, ServerLimits, TargetConfig } from "./target-config.ts";
import type { Where } from "../core/yaml-file.ts";

/** Where a server entry is written, for located messages (`targets/x.yaml:4:5 mcp_servers[1].env.TOKEN: …`). */
interface ServerOrigin {
  where: Where;
  /** Position in `mcp_servers:` (0-based). */
  index: number;
}

/** A server entry with its paths resolved. */
export type ResolvedServer =
  | ({
      kind: "script";
      /** absolute */
      script: string;
      /** absolute */
      bundle?: string;
      /** A host-only script (`requiresHost: true`): on-device sessions skip it without bundling it. */
      requiresHost?: boolean;
      /** `env:` as written; `${VAR}` / `${VAR:-default}` are expanded at launch, against the session's env. */
      env?: Record<string, string>;
      /** A server the runtime generated for per-file tools, and where they run. */
      perFile?: { runtime: "inProcess" | "subprocess"; tools: string[] };
      /** absolute; default: the script's folder */
      cwd?: string;
      display: string;
      origin?: ServerOrigin;
    } & ServerLimits)
  | ({
      kind: "command";
      display: string;
      origin?: ServerOrigin;
    } & CommandServer &
      ServerLimits);

type Kind = "file" | "folder";

function check(path: string, want: Kind): "ok" | "missing" | "wrong-kind" {
  try {
    const s = statSync(path);
    return (want === "file" ? s.isFile() : s.isDirectory()) ? "ok" : "wrong-kind";
  } catch {
    return "missing";
  }
}

/**
 * Resolves `value` (relative → against the workspace `root`, absolute → as is) and adds a
 * located problem when it is missing or of the wrong kind.
 */
function resolveChecked(entry: ServerEntry, field: string, value: string, want: Kind, root: string, problems: ConfigProblem[]): string {
  const absolute = isAbsolute(value) ? value : resolve(root, value);
  const state = check(absolute, want);
  if (state !== "ok") {
    const how = isAbsolute(value)
      ? ""
      : ` (resolved against ${root}; relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)`;
    const what = state === "missing" ? `${want} ${value} not found${how}` : `${value} is not a ${want}${how}`;
    problems.push({ ...entry.where, path: `mcp_servers[${entry.index}].${field}`, message: what });
  }
  return absolute;
}

/**
 * The absolute path of a script entry's `script:`. Throws a ConfigError located
 * at the entry when the file does not exist.
 */
export function resolveScriptPath(entry: Extract<ServerEntry, { kind: "script" }>, root: string): string {
  const problems: ConfigProblem[] = [];
  const path = resolveChecked(entry, "script", entry.script, "file", root, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return path;
}

/**
 * Every server entry of a target with absolute paths (`script`, `bundle`,
 * command `cwd`). All missing files and folders are reported in one ConfigError.
 */
export function resolveTargetServers(target: TargetConfig, root: string): ResolvedServer[] {
  const problems: ConfigProblem[] = [];
  const servers = target.mcpServers.map((entry): ResolvedServer => {
    const limits: ServerLimits = {
      ...(entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
      ...(entry.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: entry.maxTotalTimeoutMs } : {}),
      ...(entry.maxMessageBytes !== undefined ? { maxMessageBytes: entry.maxMessageBytes } : {}),
      ...(entry.restart ? { restart: entry.restart } : {}),
    };
    const origin = { where: entry.where, index: entry.index };
    if (entry.kind === "script") {
      const script = resolveChecked(entry, "script", entry.script, "file", root, problems);
      const bundle = entry.bundle !== undefined ? resolveChecked(entry, "bundle", entry.bundle, "file", root, problems) : undefined;
      return {
        kind: "script",
        script,
        ...(bundle ? { bundle } : {}),
        ...(entry.requiresHost ? { requiresHost: true } : {}),
        ...(entry.env ? { env: entry.env } : {}),
        display: displayPath(script, root),
        origin,
        ...limits,
      };
    }
    const dir = entry.cwd !== undefined ? resolveChecked(entry, "cwd", entry.cwd, "folder", root, problems) : undefined;
    return {
      kind: "command",
      command: entry.command,
      args: entry.args,
      env: entry.env,
      ...(dir ? { cwd: dir } : {}),
      display: [entry.command, ...entry.args].join(" "),
      origin,
      ...limits,
    };
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return servers;
}
