// check-bundle: can this server run on-device? For a `.ts` entry a static pass names every use of
// a host-only global (fetch, process, Buffer...) with its source file, then the real thing runs:
// bundle, evaluate in bare QuickJS, initialize, tools/list. A `.js` bundle gets the run only.
import { readFileSync } from "node:fs";
import { extname, relative, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startQuickJsServer } from "../../runtime-quickjs/index.ts";
import { BundleError } from "../errors.ts";
import { SCRIPT_PREFIX } from "./build-options.ts";
import { bundleEntry, type BundleOptions } from "./bundle-entry.ts";
import { HOST_ONLY_FIX } from "./node-builtins-plugin.ts";
import { scanHostGlobals, type HostGlobalUse } from "./host-globals-scan.ts";

export interface CheckProblem {
  /** `bundle` (esbuild failed), `host-global` (a host-only global is used), `run` (QuickJS evaluation or handshake failed). */
  kind: "bundle" | "host-global" | "run";
  message: string;
  /** The source file the problem is in, relative to the working directory, when known. */
  source?: string;
}

export interface CheckResult {
  /** No problems. */
  ok: boolean;
  /** Tool names the server advertised in QuickJS (empty if it did not get that far). */
  tools: string[];
  /** Tools marked `_meta["trailblaze/requiresHost"]: true` (skipped on-device). */
  hostOnlyTools: string[];
  problems: CheckProblem[];
  /** Host-global uses that may belong to host-only tools (only when the server has such tools). */
  warnings: CheckProblem[];
}

export interface CheckOptions extends Pick<BundleOptions, "cacheDir" | "cacheRoot" | "cwd"> {
  /** Deadline for evaluating and each handshake step in QuickJS, ms. Default 10 000. */
  callDeadlineMs?: number;
}

const BUNDLE_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);

function describeUse(use: HostGlobalUse): string {
  const what =
    use.name === "import()"
      ? "uses a dynamic import() that esbuild could not bundle; QuickJS has no module loader on-device"
      : use.name === "require"
        ? "calls require() with a computed name; esbuild could not bundle it and it throws on-device"
        : `uses ${use.name}, which does not exist on-device`;
  // After a feature test of something else the scan cannot tell whether the use runs.
  if (use.featureTested)
    return `${use.source}:${use.line}:${use.column}: ${what}, in a branch after a feature test; it throws if that branch runs on-device: call the tool on-device to be sure`;
  return `${use.source}:${use.line}:${use.column}: ${what}; ${HOST_ONLY_FIX}`;
}

/** The file named by an esbuild-derived BundleError message (`file:line:col: ...`). */
function sourceOf(message: string): string | undefined {
  return /: ([^\s:]+):\d+:\d+: /.exec(message)?.[1];
}

async function runInQuickJs(
  name: string,
  code: string,
  sourceMap: string | undefined,
  callDeadlineMs: number,
): Promise<{ tools: string[]; hostOnly: string[] }> {
  // With the bundle's source map, a stack trace names the author's files, as in a session.
  await using server = await startQuickJsServer({
    name,
    code,
    callDeadlineMs,
    ...(sourceMap ? { sourceMap: { map: sourceMap, shift: SCRIPT_PREFIX.length } } : {}),
  });
  const client = new Client({ name: "trailblaze-check-bundle", version: "1.0.0" });
  await client.connect(server.transport, { timeout: callDeadlineMs });
  const tools: string[] = [];
  const hostOnly: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: callDeadlineMs });
    for (const tool of listed.tools) {
      tools.push(tool.name);
      if (tool._meta?.["trailblaze/requiresHost"] === true) hostOnly.push(tool.name);
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  await client.close();
  return { tools, hostOnly };
}

/**
 * Checks an author entry (`.ts`: static pass + run) or a bundle (`.js`: run only). Never
 * throws for problems with the checked code; they are returned.
 */
export async function checkBundle(pathOrEntry: string, opts: CheckOptions = {}): Promise<CheckResult> {
  const cwd = opts.cwd ?? process.cwd();
  const file = resolve(cwd, pathOrEntry);
  const shown = relative(cwd, file) || file;
  const callDeadlineMs = opts.callDeadlineMs ?? 10_000;
  const problems: CheckProblem[] = [];
  let hostGlobals: CheckProblem[] = [];
  let featureTested: CheckProblem[] = [];
  let code: string | undefined;
  let sourceMap: string | undefined;

  if (BUNDLE_EXTENSIONS.has(extname(file))) {
    try {
      code = readFileSync(file, "utf8");
    } catch (error) {
      problems.push({ kind: "run", message: `${shown}: cannot read the bundle (${(error as Error).message})`, source: shown });
    }
  } else {
    try {
      const uses = (await scanHostGlobals(file, cwd, opts.cacheRoot)).filter((use) => !use.guarded);
      const found = (use: HostGlobalUse): CheckProblem => ({ kind: "host-global", message: describeUse(use), source: use.source });
      hostGlobals = uses.filter((use) => !use.featureTested).map(found);
      featureTested = uses.filter((use) => use.featureTested).map(found);
      ({ code, sourceMap } = await bundleEntry(file, {
        cwd,
        ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
        ...(opts.cacheRoot ? { cacheRoot: opts.cacheRoot } : {}),
      }));
    } catch (error) {
      if (!(error instanceof BundleError)) throw error;
      const source = sourceOf(error.message);
      problems.push({ kind: "bundle", message: error.message, ...(source ? { source } : {}) });
    }
  }

  let tools: string[] = [];
  let hostOnlyTools: string[] = [];
  if (code !== undefined) {
    try {
      const listed = await runInQuickJs(shown, code, sourceMap, callDeadlineMs);
      tools = listed.tools;
      hostOnlyTools = listed.hostOnly;
    } catch (error) {
      problems.push({ kind: "run", message: error instanceof Error ? error.message : String(error), source: shown });
    }
  }
  // With host-only tools in the server, a host global may well be used only by them. A use after
  // a feature test (a UMD wrapper's fallback to `self`) is a warning: the scan cannot tell the branch.
  const warnings = [...(hostOnlyTools.length > 0 ? hostGlobals : []), ...featureTested];
  if (hostOnlyTools.length === 0) problems.unshift(...hostGlobals);
  return { ok: problems.length === 0, tools, hostOnlyTools, problems, warnings };
}
