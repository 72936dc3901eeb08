// `trailblaze bundle <entry.ts>`: bundle an MCP server file for the on-device runtime.

import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BundleError, UsageError } from "../../errors.ts";
import { bundleEntry } from "../../bundle/bundle-entry.ts";
import { outputRootOf } from "../../config/workspace-root.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";

const HELP = `Usage: trailblaze bundle <entry.ts> [-o OUT.js] [--json]

Bundles a standard MCP server file (McpServer + zod + StdioServerTransport) into one script
for the on-device QuickJS runtime: esbuild, platform neutral, ES2020, minified, with the
stdio transport swapped for the in-process one. Node built-in imports fail the bundle.
Bundles are cached by content under .cache/trailblaze-bundles at the root of the entry's workspace,
whichever folder you run from (for a file in none, the working directory's workspace, else the
working directory itself).
Exit code: 0 bundled, 1 the file cannot be bundled for on-device, 2 usage.

Options:
  -o, --out FILE        also write the bundle to FILE
  --json                print {"ok","path","bytes","cached","warnings"} (or {"ok":false,"error"})
  -h, --help            show this help`;

export const bundleCommand: Command = {
  name: "bundle",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("bundle", argv, {
      out: { type: "string", short: "o" },
      json: { type: "boolean" },
    });
    const [entry, ...extra] = positionals;
    if (entry === undefined)
      throw new UsageError("bundle: name the server file to bundle, e.g. `trailblaze bundle tools/login.ts -o login.bundle.js`");
    if (extra.length > 0) throw new UsageError(`bundle: unexpected argument "${extra[0]}" (one entry file per run)`);
    if (!existsSync(resolve(io.cwd, entry))) throw new UsageError(`bundle: ${entry}: file not found (resolved against ${io.cwd})`);
    try {
      const result = await bundleEntry(entry, {
        cwd: io.cwd,
        cacheRoot: outputRootOf(entry, io.cwd),
        ...(values.out === undefined ? {} : { outFile: values.out }),
      });
      if (values.json) {
        const { path, bytes, cached, warnings } = result;
        io.stdout(`${JSON.stringify({ ok: true, path, bytes, cached, warnings }, null, 2)}\n`);
      } else {
        for (const warning of result.warnings) io.stderr(`warning: ${warning}\n`);
        const size = `${(result.bytes / 1024).toFixed(1)} KB`;
        const shown = relative(io.cwd, result.path);
        io.stdout(
          `✓ ${entry} → ${shown.startsWith("..") || shown === "" ? result.path : shown} (${size}${result.cached ? ", cached" : ""})\n`,
        );
      }
      return 0;
    } catch (error) {
      if (!(error instanceof BundleError) || !values.json) throw error;
      io.stdout(`${JSON.stringify({ ok: false, error: error.message }, null, 2)}\n`);
      return error.exitCode;
    }
  },
};
