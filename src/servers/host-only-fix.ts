// The fix offered for a script that cannot be bundled for on-device: if the whole script needs
// the host, its mcp_servers entry says so, and on-device sessions skip it without bundling it.

import type { ResolvedServer } from "../config/script-paths.ts";

export function hostOnlyFix(server: Extract<ResolvedServer, { kind: "script" }>): string {
  const origin = server.origin;
  const entry = origin ? `${origin.where.file}:${origin.where.line}:${origin.where.col} mcp_servers[${origin.index}]` : `the mcp_servers entry of ${server.display}`;
  return `Or, if the whole script needs the host, add \`requiresHost: true\` to ${entry}: on-device sessions then skip it without bundling it.`;
}
