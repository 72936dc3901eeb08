// Host-mode launcher: runs a `script:` server as a bun (or node+tsx) subprocess
// with the TRAILBLAZE_* environment contract, and connects the SDK Client to it.

import { dirname, join } from "node:path";
import { ServerExitedError, UsageError } from "../errors.ts";
import type { SessionSpec } from "../session/session-spec.ts";
import { detectRuntime, explainStartupFailure } from "../transports/stdio/runtime.ts";
import { ProcessTransport } from "../transports/stdio/process-transport.ts";
import { McpConnection } from "./mcp-connection.ts";
import type { LaunchedServer, Launcher, ResolvedServer } from "./launch.ts";

/** The public env contract (scope record, "Environment contract"), layered over the parent env. */
export function trailblazeEnv(spec: SessionSpec, script: string): Record<string, string> {
  return {
    TRAILBLAZE_DEVICE_PLATFORM: spec.driver.platform,
    TRAILBLAZE_DEVICE_DRIVER: spec.driver.key,
    TRAILBLAZE_DEVICE_WIDTH_PX: String(spec.screen.width),
    TRAILBLAZE_DEVICE_HEIGHT_PX: String(spec.screen.height),
    TRAILBLAZE_SESSION_ID: spec.id,
    TRAILBLAZE_TOOLSET_FILE: script,
  };
}

/** A file-name-safe label for a server's log file. */
export function logLabel(display: string): string {
  return display.replace(/\.[cm]?[jt]s$/, "").replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+/, "");
}

export const launchStdioServer: Launcher = async (server: ResolvedServer, spec: SessionSpec): Promise<LaunchedServer> => {
  if (server.kind !== "script") {
    throw new UsageError(
      `${server.display}: command: servers are parsed but not supported yet; use a script: entry pointing at a .ts/.js MCP server`,
    );
  }
  const runtime = await detectRuntime(spec.env);
  const transport = new ProcessTransport({
    name: server.display,
    command: runtime.command,
    args: runtime.argsFor(server.script),
    cwd: dirname(server.script),
    env: { ...spec.env, ...trailblazeEnv(spec, server.script) },
    stderrLogFile: join(spec.logsDir, `subprocess_stderr_${logLabel(server.display)}.log`),
  });
  const explainExit = async (during: string): Promise<Error> => {
    const exit = await transport.exited;
    const tail = transport.stderrTail();
    return new ServerExitedError(server.display, exit, tail, during, explainStartupFailure(tail, server.script));
  };
  let started = false;
  const { connection, tools } = await McpConnection.open({
    name: server.display,
    transport,
    handshakeTimeoutMs: spec.handshakeTimeoutMs,
    callTimeoutMs: server.timeoutMs ?? spec.callTimeoutMs,
    terminate: () => transport.terminate(),
    diagnostics: () => transport.stderrTail(),
    explainClose: () => explainExit(started ? "during the session" : "during startup (initialize/tools/list)"),
  });
  started = true;
  return { connection, tools, transport: "stdio", pid: transport.pid };
};
