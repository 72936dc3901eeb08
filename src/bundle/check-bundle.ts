// check-bundle: can this server run on-device? For a `.ts` entry a static pass names every use of
// a global the guest lacks (fetch, process, Buffer...) that runs on-device, and every locale the
// guest ignores, with its source file; then the real thing runs: bundle, evaluate in bare QuickJS,
// initialize, tools/list. A `.js` bundle gets the run only.
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
  /**
   * `bundle` (esbuild failed), `host-global` (a global the guest lacks is used), `locale` (a
   * locale the guest ignores: the output differs), `run` (QuickJS evaluation or handshake failed).
   */
  kind: "bundle" | "host-global" | "locale" | "run";
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

/** What each kind of finding does on-device, in words. */
const WHAT: Record<HostGlobalUse["kind"], (name: string) => string> = {
  missing: (name) => `uses ${name}, which does not exist on-device`,
  require: () => "calls require() with a computed name; esbuild could not bundle it and it throws on-device",
  import: () => "uses a dynamic import() that esbuild could not bundle; QuickJS has no module loader on-device",
  throws: (test) => `throws on-device, where \`${test}\` takes the branch to this throw`,
  locale: (call) =>
    `calls ${call}, whose locale and options the guest ignores (QuickJS has no Intl): on-device the text differs from the host's`,
};

function describeUse(use: HostGlobalUse): string {
  const at = `${use.source}:${use.line}:${use.column}: ${WHAT[use.kind](use.name)}`;
  if (use.kind === "locale") return `${at}; format it without a locale for the same text on both agents`;
  // A feature test the scan cannot decide: the use runs, and throws, only if it goes one way.
  if (use.undecided !== undefined)
    return `${at}; it runs only as \`${use.undecided}\` turns out there, which the scan cannot tell: call the tool on-device to be sure`;
  return `${at}; ${HOST_ONLY_FIX}`;
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
  /** Uses after a feature test the scan cannot decide, and locales the guest ignores: warnings. */
  let uncertain: CheckProblem[] = [];
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
      const uses = await scanHostGlobals(file, cwd, opts.cacheRoot);
      const found = (use: HostGlobalUse): CheckProblem => ({
        kind: use.kind === "locale" ? "locale" : "host-global",
        message: describeUse(use),
        source: use.source,
      });
      const certain = (use: HostGlobalUse) => use.kind !== "locale" && use.undecided === undefined;
      hostGlobals = uses.filter(certain).map(found);
      uncertain = uses.filter((use) => !certain(use)).map(found);
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
  // With host-only tools in the server, a host global may well be used only by them.
  const warnings = [...(hostOnlyTools.length > 0 ? hostGlobals : []), ...uncertain];
  if (hostOnlyTools.length === 0) problems.unshift(...hostGlobals);
  return { ok: problems.length === 0, tools, hostOnlyTools, problems, warnings };
}
