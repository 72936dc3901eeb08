// Target YAML (`trailblaze-config/targets/<id>.yaml`): schema, cross-field
// rules and the TargetConfig the rest of the runtime uses.

import * as z from "zod";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { findDriver, knownDriverKeys, parsePlatform } from "../core/drivers.ts";
import type { Platform } from "../core/drivers.ts";
import { unknownNameMessage } from "../core/did-you-mean.ts";
import { isPlainMap, valueAt } from "../core/describe.ts";
import { validateWith } from "./validate.ts";
import type { Validated } from "./validate.ts";
import { locate, parseYaml, problemAt } from "../core/yaml-file.ts";
import { allowedOriginEntry } from "../core/url-places.ts";
import type { FieldPath, Where, YamlFile } from "../core/yaml-file.ts";

export type PlatformKey = "android" | "ios" | "web";
export const PLATFORM_KEYS: readonly PlatformKey[] = ["android", "ios", "web"];

/** Lifecycle settings any server entry may carry. */
export interface ServerLimits {
  /** `timeout_ms`: per-call timeout (reset by progress notifications). */
  timeoutMs?: number;
  /** `max_total_timeout_ms`: overall cap per call, however much progress is reported. */
  maxTotalTimeoutMs?: number;
  /** `max_message_bytes`: largest message accepted from a subprocess server. */
  maxMessageBytes?: number;
  /** `restart: { max_attempts }`: relaunch after a crash, at most this many times per session. */
  restart?: { maxAttempts: number };
}

export type ServerEntry =
  | ({
      kind: "script";
      script: string;
      bundle?: string;
      /** `requiresHost: true`: a host-only script, skipped unbundled by on-device sessions. */
      requiresHost?: boolean;
      /** `env:` — variables the script gets with the host agent, as written (`${VAR}` expanded at launch). */
      env?: Record<string, string>;
      index: number;
      where: Where;
    } & ServerLimits)
  | ({
      kind: "command";
      /** Position in `mcp_servers:` (0-based), for `mcp_servers[i]` in messages. */
      index: number;
      where: Where;
    } & CommandServer &
      ServerLimits);

/** A `command:` server entry's own fields, as written and once resolved (`ResolvedServer`). */
export interface CommandServer {
  /** As written; `${VAR}` / `${VAR:-default}` are expanded at launch, against the session's env. */
  command: string;
  args: string[];
  /** `env:` as written, expanded at launch like `command`. */
  env: Record<string, string>;
  /** As written in the entry; resolved, absolute. Default: the session's working directory. */
  cwd?: string;
}

export interface TargetPlatform {
  appIds: string[];
  toolSets: string[];
  /** `base_url:` (upstream's): where the app under test is served; tools read it as `ctx.target.resolveBaseUrl()`. */
  baseUrls?: string[];
  /**
   * `allowed_origins:` (ours): where the built-in agent's calls may go besides `base_url` and the
   * trail's recorded URLs: http(s) origins, and deep-link schemes (`myapp:`), as checked place keys.
   */
  allowedOrigins?: string[];
  /** Driver yaml keys (normalized from enum names). */
  drivers?: string[];
  /**
   * `excluded_tools:` — tools never registered in a session on this platform, whichever source
   * (built-in, server, per-file tool) advertises them; they show as skipped, reason `excluded_tools`.
   */
  excludedTools?: string[];
  /** Where each entry of `excludedTools` is written, in the same order. */
  excludedToolWheres?: Where[];
  /** Where this platform's entry is written. */
  where?: Where;
}

/**
 * `simulation:` — the screen the simulated device shows: one capture, or an app map and the
 * waypoint it starts at. Paths as written (relative ones resolve against the workspace root).
 */
type TargetSimulation =
  | { kind: "capture"; capture: string /** where the path is written */; where: Where }
  | { kind: "map"; map: string; start: string; where: Where; startWhere: Where };

/** One name of a target's `tools:` list: a per-file tool found under its tools folder. */
export interface ToolRef {
  name: string;
  where: Where;
  /**
   * Absolute folder this name is looked up in when it is not the target's own `toolsDir`: a
   * tool a trailmap dependency exports lives under that trailmap's `tools/`.
   */
  toolsDir?: string;
}

export interface TargetConfig {
  id: string;
  displayName?: string;
  mcpServers: ServerEntry[];
  /** `tools:` — per-file tools (`export const name = trailblaze.tool(…)`), in file order. */
  tools: ToolRef[];
  /**
   * Absolute folder the `tools:` names are looked up in (with its subfolders). Unset: the
   * workspace root's `tools/`. A trailmap sets its own (`trailmaps/<id>/tools/`).
   */
  toolsDir?: string;
  /** Keys are lower-case platform names, in file order. */
  platforms: Partial<Record<PlatformKey, TargetPlatform>>;
  simulation?: TargetSimulation;
  /** A target from upstream's layout: the id of the trailmap (`trailmaps/<id>/trailmap.yaml`) it comes from. */
  trailmap?: string;
  /**
   * Every trailmap a trailmap target depends on, directly or through others (`dependencies:`;
   * `trailblaze`, the framework one, is built in). Their `defaults:` are already applied to
   * `platforms` and their `exports:` are in `tools`.
   */
  dependencies?: string[];
  /**
   * Upstream's `trail_validation.exempt` (a trailmap's): why `check` reports the problems of the
   * recorded calls of trails run against it (unknown tools, wrong arguments) as warnings.
   */
  validationExempt?: string;
  /** Absolute path of the YAML file. */
  file: string;
  /** Where `id:` is written (file as shown in messages). */
  where: Where;
}

/** A YAML scalar that stands for a string (`8080`, `true` are written unquoted in args/env). */
const scalarString = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const stringList = z.array(z.string()).nullable().optional();

export const serverSchema = z.strictObject({
  script: z.string().min(1).optional(),
  bundle: z.string().min(1).optional(),
  command: z.string().min(1).optional(),
  args: z.array(scalarString).nullable().optional(),
  env: z.record(z.string(), scalarString).nullable().optional(),
  cwd: z.string().min(1).optional(),
  timeout_ms: z.number().int().positive().optional(),
  max_total_timeout_ms: z.number().int().positive().optional(),
  max_message_bytes: z.number().int().positive().optional(),
  restart: z.strictObject({ max_attempts: z.number().int().positive() }).optional(),
  requiresHost: z.boolean().optional(),
});

const platformSchema = z
  .strictObject({
    app_ids: stringList,
    tool_sets: stringList,
    drivers: stringList,
    excluded_tools: stringList,
    base_url: z.string().min(1).optional(),
    allowed_origins: stringList,
  })
  .nullable();

const targetSchema = z.strictObject({
  id: z.string().min(1),
  display_name: z.string().optional(),
  mcp_servers: z.array(serverSchema).nullable().optional(),
  tools: z
    .array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "a tool name (letters, digits, _ and -, at most 64)"))
    .nullable()
    .optional(),
  platforms: z.record(z.string(), platformSchema).nullable().optional(),
  simulation: z
    .strictObject({ capture: z.string().min(1).optional(), map: z.string().min(1).optional(), start: z.string().min(1).optional() })
    .optional(),
});

const SCRIPT_ONLY = ["bundle", "requiresHost"] as const;
// `env:` applies to both kinds: a server inherits only an allow-list of the CLI's environment
// (servers/server-env.ts), so `env:` is how a script gets anything else. Upstream accepts it on
// command entries only.
const COMMAND_ONLY = ["args", "cwd"] as const;

/** A name the environment can hold: not empty, no `=` (it ends the name), no NUL. */
const ENV_NAME = /^[^=\0]+$/;

/**
 * Rules zod cannot express per `mcp_servers` entry (script vs command, fields of the other kind,
 * the overall cap below the per-call timeout), for the list at `base` (`["mcp_servers"]` in a
 * target file, `["target", "mcp_servers"]` in a trailmap).
 */
export function serverEntryProblems(yaml: YamlFile, base: FieldPath): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const servers = valueAt(yaml.data, base);
  if (!Array.isArray(servers)) return problems;
  servers.forEach((entry, i) => {
    const path = [...base, i];
    if (!isPlainMap(entry)) return;
    const hasScript = entry.script !== undefined;
    const hasCommand = entry.command !== undefined;
    if (hasScript && hasCommand) {
      problems.push(
        problemAt(
          yaml,
          [...path, "command"],
          "key",
          "has both script: and command:; an entry is either a script (a .ts/.js MCP server run by the runtime) or a command (any stdio MCP server), not both",
          path,
        ),
      );
    } else if (!hasScript && !hasCommand) {
      problems.push(
        problemAt(yaml, path, "value", "needs script: (a .ts/.js MCP server file) or command: (an executable that speaks MCP over stdio)"),
      );
    } else {
      const timeout = entry.timeout_ms;
      const total = entry.max_total_timeout_ms;
      if (typeof timeout === "number" && typeof total === "number" && total < timeout) {
        problems.push(
          problemAt(
            yaml,
            [...path, "max_total_timeout_ms"],
            "value",
            `${total} is less than timeout_ms (${timeout}); the overall cap must be at least the per-call timeout`,
          ),
        );
      }
      const misplaced = hasScript ? COMMAND_ONLY : SCRIPT_ONLY;
      for (const key of misplaced) {
        if (entry[key] === undefined) continue;
        const belongs = hasScript ? "command:" : "script:";
        problems.push(problemAt(yaml, [...path, key], "key", `${key}: only applies to ${belongs} entries`, path));
      }
      const env = entry.env;
      if (isPlainMap(env)) {
        for (const name of Object.keys(env)) {
          if (ENV_NAME.test(name)) continue;
          problems.push(
            problemAt(
              yaml,
              [...path, "env", name],
              "key",
              `"${name}" is not an environment variable name (it must be non-empty, without = or NUL), e.g. API_BASE`,
              [...path, "env"],
            ),
          );
        }
      }
    }
  });
  return problems;
}

/**
 * The `drivers:` entries of the platform section at `path` that name no driver, or a driver of
 * another platform than `platform`.
 */
export function platformDriverProblems(yaml: YamlFile, path: FieldPath, platform: Platform): ConfigProblem[] {
  const drivers = valueAt(yaml.data, [...path, "drivers"]);
  if (!Array.isArray(drivers)) return [];
  const problems: ConfigProblem[] = [];
  drivers.forEach((d, j) => {
    if (typeof d !== "string") return;
    const at = [...path, "drivers", j];
    const driver = findDriver(d);
    if (!driver) problems.push(problemAt(yaml, at, "value", unknownDriverMessage(d)));
    else if (driver.platform !== platform) {
      const key = driver.platform.toLowerCase();
      const parent = path.slice(0, -1).map(String).join(".");
      problems.push(problemAt(yaml, at, "value", `driver ${driver.key} belongs to platform ${key}; list it under ${parent}.${key}`));
    }
  });
  return problems;
}

/** The `allowed_origins:` entries of the platform section at `path` that are not an http(s) origin or a deep-link scheme. */
export function allowedOriginProblems(yaml: YamlFile, path: FieldPath): ConfigProblem[] {
  const entries = valueAt(yaml.data, [...path, "allowed_origins"]);
  if (!Array.isArray(entries)) return [];
  const problems: ConfigProblem[] = [];
  entries.forEach((entry, i) => {
    if (typeof entry !== "string") return;
    const read = allowedOriginEntry(entry);
    if ("problem" in read) problems.push(problemAt(yaml, [...path, "allowed_origins", i], "value", read.problem));
  });
  return problems;
}

/** The checked place keys of an `allowed_origins:` list that has no problems. */
export function allowedOriginKeys(entries: readonly string[]): string[] {
  return entries.flatMap((entry) => {
    const read = allowedOriginEntry(entry);
    return "key" in read ? [read.key] : [];
  });
}

/** Rules zod cannot express per field: script vs command, platform names, drivers per platform. */
function crossFieldProblems(yaml: YamlFile): ConfigProblem[] {
  const problems = serverEntryProblems(yaml, ["mcp_servers"]);
  problems.push(...simulationProblems(yaml));
  const platforms = valueAt(yaml.data, ["platforms"]);
  if (isPlainMap(platforms)) {
    for (const name of Object.keys(platforms)) {
      const platform = parsePlatform(name);
      if (!platform) {
        problems.push(problemAt(yaml, ["platforms", name], "key", unknownNameMessage("platform", name, PLATFORM_KEYS), ["platforms"]));
        continue;
      }
      problems.push(...platformDriverProblems(yaml, ["platforms", name], platform), ...allowedOriginProblems(yaml, ["platforms", name]));
    }
  }
  return problems;
}

/** `simulation:` is one capture, or a map with its start waypoint. */
function simulationProblems(yaml: YamlFile): ConfigProblem[] {
  const sim = valueAt(yaml.data, ["simulation"]);
  if (!isPlainMap(sim)) return [];
  const has = (key: string) => sim[key] !== undefined;
  if (has("capture") && has("map")) {
    return [
      problemAt(
        yaml,
        ["simulation", "map"],
        "key",
        "has both capture: and map:; the simulated screen is one capture or one app map, not both",
        ["simulation"],
      ),
    ];
  }
  if (has("capture") && has("start"))
    return [
      problemAt(
        yaml,
        ["simulation", "start"],
        "key",
        "start: only applies with map: (a capture is one screen; it has no waypoints to start at)",
        ["simulation"],
      ),
    ];
  if (has("map") && !has("start"))
    return [
      problemAt(
        yaml,
        ["simulation"],
        "value",
        "map: needs start: WAYPOINT_ID, the waypoint the device starts at (e.g. start: myapp/android/login)",
      ),
    ];
  if (!has("capture") && !has("map")) {
    return [
      problemAt(
        yaml,
        ["simulation"],
        "value",
        "needs capture: FILE (one static screen) or map: DIR with start: WAYPOINT_ID (an app map and the waypoint the device starts at)",
      ),
    ];
  }
  return [];
}

/** Unknown driver name, with the closest known keys and the full list. */
export function unknownDriverMessage(name: string): string {
  return `${unknownNameMessage("driver", name, knownDriverKeys())} (or their enum spellings, e.g. ANDROID_ONDEVICE_ACCESSIBILITY)`;
}

/** One validated `mcp_servers` entry as the runtime uses it. */
export function toServerEntry(raw: z.output<typeof serverSchema>, index: number, where: Where): ServerEntry {
  const limits: ServerLimits = {
    ...(raw.timeout_ms !== undefined ? { timeoutMs: raw.timeout_ms } : {}),
    ...(raw.max_total_timeout_ms !== undefined ? { maxTotalTimeoutMs: raw.max_total_timeout_ms } : {}),
    ...(raw.max_message_bytes !== undefined ? { maxMessageBytes: raw.max_message_bytes } : {}),
    ...(raw.restart ? { restart: { maxAttempts: raw.restart.max_attempts } } : {}),
  };
  if (raw.script !== undefined) {
    return {
      kind: "script",
      script: raw.script,
      ...(raw.bundle !== undefined ? { bundle: raw.bundle } : {}),
      ...(raw.requiresHost ? { requiresHost: true } : {}),
      ...(raw.env ? { env: raw.env } : {}),
      ...limits,
      index,
      where,
    };
  }
  return {
    kind: "command",
    command: raw.command!,
    args: raw.args ?? [],
    env: raw.env ?? {},
    ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
    ...limits,
    index,
    where,
  };
}

function toSimulation(
  raw: { capture?: string | undefined; map?: string | undefined; start?: string | undefined },
  yaml: YamlFile,
): TargetSimulation {
  if (raw.capture !== undefined) return { kind: "capture", capture: raw.capture, where: locate(yaml, ["simulation", "capture"]) };
  return {
    kind: "map",
    map: raw.map!,
    start: raw.start!,
    where: locate(yaml, ["simulation", "map"]),
    startWhere: locate(yaml, ["simulation", "start"]),
  };
}

/**
 * Validates a parsed target file; never throws. `path` is the absolute file
 * path stored in `TargetConfig.file` (messages use `yaml.file`).
 */
export function readTargetConfig(yaml: YamlFile, path: string): Validated<TargetConfig> {
  const checked = validateWith(targetSchema, yaml);
  const problems = [...checked.problems, ...crossFieldProblems(yaml)];
  if (problems.length > 0 || !checked.value) return { problems };
  const raw = checked.value;
  const platforms: Partial<Record<PlatformKey, TargetPlatform>> = {};
  for (const [name, body] of Object.entries(raw.platforms ?? {})) {
    const key = parsePlatform(name)!.toLowerCase() as PlatformKey;
    const drivers = body?.drivers?.map((d) => findDriver(d)!.key);
    const excluded = body?.excluded_tools;
    platforms[key] = {
      appIds: body?.app_ids ?? [],
      toolSets: body?.tool_sets ?? [],
      ...(body?.base_url ? { baseUrls: [body.base_url] } : {}),
      ...(body?.allowed_origins ? { allowedOrigins: allowedOriginKeys(body.allowed_origins) } : {}),
      ...(drivers ? { drivers } : {}),
      ...(excluded
        ? { excludedTools: excluded, excludedToolWheres: excluded.map((_, i) => locate(yaml, ["platforms", name, "excluded_tools", i])) }
        : {}),
      where: locate(yaml, ["platforms", name]),
    };
  }
  const value: TargetConfig = {
    id: raw.id,
    ...(raw.display_name !== undefined ? { displayName: raw.display_name } : {}),
    mcpServers: (raw.mcp_servers ?? []).map((s, i) => toServerEntry(s, i, locate(yaml, ["mcp_servers", i]))),
    tools: (raw.tools ?? []).map((name, i) => ({ name, where: locate(yaml, ["tools", i]) })),
    platforms,
    ...(raw.simulation ? { simulation: toSimulation(raw.simulation, yaml) } : {}),
    file: path,
    where: locate(yaml, ["id"]),
  };
  return { value, problems: [] };
}

/** Parses one target file; throws ConfigError listing every problem in it. */
export function parseTargetConfig(file: string, text: string, path: string = file): TargetConfig {
  const result = readTargetConfig(parseYaml(file, text), path);
  if (!result.value) throw new ConfigError(result.problems);
  return result.value;
}
