// On-device launcher: bundles a `script:` server (or uses its prebuilt `bundle:`)
// and runs it in QuickJS behind the in-process transport, so the same McpConnection
// drives it. Guest console output goes to the session log; `trailblaze.execute`
// goes through the session's ExecuteBridge.

import { readFile } from "node:fs/promises";
import { quickJsEngineFrom, startQuickJsServer } from "../../runtime-quickjs/index.ts";
import { bundleEntry } from "../bundle/bundle-entry.ts";
import { SCRIPT_PREFIX } from "../bundle/build-options.ts";
import { consoleLogFile } from "../core/log-layout.ts";
import { BundleError } from "../errors.ts";
import { resultToJson } from "../core/tool-result.ts";
import { bundleFailure } from "./host-only-fix.ts";
import { suppliedNote } from "../bundle/supplied-packages.ts";
import { ConsoleLogFile } from "./console-log-file.ts";
import { McpConnection } from "./mcp-connection.ts";
import type { LaunchedServer, Launcher } from "./launch.ts";

export const launchQuickJsServer: Launcher = async (server, spec, context): Promise<LaunchedServer> => {
  if (server.kind !== "script") throw new Error(`launchQuickJsServer: ${server.display} is not a script: server`);
  const bundle = server.bundle
    ? { code: await readFile(server.bundle, "utf8"), sourceMap: undefined }
    : await bundleEntry(server.script, { cwd: spec.root }).catch((error: unknown) => {
        throw error instanceof BundleError ? bundleFailure(error, server) : error;
      });

  const note = "supplied" in bundle ? suppliedNote(server.script, bundle.supplied) : undefined;
  if (note) context.onNotice?.(note);

  const consoleLog = spec.logsDir === undefined ? undefined : new ConsoleLogFile(consoleLogFile(spec.logsDir, server.display), context.mask ? { mask: context.mask } : {});
  const quickjs = await startQuickJsServer({
    name: server.display,
    code: bundle.code,
    ...(bundle.sourceMap ? { sourceMap: { map: bundle.sourceMap, shift: SCRIPT_PREFIX.length } } : {}),
    engine: quickJsEngineFrom(spec.env),
    onLog: (level, text) => consoleLog?.line(level, text),
    onExecute: async (name, args) => {
      const result = await context.execute(name, args);
      return { ...resultToJson(result), content: result.content };
    },
  });
  try {
    const { connection, tools } = await McpConnection.open({
      name: server.display,
      transport: quickjs.transport,
      handshakeTimeoutMs: spec.handshakeTimeoutMs,
      callTimeoutMs: server.timeoutMs ?? spec.callTimeoutMs,
      execute: (name, args) => context.execute(name, args),
    });
    return { connection, tools, transport: "quickjs" };
  } catch (error) {
    await quickjs.close();
    throw error;
  }
};
