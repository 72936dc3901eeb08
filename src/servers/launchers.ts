// The default launcher table: `script:` servers run as subprocesses on the host and in QuickJS
// on-device; `command:` servers (any executable) only on the host.

import type { LauncherTable } from "./launch.ts";
import { launchQuickJsServer } from "./quickjs-launcher.ts";
import { launchStdioServer } from "./stdio-launcher.ts";

export const DEFAULT_LAUNCHERS: LauncherTable = {
  script: { host: launchStdioServer, "on-device": launchQuickJsServer },
  command: { host: launchStdioServer },
};
