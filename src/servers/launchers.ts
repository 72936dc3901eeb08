// The default launcher table: `script:` servers run as subprocesses on the host and in QuickJS
// on-device; `command:` servers (any executable) only on the host. The QuickJS launcher (with
// QuickJS and esbuild behind it) is loaded by the first on-device session, not before.

import type { Launcher, LauncherTable } from "./launch.ts";
import { launchStdioServer } from "./stdio-launcher.ts";

const launchQuickJsServer: Launcher = async (server, spec, context) =>
  (await import("./quickjs-launcher.ts")).launchQuickJsServer(server, spec, context);

export const DEFAULT_LAUNCHERS: LauncherTable = {
  script: { host: launchStdioServer, "on-device": launchQuickJsServer },
  command: { host: launchStdioServer },
};
