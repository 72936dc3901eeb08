// The fix offered for a script that cannot be bundled for on-device. An MCP server script: if the
// whole script needs the host, its mcp_servers entry says so, and on-device sessions skip it
// without bundling it. Per-file tools: the tool that needs the host says so in its own spec.

import { HOST_ONLY_FIX } from "../bundle/node-builtins-plugin.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { BundleError } from "../errors.ts";

type ScriptServer = Extract<ResolvedServer, { kind: "script" }>;

/** For per-file tools: what to change in the tool, whichever tool of the target it is. */
export const PER_FILE_HOST_FIX =
  "Mark the tool that needs the host `requiresHost: true` in its trailblaze.tool spec: it then runs as a host subprocess, and " +
  "on-device sessions skip it (a <name>.yaml sidecar with `runtime: subprocess` does the same).";

function hostOnlyFix(server: ScriptServer): string {
  if (server.perFile) return PER_FILE_HOST_FIX;
  const origin = server.origin;
  const entry = origin
    ? `${origin.where.file}:${origin.where.line}:${origin.where.col} mcp_servers[${origin.index}]`
    : `the mcp_servers entry of ${server.display}`;
  return `Or, if the whole script needs the host, add \`requiresHost: true\` to ${entry}: on-device sessions then skip it without bundling it.`;
}

/**
 * `text` (a bundle failure or a check finding about `server`) with the advice that fits it. For
 * per-file tools the generated entry is never named (the author's file is, in each line) and the
 * advice for MCP server scripts is replaced by the per-file one.
 */
export function withHostOnlyFix(text: string, server: ScriptServer): string {
  return server.perFile ? withPerFileFix(text, `the per-file tools ${server.perFile.tools.join(", ")}`) : `${text}\n${hostOnlyFix(server)}`;
}

/** `text` about per-file tools' generated entry, naming `what` instead of the entry, with the per-file advice. */
export function withPerFileFix(text: string, what: string): string {
  const named = text.replace(/^Cannot bundle \S+ for on-device/, `Cannot bundle ${what} for on-device`);
  return `${named.replaceAll(`; ${HOST_ONLY_FIX}`, "")}\n${PER_FILE_HOST_FIX}`;
}

/** A server's bundle failure, its message carrying the fix that fits the server. */
export function bundleFailure(error: BundleError, server: ScriptServer): BundleError {
  return new BundleError(withHostOnlyFix(error.message, server), { cause: error });
}
