// On-device launcher: bundles a `script:` server (or uses its prebuilt
// `bundle:`) and runs it in QuickJS over the in-process transport.

import { UsageError } from "../errors.ts";
import type { Launcher } from "./launch.ts";

export const launchQuickJsServer: Launcher = async (server) => {
  throw new UsageError(`${server.display}: on-device agent mode is not wired yet; use --agent host`);
};
