// `check`'s on-device bundles: check-bundle on every script server of the targets some trail runs
// on-device, each bundle once, its problems and warnings as findings of kind bundle.

import { checkBundle } from "../bundle/check-bundle.ts";
import type { TargetConfig } from "../config/workspace.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { withHostOnlyFix } from "../servers/host-only-fix.ts";
import { targetServers } from "../servers/per-file-servers.ts";
import type { Findings } from "./check-findings.ts";

/** check-bundle for every script server of the targets some trail runs on-device. */
export async function checkBundles(targets: TargetConfig[], findings: Findings, cwd: string, root: string): Promise<void> {
  const checked = new Set<string>();
  for (const target of targets) {
    let servers: ResolvedServer[];
    try {
      servers = await targetServers(target, root, cwd);
    } catch {
      continue; // missing scripts were reported by the session that tried to start them
    }
    for (const server of servers) {
      if (server.kind !== "script" || server.requiresHost || server.perFile?.runtime === "subprocess") continue;
      const file = server.bundle ?? server.script;
      if (checked.has(file)) continue;
      checked.add(file);
      const result = await checkBundle(file, { cwd, cacheRoot: root });
      for (const [severity, items] of [
        ["error", result.problems],
        ["warning", result.warnings],
      ] as const) {
        for (const item of items) {
          // A script esbuild cannot bundle gets the same fix as the session that failed on it; a locale the guest ignores gets none.
          const fix = item.kind === "bundle" || (server.perFile && item.kind !== "locale");
          const message = fix ? withHostOnlyFix(item.message, server) : item.message;
          if (findings.says(message)) continue;
          findings.add({ severity, kind: "bundle", message, ...(item.source ? { file: item.source } : {}) });
        }
      }
    }
  }
}
