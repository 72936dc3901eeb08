// On-device launcher: bundles a `script:` server (or uses its prebuilt `bundle:`)
// and runs it in QuickJS behind the in-process transport, so the same McpConnection
// drives it. Guest console output goes to the session log; `trailblaze.execute`
// goes through the session's ExecuteBridge. A session that only lists tools gets the
// server's cached listing when there is one, and QuickJS is not even loaded.

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { bundleEntry } from "../bundle/bundle-entry.ts";
import { SCRIPT_PREFIX } from "../bundle/build-options.ts";
import { consoleLogFile } from "../core/log-layout.ts";
import { BundleError } from "../errors.ts";
import { resultToJson } from "../core/tool-result.ts";
import { bundleFailure, PER_FILE_HOST_FIX } from "./host-only-fix.ts";
import { suppliedNote } from "../bundle/supplied-packages.ts";
import { ConsoleLogFile } from "./console-log-file.ts";
import { McpConnection } from "./mcp-connection.ts";
import { ListedConnection } from "./listed-connection.ts";
import { ListingCache } from "./listing-cache.ts";
import type { LaunchContext, LaunchedServer, Launcher, LaunchSpec } from "./launch.ts";
import type { ResolvedServer } from "../config/script-paths.ts";
import { exportedNames } from "../config/per-file-tools.ts";

export const launchQuickJsServer: Launcher = (server, spec, context) => launchQuickJs(server, spec, context);

/**
 * On-device: as launchQuickJsServer, except that per-file tools whose own file imports what
 * QuickJS lacks (a Node built-in) do not cost the other per-file tools their place: the build is
 * retried with those files stubbed, their tools fail when called and say why, with a notice.
 */
export const launchQuickJsIsolating: Launcher = async (server, spec, context) => {
  try {
    return await launchQuickJs(server, spec, context);
  } catch (error) {
    if (!(error instanceof BundleError) || !error.hostOnly || server.kind !== "script" || !server.perFile) throw error;
    const isolated = hostOnlyToolFiles(server.script, error.message, spec.root);
    if (!isolated) throw error;
    const them = isolated.names.length === 1 ? "it" : "them";
    context.onNotice?.(
      `${isolated.names.join(", ")} cannot run on-device: ${isolated.problems.join("; ")}. Calling ${them} in this session fails ` +
        `with that reason; the other per-file tools run as usual.\n${PER_FILE_HOST_FIX}`,
    );
    return launchQuickJs(server, spec, context, isolated.stubs);
  }
};

/**
 * The tool files of a per-file server's generated entry that an on-device bundle failure names,
 * as stubs whose exports throw the failure when called; undefined when the failure is not only in
 * those files (a package they share, say), or there is no other tool left to serve.
 */
function hostOnlyToolFiles(
  entry: string,
  failure: string,
  root: string,
): { stubs: Map<string, string>; problems: string[]; names: string[] } | undefined {
  const toolFiles = [...readFileSync(entry, "utf8").matchAll(/^import \* as m\d+ from (".*");$/gm)].map((m) => JSON.parse(m[1]!) as string);
  // `file:line:col: what` lines (the failure already carries the per-file fix, not the server one).
  const problems = [...failure.matchAll(/(?:^|\n|: )\s*([^\s:]+\.[cm]?[jt]sx?):(\d+):(\d+): ([^\n]*)/g)].map((m) => ({
    file: resolve(root, m[1]!),
    text: `${m[1]}:${m[2]}:${m[3]}: ${m[4]}`,
  }));
  if (problems.length === 0 || problems.some((p) => !toolFiles.includes(p.file))) return undefined;
  const files = [...new Set(problems.map((p) => p.file))];
  if (files.length === toolFiles.length) return undefined;
  const stubs = new Map<string, string>();
  const names: string[] = [];
  for (const file of files) {
    const why = problems.find((p) => p.file === file)!.text;
    const exported = exportedNames(readFileSync(file, "utf8"));
    names.push(...exported);
    const message = (name: string) => `${name} cannot run on-device: ${why}. ${PER_FILE_HOST_FIX}`;
    stubs.set(
      file,
      exported.map((name) => `export const ${name} = async () => { throw new Error(${JSON.stringify(message(name))}); };`).join("\n"),
    );
  }
  return { stubs, problems: problems.map((p) => p.text), names };
}

async function launchQuickJs(
  server: ResolvedServer,
  spec: LaunchSpec,
  context: LaunchContext,
  stubs?: ReadonlyMap<string, string>,
): Promise<LaunchedServer> {
  if (server.kind !== "script") throw new Error(`launchQuickJsServer: ${server.display} is not a script: server`);
  const bundle = server.bundle
    ? { code: await readFile(server.bundle, "utf8"), sourceMap: undefined }
    : await bundleEntry(server.script, { cwd: spec.root, ...(stubs ? { stubs } : {}) }).catch((error: unknown) => {
        throw error instanceof BundleError ? bundleFailure(error, server) : error;
      });

  const note = "supplied" in bundle ? suppliedNote(server.script, bundle.supplied) : undefined;
  if (note) context.onNotice?.(note);

  const listings = context.listOnly
    ? new ListingCache(join(spec.root, ".cache"), server.bundle ?? server.script, bundle.code, spec.env)
    : undefined;
  const listed = listings?.lookup();
  if (listed) return { connection: new ListedConnection(server.display, listed), tools: listed.tools, transport: "quickjs" };

  const { DEFAULT_CALL_DEADLINE_MS, guestBudgetFrom, quickJsEngineFrom, startQuickJsServer } = await import(
    "../../runtime-quickjs/index.ts"
  );
  const callTimeoutMs = server.timeoutMs ?? spec.callTimeoutMs;
  // A server that calls a session tool while starting may list what the session answered: not cached.
  let calledOut = false;
  const execute = (name: string, args: Record<string, unknown>) => {
    calledOut = true;
    return context.execute(name, args);
  };
  const consoleLog =
    spec.logsDir === undefined
      ? undefined
      : new ConsoleLogFile(consoleLogFile(spec.logsDir, server.display), context.mask ? { mask: context.mask } : {});
  const quickjs = await startQuickJsServer({
    name: server.display,
    code: bundle.code,
    // A built bundle's map is read only when a guest stack is shown (hundreds of KB a server otherwise).
    ...(server.bundle
      ? {}
      : {
          sourceMap: {
            get map() {
              return bundle.sourceMap ?? "";
            },
            shift: SCRIPT_PREFIX.length,
          },
        }),
    engine: quickJsEngineFrom(spec.env),
    // A call timeout below the runtime's own deadline (TRAILBLAZE_CALL_TIMEOUT_MS, timeout_ms) cuts a
    // busy handler then: the guest runs on the session's thread, where no timer can fire meanwhile.
    callDeadlineMs: Math.min(callTimeoutMs, DEFAULT_CALL_DEADLINE_MS),
    ...guestBudgetFrom(spec.env),
    ...(server.maxMessageBytes !== undefined ? { maxMessageBytes: server.maxMessageBytes } : {}),
    imageDir: resolve(spec.root, ".cache/trailblaze-images"),
    onLog: (level, text) => consoleLog?.line(level, text),
    ...(context.mask ? { mask: context.mask } : {}),
    onExecute: async (name, args) => {
      const result = await execute(name, args);
      return { ...resultToJson(result), content: result.content };
    },
  });
  try {
    const { connection, tools } = await McpConnection.open({
      name: server.display,
      transport: quickjs.transport,
      handshakeTimeoutMs: spec.handshakeTimeoutMs,
      callTimeoutMs,
      execute,
    });
    if (listings && !calledOut && !connection.toolsChanged) listings.store({ handshake: connection.handshake, tools });
    return { connection, tools, transport: "quickjs" };
  } catch (error) {
    await quickjs.close();
    throw error;
  }
}
