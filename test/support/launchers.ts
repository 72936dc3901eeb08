// A launcher table for tests that exercise on-device filtering with stdio servers: `script:`
// servers run as subprocesses in both agent modes (command: servers stay host-only).

import type { LauncherTable } from "../../src/servers/launch.ts";
import { launchStdioServer } from "../../src/servers/stdio-launcher.ts";

export const STDIO_IN_BOTH_MODES: LauncherTable = {
  script: { host: launchStdioServer, "on-device": launchStdioServer },
  command: { host: launchStdioServer },
};
