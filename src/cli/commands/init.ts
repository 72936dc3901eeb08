// `trailblaze init [--target ID]`: scaffolds a workspace in the current folder: package.json
// scripts, a tsconfig, a target, one portable tool server with its test, and one trail, so that
// `npx trailblaze run trails` passes with the host agent and on-device. Never overwrites a file;
// writes all or nothing (scaffold-write.ts).

import { existsSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { TRAILMAP_ID } from "../../core/tool-names.ts";
import { ScaffoldError, UsageError } from "../../errors.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { printedCommands } from "../invocation.ts";
import { serverTemplate, testTemplate, toolName, TSCONFIG } from "./init-tool-files.ts";
import { writeScaffold, type ScaffoldFile } from "./scaffold-write.ts";

const HELP = `Usage: trailblaze init [--target ID]

Scaffolds a Trailblaze workspace in the current folder:
  package.json             "test" and "trails" scripts (created, or added when missing)
  tsconfig.json            for editors and tsc (when missing)
  .gitignore               node_modules/, logs/, .cache/, trailblaze-report/ (created, or the
                           missing lines added)
  trailblaze-config/targets/<ID>.yaml   the target, with one script server
  tools/<ID>/greet.ts      a portable MCP tool server (runs on the host and on-device)
  tools/<ID>/greet.test.ts its test (bun test)
  trails/hello.trail.yaml  a trail that calls the tool and checks what it remembered
Nothing is overwritten: when any of these files exists, nothing is written; nor is anything
written outside this folder (a folder or file here that is a symbolic link leading out of it is
refused).

Options:
  --target ID           the target id, one lowerCamelCase word (default: "app")
  -h, --help            show this help

Then: trailblaze run trails   ·   trailblaze run trails --agent on-device   ·   bun test`;

interface Planned extends ScaffoldFile {
  note: string;
}

function targetYaml(id: string, script: string): string {
  return `# The target ${id}: its MCP servers and the platforms it runs on. Relative paths resolve
# against the workspace root (the folder holding trailblaze-config/), from any subfolder.
id: ${id}
display_name: ${id}
mcp_servers:
  - script: ./${script}
platforms:
  android: {}
  ios: {}
`;
}

function trailYaml(id: string, tool: string, memoryKey: string): string {
  return `# A trail: recorded tool calls, replayed with \`npx trailblaze run trails\`.
config:
  id: hello
  target: ${id}
trail:
  - step: Greet
    recording:
      tools:
        - ${tool}: { text: hello }
  - verify: The tool remembered the text
    recording:
      tools:
        - assertEquals: { actual: "{{${memoryKey}}}", expected: hello }
`;
}

/** What the CLI writes into a workspace (and what npm installs), none of it worth committing. */
const GITIGNORED = [
  ["node_modules/", "installed packages"],
  ["/logs/", "session logs"],
  ["/.cache/", "build caches"],
  ["/trailblaze-report/", "HTML reports"],
] as const;

/** .gitignore with what the CLI writes; undefined when it already lists all of it. */
function gitignore(cwd: string): Planned | undefined {
  const path = join(cwd, ".gitignore");
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  const listed = new Set((current ?? "").split(/\r?\n/).map((line) => line.trim().replace(/^\/|\/$/g, "")));
  const missing = GITIGNORED.filter(([pattern]) => !listed.has(pattern.replace(/^\/|\/$/g, "")));
  if (missing.length === 0) return undefined;
  const block = `# Written by trailblaze and npm: not for version control\n${missing.map(([pattern]) => `${pattern}\n`).join("")}`;
  if (current === undefined) return { path, text: block, action: "created", note: missing.map(([, what]) => what).join(", ") };
  const text = `${current}${current === "" || current.endsWith("\n") ? "" : "\n"}${current === "" ? "" : "\n"}${block}`;
  return { path, text, action: "updated", note: `added ${missing.map(([pattern]) => pattern).join(", ")}` };
}

const NPM_INIT_TEST = 'echo "Error: no test specified" && exit 1';

/** package.json with the scripts the workspace needs; undefined when it already has them. */
function packageJson(cwd: string): Planned | undefined {
  const path = join(cwd, "package.json");
  const scripts = { test: "bun test", trails: "trailblaze run trails" };
  if (!existsSync(path)) {
    const name =
      basename(cwd)
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, "-") || "trailblaze-workspace";
    const text = `${JSON.stringify({ name, private: true, type: "module", scripts }, null, 2)}\n`;
    return { path, text, action: "created", note: "scripts: test, trails" };
  }
  const current = JSON.parse(readFileSync(path, "utf8")) as { scripts?: Record<string, string> };
  // `npm init` writes a test script that only fails; ours replaces it.
  const missing = Object.entries(scripts).filter(([key]) => current.scripts?.[key] === undefined || current.scripts[key] === NPM_INIT_TEST);
  if (missing.length === 0) return undefined;
  const text = `${JSON.stringify({ ...current, scripts: { ...current.scripts, ...Object.fromEntries(missing) } }, null, 2)}\n`;
  return { path, text, action: "updated", note: `added scripts: ${missing.map(([key]) => key).join(", ")}` };
}

export const initCommand: Command = {
  name: "init",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("init", argv, { target: { type: "string" } });
    if (positionals.length > 0)
      throw new UsageError(`init: unexpected argument "${positionals[0]}"; it scaffolds the current folder (see --help)`);
    const id = values.target ?? "app";
    if (!TRAILMAP_ID.test(id)) {
      throw new UsageError(
        `init: target id "${id}" must be one lowerCamelCase word (^[a-z][a-zA-Z0-9]*$): it prefixes tool names, <targetId>_<verbNoun>`,
      );
    }
    const tool = toolName("greet", id);
    const script = `tools/${id}/${tool.local}.ts`;
    const planned: Planned[] = [
      { path: join(io.cwd, `trailblaze-config/targets/${id}.yaml`), text: targetYaml(id, script), action: "created", note: `target ${id}` },
      { path: join(io.cwd, script), text: serverTemplate(tool, id), action: "created", note: `MCP server with ${tool.name}` },
      { path: join(io.cwd, `tools/${id}/${tool.local}.test.ts`), text: testTemplate(tool), action: "created", note: "its test" },
      {
        path: join(io.cwd, "trails/hello.trail.yaml"),
        text: trailYaml(id, tool.name, `${tool.local}Text`),
        action: "created",
        note: `calls ${tool.name}`,
      },
    ];
    const existing = planned.filter((file) => existsSync(file.path)).map((file) => relative(io.cwd, file.path));
    if (existing.length > 0) {
      throw new ScaffoldError(
        `init: ${existing.join(", ")} already exist${existing.length === 1 ? "s" : ""}; nothing was written (init scaffolds a new workspace; add tools with \`trailblaze init-tool\`)`,
      );
    }
    const pkg = packageJson(io.cwd);
    if (pkg) planned.unshift(pkg);
    if (!existsSync(join(io.cwd, "tsconfig.json")))
      planned.push({ path: join(io.cwd, "tsconfig.json"), text: TSCONFIG, action: "created", note: "for editors and tsc" });
    const ignored = gitignore(io.cwd);
    if (ignored) planned.push(ignored);

    writeScaffold("init", io.cwd, planned, (path) => relative(io.cwd, path));
    const width = Math.max(...planned.map((file) => relative(io.cwd, file.path).length));
    const printed = printedCommands(io);
    const next = [
      [printed("trailblaze run trails"), "host agent: bun subprocesses"],
      [printed("trailblaze run trails --agent on-device"), "the same tools bundled into QuickJS"],
      [printed("bun test"), "the tool's own test"],
    ];
    const commandWidth = Math.max(...next.map(([command]) => command!.length));
    io.stdout(
      `${planned.map((file) => `Wrote ${relative(io.cwd, file.path).padEnd(width)}  ${file.note}`).join("\n")}\n\n` +
        `Next:\n${next.map(([command, comment]) => `  ${command!.padEnd(commandWidth)}   # ${comment}\n`).join("")}`,
    );
    return 0;
  },
};
