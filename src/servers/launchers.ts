// The default launcher table: `script:` servers run as subprocesses on the host and in QuickJS
// on-device; `command:` servers (any executable) only on the host. Per-file tools of the default
// `runtime: inProcess` run in QuickJS with either agent; on the host, tools QuickJS cannot bundle
// (one imports a Node built-in) run as a subprocess instead, with a notice. The QuickJS launcher
// (with QuickJS and esbuild behind it) is loaded by the first session that needs it, not before.

import { BundleError } from "../errors.ts";
import type { Launcher, LauncherTable } from "./launch.ts";
import { launchStdioServer } from "./stdio-launcher.ts";

const launchQuickJsServer: Launcher = async (server, spec, context) =>
  (await import("./quickjs-launcher.ts")).launchQuickJsServer(server, spec, context);

const launchOnDevice: Launcher = async (server, spec, context) =>
  (await import("./quickjs-launcher.ts")).launchQuickJsIsolating(server, spec, context);

const launchOnHost: Launcher = async (server, spec, context) => {
  if (server.kind !== "script" || server.perFile?.runtime !== "inProcess") return launchStdioServer(server, spec, context);
  try {
    return await launchQuickJsServer(server, spec, context);
  } catch (error) {
    // The host can run what QuickJS cannot: one tool's Node import does not cost a host session its tools.
    if (!(error instanceof BundleError) || !error.hostOnly) throw error;
    context.onNotice?.(`${error.message}\nThis host session runs them as a bun subprocess instead; on-device sessions cannot.`);
    return launchStdioServer(server, spec, context);
  }
};

export const DEFAULT_LAUNCHERS: LauncherTable = {
  script: { host: launchOnHost, "on-device": launchOnDevice },
  command: { host: launchStdioServer },
};
