// On-device launcher: bundles a `script:` server (or uses its prebuilt `bundle:`)
// and runs it in QuickJS behind the in-process transport, so the same McpConnection
// drives it. Guest console output goes to the session log; `trailblaze.execute`
// goes through the session's ExecuteBridge.

import { appendFileSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startQuickJsServer } from "../../runtime-quickjs/index.ts";
import { bundleEntry } from "../bundle/bundle-entry.ts";
import { SandboxError, UsageError } from "../errors.ts";
import { resultToJson } from "../dispatcher/tool-result.ts";
import { McpConnection } from "./mcp-connection.ts";
import type { LaunchContext, LaunchedServer, Launcher } from "./launch.ts";
import { logLabel } from "./stdio-launcher.ts";

export const launchQuickJsServer: Launcher = async (server, spec, context: LaunchContext): Promise<LaunchedServer> => {
  if (server.kind !== "script") {
    throw new UsageError(`${server.display}: command: servers run only with the host agent (--agent host)`);
  }
  const code = server.bundle
    ? await readFile(server.bundle, "utf8")
    : (await bundleEntry(server.script, { cwd: spec.cwd })).code;

  mkdirSync(spec.logsDir, { recursive: true });
  const consoleLog = join(spec.logsDir, `quickjs_console_${logLabel(server.display)}.log`);
  const quickjs = await startQuickJsServer({
    name: server.display,
    code,
    // Guest logging is rare; a synchronous append keeps no descriptor open per session.
    onLog: (level, text) => appendFileSync(consoleLog, `${new Date().toISOString()} ${level} ${text}\n`),
    onExecute: async (name, args) => {
      const result = await context.execute(server.display, name, args);
      return { ...resultToJson(result), content: result.content };
    },
  });

  let fatal: SandboxError | undefined;
  const previousOnError = quickjs.transport.onerror;
  quickjs.transport.onerror = (error) => {
    if (error instanceof SandboxError && /ran out of memory|threw while/.test(error.message)) fatal ??= error;
    previousOnError?.(error);
  };

  try {
    const { connection, tools } = await McpConnection.open({
      name: server.display,
      transport: quickjs.transport,
      handshakeTimeoutMs: spec.handshakeTimeoutMs,
      callTimeoutMs: server.timeoutMs ?? spec.callTimeoutMs,
      explainClose: async () => fatal ?? new SandboxError(`QuickJS server ${server.display} stopped unexpectedly`),
    });
    return { connection, tools, transport: "quickjs" };
  } catch (error) {
    await quickjs.close();
    throw error;
  }
};
