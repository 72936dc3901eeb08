// Host-mode launcher: runs a `script:` server as a bun (or node+tsx) subprocess, or a
// `command:` server as given, with an allow-listed environment (server-env.ts), the TRAILBLAZE_*
// contract and what the entry's `env:` names, and connects the SDK Client to it.

import { delimiter, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { stderrLogFile } from "../core/log-layout.ts";
import { detectRuntime, explainStartupFailure, type Runtime } from "../transports/stdio/runtime.ts";
import { ProcessTransport } from "../transports/stdio/process-transport.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { McpConnection } from "./mcp-connection.ts";
import { expandCommand, expandScriptEnv } from "./expand-vars.ts";
import { inheritedEnv } from "./server-env.ts";
import type { LaunchContext, LaunchSpec, LaunchedServer, Launcher } from "./launch.ts";
import { hostBundle, nodeBundle } from "../bundle/host-bundle.ts";
import { suppliedNodePath, suppliedNote } from "../bundle/supplied-packages.ts";
import { BundleError } from "../errors.ts";
import { MASK } from "../core/secrets.ts";

/** The variables every tool server gets (docs/cli.md "The environment of a tool server"), layered over the inherited ones. */
function trailblazeEnv(spec: LaunchSpec, script: string): Record<string, string> {
  return {
    TRAILBLAZE_DEVICE_PLATFORM: spec.driver.platform,
    TRAILBLAZE_DEVICE_DRIVER: spec.driver.key,
    TRAILBLAZE_DEVICE_WIDTH_PX: String(spec.screen.width),
    TRAILBLAZE_DEVICE_HEIGHT_PX: String(spec.screen.height),
    TRAILBLAZE_SESSION_ID: spec.id,
    TRAILBLAZE_TOOLSET_FILE: script,
  };
}

/** The env contract for a `command:` server: the same variables, minus the script path it does not have. */
function commandEnv(spec: LaunchSpec): Record<string, string> {
  const { TRAILBLAZE_TOOLSET_FILE: _none, ...rest } = trailblazeEnv(spec, "");
  return rest;
}

/**
 * The command line for a script: bun runs its precompiled bundle, node an ESM bundle with source
 * maps (unless TRAILBLAZE_PRECOMPILE=0); when precompiling fails, the source (node through tsx),
 * with a note saying why.
 */
async function scriptArgs(runtime: Runtime, script: string, spec: LaunchSpec, context: LaunchContext): Promise<string[]> {
  if (spec.env.TRAILBLAZE_PRECOMPILE === "0") return runtime.argsFor(script, SUPPLIED_PRELOAD);
  try {
    if (typeof Bun === "undefined" && runtime.kind === "bun") return runtime.argsFor(script, SUPPLIED_PRELOAD);
    const bundle = runtime.kind === "node" ? await nodeBundle(script, spec.root) : await hostBundle(script, spec.root);
    const note = suppliedNote(script, bundle.supplied);
    if (note) context.onNotice?.(note);
    return runtime.kind === "node" ? ["--enable-source-maps", bundle.file] : runtime.argsFor(bundle.file);
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    context.onNotice?.(`${error.message}; running it from source`);
    return runtime.argsFor(script, SUPPLIED_PRELOAD);
  }
}

/** Run from source, bun preloads this: supplied packages resolve (supplied-preload.ts). */
const SUPPLIED_PRELOAD = fileURLToPath(new URL("../bundle/supplied-preload.ts", import.meta.url));

/**
 * What a script run from source needs to find the packages trailblaze-ts supplies after its own:
 * bun through the preload (TRAILBLAZE_SUPPLIED_PACKAGES), node through NODE_PATH, ahead of the
 * NODE_PATH the entry's `env:` or the session gives.
 */
function suppliedEnv(spec: LaunchSpec, entryEnv: Record<string, string>): Record<string, string> {
  const folder = suppliedNodePath(spec.root);
  return {
    TRAILBLAZE_SUPPLIED_PACKAGES: folder,
    NODE_PATH: [folder, entryEnv.NODE_PATH ?? spec.env.NODE_PATH].filter(Boolean).join(delimiter),
  };
}

/**
 * How a server is spawned: the runtime for a script, the expanded command line for a command.
 * Either way its environment is the allow-listed variables of the session's (never the whole of
 * it: a `--secret` read from a variable, or an unrelated credential, stays in the CLI), then the
 * TRAILBLAZE_* contract, then the entry's `env:` (which may override the contract).
 */
async function spawnPlan(
  server: ResolvedServer,
  spec: LaunchSpec,
  context: LaunchContext,
): Promise<{ command: string; args: string[]; cwd: string; env: Record<string, string | undefined> }> {
  const isSecret = context.mask ? (value: string) => context.mask!(value) === MASK : undefined;
  const inherited = await inheritedEnv(spec.env, isSecret);
  if (server.kind === "script") {
    const entryEnv = expandScriptEnv(server, spec.env);
    const runtime = await detectRuntime(spec.env);
    if (runtime.fellBack) {
      context.onNotice?.(
        "no bun was found on PATH: script servers run with node (slower to start); install bun or run trailblaze with bun",
      );
    }
    return {
      command: runtime.command,
      args: await scriptArgs(runtime, server.script, spec, context),
      cwd: server.cwd ?? dirname(server.script),
      env: { ...inherited, ...trailblazeEnv(spec, server.script), ...entryEnv, ...suppliedEnv(spec, entryEnv) },
    };
  }
  const expanded = expandCommand(server, spec.env);
  return {
    command: expanded.command,
    args: expanded.args,
    cwd: server.cwd ?? spec.cwd,
    env: { ...inherited, ...commandEnv(spec), ...expanded.env },
  };
}

/**
 * Host mode: a `script:` server runs under bun (or node + tsx) with the TRAILBLAZE_* env contract;
 * a `command:` server is any executable speaking MCP over stdio, with its `args` and `cwd`. Both
 * get their entry's `env` (`${VAR}` / `${VAR:-default}` expanded) over an allow-listed environment.
 * Either way the child leads its own process group.
 */
export const launchStdioServer: Launcher = async (server, spec, context): Promise<LaunchedServer> => {
  const plan = await spawnPlan(server, spec, context);
  const transport = new ProcessTransport({
    name: server.display,
    ...plan,
    ...(spec.logsDir !== undefined ? { stderrLogFile: stderrLogFile(spec.logsDir, server.display) } : {}),
    ...(context.mask ? { mask: (line: string) => context.mask!(line) } : {}),
    ...(server.maxMessageBytes !== undefined ? { maxMessageBytes: server.maxMessageBytes } : {}),
    ...(server.kind === "script" ? { explainStartup: (tail: readonly string[]) => explainStartupFailure(tail, server.script) } : {}),
  });
  // The session closing while this server is still starting stops it at once.
  const stop = () => void transport.terminate();
  context.signal.addEventListener("abort", stop, { once: true });
  const { connection, tools } = await McpConnection.open({
    name: server.display,
    transport,
    handshakeTimeoutMs: spec.handshakeTimeoutMs,
    callTimeoutMs: server.timeoutMs ?? spec.callTimeoutMs,
    ...(server.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: server.maxTotalTimeoutMs } : {}),
    execute: (name, args) => context.execute(name, args),
  }).finally(() => context.signal.removeEventListener("abort", stop));
  return { connection, tools, transport: "stdio", pid: transport.pid };
};
