// The default launcher table: `script:` servers run as subprocesses on the host and in QuickJS
// on-device; `command:` servers (any executable) only on the host. Per-file tools of the default
// `runtime: inProcess` run in QuickJS with either agent. The QuickJS launcher (with QuickJS and
// esbuild behind it) is loaded by the first session that needs it, not before.

import type { Launcher, LauncherTable } from "./launch.ts";
import { launchStdioServer } from "./stdio-launcher.ts";

const launchQuickJsServer: Launcher = async (server, spec, context) =>
  (await import("./quickjs-launcher.ts")).launchQuickJsServer(server, spec, context);

const launchOnHost: Launcher = (server, spec, context) =>
  (server.kind === "script" && server.perFile?.runtime === "inProcess" ? launchQuickJsServer : launchStdioServer)(server, spec, context);

export const DEFAULT_LAUNCHERS: LauncherTable = {
  script: { host: launchOnHost, "on-device": launchQuickJsServer },
  command: { host: launchStdioServer },
};
