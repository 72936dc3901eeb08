// What a session's registry holds and the warnings about it: built-ins and the map's tools
// through the same `_meta` gates as any tool, the servers a session skips (listed as skipped, by
// tool name when known), each server's tool list (registered again after tools/list_changed or a
// restart) with its naming findings, the toolsets that apply, and the config entries that name
// nothing (a toolset's unknown tool, an unknown toolset id, an exclusion that excludes nothing).

import { relative } from "node:path";
import { formatProblem } from "../errors.ts";
import { unknownToolsetRefs } from "../config/workspace.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { didYouMean } from "../core/did-you-mean.ts";
import { checkToolName, firstWarning, formatNameFinding, scopingFinding, type NameFinding } from "../core/tool-names.ts";
import { applyFilters, type SessionFacts } from "../registry/filters.ts";
import { registerMcpTools } from "../registry/register-mcp-tools.ts";
import type { RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import type { LaunchedServer } from "../servers/launch.ts";
import { describeExclusion, exclusionsOf, type Exclusion } from "./exclusions.ts";
import type { FleetPlan } from "./server-fleet.ts";
import type { SessionSpec } from "./session-spec.ts";

/** Why a per-file tool that runs as a host subprocess is not in an on-device session. */
const PER_FILE_HOST_ONLY = "a per-file tool that runs as a host subprocess (runtime: subprocess, or requiresHost: true in its spec)";

/**
 * `meta`: a wrong-typed `_meta["trailblaze/*"]` value; `name`: a naming finding (see
 * `onNameWarning`); `toolset`: a toolset entry no source registered, or a target `tool_sets:`
 * id no toolset defines; `map`: something in the simulated screen's app map that was ignored
 * (an unknown selector field in a waypoint).
 */
export type SessionWarningKind = "meta" | "name" | "toolset" | "map";

export interface ToolAssemblyOptions {
  /** Problems that do not stop the session; `kind` says what they are about. */
  onWarning?(message: string, kind: SessionWarningKind): void;
  /**
   * Advisory naming findings (convention, length, [TrailmapScopingCheck]) for each server's
   * advertised tools, every time they register. Default: each is passed to `onWarning` once
   * per process (per tool and source, or per `<targetId>@<script>`).
   */
  onNameWarning?(finding: NameFinding, source: string): void;
  /** Non-fatal notices: a server skipped in this agent mode. */
  onNotice?(message: string): void;
}

export class ToolAssembly {
  readonly #registry: ToolRegistry;
  readonly #spec: SessionSpec;
  readonly #options: ToolAssemblyOptions;
  readonly #exclusions: Exclusion[];
  /** What the registration filters need to know about this session. */
  readonly #facts: SessionFacts;

  constructor(registry: ToolRegistry, spec: SessionSpec, options: ToolAssemblyOptions) {
    this.#registry = registry;
    this.#spec = spec;
    this.#options = options;
    this.#exclusions = exclusionsOf(spec);
    this.#facts = {
      driver: spec.driver.key,
      platform: spec.driver.platform,
      agent: spec.agent,
      excluded: new Map(this.#exclusions.map((e) => [e.name, describeExclusion(spec.target.id, e)])),
    };
  }

  /** Built-ins pass the same `_meta` gates as any tool (web_* only on web, android_* only on Android…), and the target's excluded_tools. */
  addBuiltins(tools: readonly RegisteredTool[]): void {
    for (const tool of tools) {
      const decision = applyFilters(tool.meta, this.#facts, tool.name);
      if (decision.included) this.#registry.register(tool);
      else this.#registry.skip({ name: tool.name, source: tool.source, reason: decision.key, detail: decision.reason });
    }
  }

  /** The map's shortcuts and trailheads, callable by their ids (collisions are loud, as for any tool). */
  addNavigation(tools: readonly RegisteredTool[]): void {
    for (const tool of tools) this.#registry.register(tool);
  }

  /** The servers this agent mode does not start, each with a notice, listed as skipped: by tool name when known, else as "*". */
  addSkipped(skipped: FleetPlan["skipped"]): void {
    for (const { server, why } of skipped) {
      this.#options.onNotice?.(`${server.display}: ${why.detail}`);
      if (server.kind === "script" && server.perFile?.runtime === "subprocess" && this.#spec.agent === "on-device") {
        // Per-file tools are known by name without starting them: each is skipped as the host-only tool it is.
        for (const name of server.perFile.tools) {
          this.#registry.skip({ name, source: server.display, reason: META_KEYS.requiresHost, detail: PER_FILE_HOST_ONLY });
        }
        continue;
      }
      this.#registry.skip({ name: "*", source: server.display, reason: why.reason, detail: why.detail });
    }
  }

  /** (Re-)registers a server's tool list under its source, through the filters and collision checks. */
  addServer(server: ResolvedServer, launched: LaunchedServer): void {
    this.#registry.unregisterSource(server.display);
    try {
      registerMcpTools(this.#registry, launched.connection, launched.tools, {
        source: server.display,
        transport: launched.transport,
        session: this.#facts,
        onWarning: (message) => this.#options.onWarning?.(message, "meta"),
      });
    } catch (error) {
      // Half a tool list is worse than none: the session is failing anyway.
      this.#registry.unregisterSource(server.display);
      throw error;
    }
    this.#checkNames(
      server,
      launched.tools.map((tool) => tool.name),
    );
  }

  /** Once every source registered: the toolsets that apply, and warnings for config entries that name nothing. */
  finish(): void {
    this.#addToolsets();
    this.#warnUnknownToolsetRefs();
    this.#warnUnusedExclusions();
  }

  #warn(message: string): void {
    this.#options.onWarning?.(message, "toolset");
  }

  /** Advisory naming findings for every advertised tool (filtered ones too); built-ins are exempt. */
  #checkNames(server: ResolvedServer, names: readonly string[]): void {
    const { target } = this.#spec;
    const identity = server.kind === "script" ? server.script : server.display;
    const findings = names.flatMap((name) =>
      checkToolName(name).map((finding) => ({ finding, key: `${finding.rule}:${name}@${identity}` })),
    );
    // Only a target's own scripts are held to its prefix: command: servers are often third-party.
    const scoping = server.kind === "script" ? scopingFinding(target.id, names) : undefined;
    if (scoping) findings.push({ finding: scoping, key: `${target.id}@${identity}` });
    for (const { finding, key } of findings) {
      if (this.#options.onNameWarning) this.#options.onNameWarning(finding, server.display);
      else if (firstWarning(key)) this.#options.onWarning?.(formatNameFinding(finding, server.display), "name");
    }
  }

  #addToolsets(): void {
    const spec = this.#spec;
    const platformKey = spec.driver.platform.toLowerCase() as "android" | "ios" | "web";
    const enabled = new Set(spec.target.platforms[platformKey]?.toolSets ?? []);
    for (const toolset of spec.toolsets) {
      let inactiveReason: string | undefined;
      if (toolset.platforms?.length && !toolset.platforms.includes(spec.driver.platform)) {
        inactiveReason = `platforms [${toolset.platforms.join(", ")}] exclude ${spec.driver.platform}`;
      } else if (toolset.drivers?.length && !toolset.drivers.includes(spec.driver.key)) {
        inactiveReason = `drivers [${toolset.drivers.join(", ")}] exclude ${spec.driver.key}`;
      } else if (!toolset.alwaysEnabled && !enabled.has(toolset.id)) {
        inactiveReason = `not listed in target ${spec.target.id} platforms.${platformKey}.tool_sets and not always_enabled`;
      }
      this.#registry.addToolset({
        id: toolset.id,
        description: toolset.description,
        tools: toolset.tools,
        origin: relative(spec.cwd, toolset.file) || toolset.file,
        active: inactiveReason === undefined,
        ...(inactiveReason ? { inactiveReason } : {}),
      });
      if (inactiveReason !== undefined) continue;
      for (const name of toolset.tools) {
        if (!this.#registry.has(name) && !this.#registry.findSkipped(name)) {
          this.#warn(`toolset ${toolset.id} (${relative(spec.cwd, toolset.file)}) lists tool ${name}, which no source registered`);
        }
      }
    }
  }

  #warnUnknownToolsetRefs(): void {
    const known = new Set(this.#registry.toolsets().map((t) => t.id));
    for (const problem of unknownToolsetRefs([this.#spec.target], known)) this.#warn(formatProblem(problem));
  }

  /** An excluded_tools entry no source advertised excludes nothing: likely a misspelt name. */
  #warnUnusedExclusions(): void {
    for (const exclusion of this.#exclusions) {
      if (this.#registry.findSkipped(exclusion.name)) continue;
      const hint = didYouMean(exclusion.name, this.#registry.names());
      this.#warn(
        `${describeExclusion(this.#spec.target.id, exclusion, exclusion.name)}, but no source advertises a tool of that name, so it excludes nothing${hint}`,
      );
    }
  }
}
