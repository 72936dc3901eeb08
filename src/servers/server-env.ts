// The environment a host server process starts with: an allow-list, never the CLI's own. What it
// inherits is the MCP SDK's list (the one its StdioClientTransport passes) and TMPDIR; everything
// else a server sees is set by the runtime (the TRAILBLAZE_* contract, what a script needs to run)
// or named by its entry's `env:`.

/**
 * Inherited besides the SDK's list, on POSIX: TMPDIR, the per-user temporary folder (macOS sets
 * one per user under /var/folders; without it `os.tmpdir()` is the shared /tmp), where tsx keeps
 * its transform cache and tools write scratch files. It holds a path, never a credential. Windows
 * needs nothing more: the SDK's list has TEMP.
 */
const ALSO_INHERITED: readonly string[] = process.platform === "win32" ? [] : ["TMPDIR"];

let sdkList: Promise<readonly string[]> | undefined;

/**
 * The SDK's `DEFAULT_INHERITED_ENV_VARS` (HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX), loaded
 * on first use: its module also loads cross-spawn, which only sessions that start a host server need.
 */
function inheritedNames(): Promise<readonly string[]> {
  sdkList ??= import("@modelcontextprotocol/sdk/client/stdio.js").then((sdk) => [...sdk.DEFAULT_INHERITED_ENV_VARS, ...ALSO_INHERITED]);
  return sdkList;
}

/**
 * The variables of `env` (the session's environment) a server inherits: the SDK's list and TMPDIR.
 * Picked from `env` rather than by the SDK's `getDefaultEnvironment()`, which reads `process.env`:
 * a session's environment is the one its command was given (`CliIO.env`), and the runtime is found
 * on that PATH too. As in the SDK, a value that is a shell function (`() {…`) is left out; so is a
 * value the session keeps secret (`isSecret`: `--secret HOME` would otherwise hand it on).
 */
export async function inheritedEnv(
  env: Record<string, string | undefined>,
  isSecret: (value: string) => boolean = () => false,
): Promise<Record<string, string>> {
  const inherited: Record<string, string> = {};
  for (const name of await inheritedNames()) {
    const value = env[name];
    if (value === undefined || value.startsWith("()") || isSecret(value)) continue;
    inherited[name] = value;
  }
  return inherited;
}
