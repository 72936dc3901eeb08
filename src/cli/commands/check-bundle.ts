// `trailblaze check-bundle <bundle.js|entry.ts>`: can this server run on-device?

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { UsageError } from "../../errors.ts";
import { checkBundle, type CheckProblem, type CheckResult } from "../../bundle/check-bundle.ts";
import { withPerFileFix } from "../../servers/host-only-fix.ts";
import { perFileScriptEntry } from "../../servers/per-file-servers.ts";
import { outputRootOf } from "../../config/workspace-root.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze check-bundle <bundle.js|entry.ts|tool.ts> [--json]

Checks that an MCP server, or a per-file tool, runs on-device. For a .ts entry: a static pass
reads the bundled code and names, with its source file and line, every use of a global the guest
lacks (fetch, process, Buffer, Intl, require...) that runs on-device, deciding each branch by what
the code tests (typeof X, globalThis.X, try/catch) against the guest's real globals, and warns
where a locale the guest ignores changes the output; then the server is bundled, evaluated in
bare QuickJS, initialized and asked for tools/list. For a .js bundle: the QuickJS run only. For a
per-file tool script (one that declares \`export const name = trailblaze.tool(…)\`, or that a
sidecar names): the same checks on the server a session makes of its tools; tools marked
\`requiresHost: true\` run on the host and are not bundled. When the server has tools marked
"trailblaze/requiresHost" (skipped on-device), host-global uses are reported as warnings, since
they may belong to those tools.
Exit code: 0 no problems, 1 any problem, 2 usage.

Options:
  --json                print {"ok","tools","hostOnlyTools","problems":[{"kind","message","source"?}],"warnings"}
  -h, --help            show this help`;

function lines(label: string, items: readonly CheckProblem[]): string {
  return items.map((item) => `  ${label} ${item.kind}: ${item.message.replace(/\n/g, "\n    ")}\n`).join("");
}

/**
 * check-bundle on `target`: a per-file tool script through the server a session makes of it,
 * anything else as it is. Caches go to `.cache/` at the root of the target's workspace, whichever
 * folder `cwd` is (outputRootOf).
 */
async function checkFile(target: string, cwd: string): Promise<CheckResult> {
  const cacheRoot = outputRootOf(target, cwd);
  const dir = await mkdtemp(join(tmpdir(), "trailblaze-check-bundle-"));
  try {
    const perFile = await perFileScriptEntry(resolve(cwd, target), cwd, dir, cacheRoot);
    if (!perFile) return await checkBundle(target, { cwd, cacheRoot });
    if (perFile.tools.length === 0) return { ok: true, tools: [], hostOnlyTools: perFile.hostOnly, problems: [], warnings: [] };
    const result = await checkBundle(perFile.entry, { cwd, cacheRoot });
    // Problems are told about the author's script, never the generated entry.
    const entry = relative(cwd, perFile.entry);
    const own = (item: CheckProblem): CheckProblem => {
      const message = item.message.replaceAll(perFile.entry, target).replaceAll(entry, target);
      // A locale the guest ignores is no reason to run the tool on the host.
      return {
        ...item,
        message: item.kind === "locale" ? message : withPerFileFix(message, target),
        ...(item.source === undefined ? {} : { source: item.source === entry ? target : item.source }),
      };
    };
    return {
      ...result,
      hostOnlyTools: [...result.hostOnlyTools, ...perFile.hostOnly],
      problems: result.problems.map(own),
      warnings: result.warnings.map(own),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const checkBundleCommand: Command = {
  name: "check-bundle",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("check-bundle", argv, { json: { type: "boolean" } });
    const [target, ...extra] = positionals;
    if (target === undefined)
      throw new UsageError("check-bundle: name a server file or bundle, e.g. `trailblaze check-bundle tools/login.ts`");
    if (extra.length > 0) throw new UsageError(`check-bundle: unexpected argument "${extra[0]}" (one file per run)`);
    if (!existsSync(resolve(io.cwd, target))) throw new UsageError(`check-bundle: ${target}: file not found (resolved against ${io.cwd})`);
    const result = await checkFile(target, io.cwd);
    if (values.json) {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const tools = result.tools.length ? ` (${result.tools.join(", ")})` : "";
      const hostOnly = result.hostOnlyTools.length ? `; host-only, skipped on-device: ${result.hostOnlyTools.join(", ")}` : "";
      const head = result.ok
        ? `✓ ${target} runs on-device: ${result.tools.length} tool(s)${tools}${hostOnly}\n`
        : `✗ ${target}: ${result.problems.length} problem(s); ${result.tools.length} tool(s) listed${tools}${hostOnly}\n`;
      io.stdout(terminalText(head + lines("✗", result.problems) + lines("!", result.warnings)));
    }
    return result.ok ? 0 : 1;
  },
};
