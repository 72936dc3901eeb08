// `trailblaze check-bundle <bundle.js|entry.ts>`: can this server run on-device?

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../errors.ts";
import { checkBundle, type CheckProblem } from "../../bundle/check-bundle.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";

const HELP = `Usage: trailblaze check-bundle <bundle.js|entry.ts> [--json]

Checks that an MCP server runs on-device. For a .ts entry: a static pass names every use of
a host-only global (fetch, process, Buffer, require...) with its source file and line, then
the server is bundled, evaluated in bare QuickJS, initialized and asked for tools/list.
For a .js bundle: the QuickJS run only. Uses that a file guards with \`typeof X\` are allowed;
when the server has tools marked "trailblaze/requiresHost" (skipped on-device), host-global
uses are reported as warnings, since they may belong to those tools.
Exit code: 0 no problems, 1 any problem, 2 usage.

Options:
  --json                print {"ok","tools","hostOnlyTools","problems":[{"kind","message","source"?}],"warnings"}
  -h, --help            show this help`;

function lines(label: string, items: readonly CheckProblem[]): string {
  return items.map((item) => `  ${label} ${item.kind}: ${item.message.replace(/\n/g, "\n    ")}\n`).join("");
}

export const checkBundleCommand: Command = {
  name: "check-bundle",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("check-bundle", argv, { json: { type: "boolean" } });
    const [target, ...extra] = positionals;
    if (target === undefined) throw new UsageError("check-bundle: name a server file or bundle, e.g. `trailblaze check-bundle tools/login.ts`");
    if (extra.length > 0) throw new UsageError(`check-bundle: unexpected argument "${extra[0]}" (one file per run)`);
    if (!existsSync(resolve(io.cwd, target))) throw new UsageError(`check-bundle: ${target}: file not found (resolved against ${io.cwd})`);
    const result = await checkBundle(target, { cwd: io.cwd });
    if (values.json) {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const tools = result.tools.length ? ` (${result.tools.join(", ")})` : "";
      const hostOnly = result.hostOnlyTools.length ? `; host-only, skipped on-device: ${result.hostOnlyTools.join(", ")}` : "";
      const head = result.ok
        ? `✓ ${target} runs on-device: ${result.tools.length} tool(s)${tools}${hostOnly}\n`
        : `✗ ${target}: ${result.problems.length} problem(s); ${result.tools.length} tool(s) listed${tools}${hostOnly}\n`;
      io.stdout(head + lines("✗", result.problems) + lines("!", result.warnings));
    }
    return result.ok ? 0 : 1;
  },
};
