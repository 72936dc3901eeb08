// `trailblaze init-tool <name>`: scaffolds a tool and its test and lists it in a target. By
// default a per-file tool (`trailblaze.tool`, named in the target's `tools:`); with `--server` a
// whole MCP server (a `script:` under `mcp_servers`, and a toolset). Checks everything first and
// refuses to overwrite or to write outside the workspace, so a refused run writes nothing; the
// writing itself is all or nothing too (scaffold-write.ts).

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { declarationsOf } from "../../config/per-file-tools.ts";
import { findConfigDir, loadWorkspace, type TargetConfig, type Workspace } from "../../config/workspace.ts";
import { ScaffoldError, UsageError } from "../../errors.ts";
import { parseCommandArgs } from "../args.ts";
import type { CliIO, Command } from "../command.ts";
import { printedCommands } from "../invocation.ts";
import { DEFAULT_DRIVER, parsePlatform } from "../../core/drivers.ts";
import {
  addServerToTarget,
  addToolToTarget,
  addToolToToolset,
  perFileTestTemplate,
  perFileToolTemplate,
  platformOfTool,
  serverTemplate,
  testTemplate,
  toolName,
  toolsetTemplate,
  TOOLS_TSCONFIG,
  TSCONFIG,
  type ToolName,
} from "./init-tool-files.ts";
import { isInside } from "../../core/real-path.ts";
import { checkInsideWorkspace, folderInWorkspace, writeScaffold } from "./scaffold-write.ts";
import { advertisedTools } from "./advertised-tools.ts";

const HELP = `Usage: trailblaze init-tool <name> [--target ID] [--dir DIR] [--server [--toolset ID]] [--config DIR]

Scaffolds a Trailblaze tool written with @trailblaze/scripting, and its test. By default a
per-file tool, the way Trailblaze tools are written today:
  <dir>/<name>.ts              export const <name> = trailblaze.tool<Input>(…): runs in QuickJS
                               with either agent; its input schema is derived from Input
  <dir>/<name>.test.ts         a bun test calling it with a mock context and client
  the target's YAML            <name> added to its tools: list (comments and layout kept)
With --server, a whole MCP server instead (targets/<id>.yaml targets only):
  <dir>/<verbNoun>.ts          the server (McpServer + StdioServerTransport), one tool
  <dir>/<verbNoun>.test.ts     a bun test that runs it over stdio
  toolsets/<toolset>.yaml      a toolset listing the tool (or the tool added to an existing one)
  targets/<target>.yaml        "- script: ./<dir>/<verbNoun>.ts" under mcp_servers, and the toolset
                               under every platform's tool_sets
A tsconfig.json is added when the tools have none. Existing files are never overwritten: if any
would be, nothing is written. Everything is written inside the workspace, all or nothing: a
--dir outside it (or a symbolic link that leads out of it) is refused, and a write that fails
removes what the run had written. A name the target already has (a tool of one of its MCP servers,
a per-file tool or a built-in) is refused too, since every session would fail on the collision:
the target's servers are started once, listing only, to find out.

<name> is the tool name, <targetId>_<verbNoun> (e.g. myapp_applyCoupon); a bare verbNoun gets the
target id prefixed. Platform-specific tools add the platform: myapp_ios_resetKeychain.

Options:
  --target ID           target to add the tool to (default: the only target)
  --dir DIR             folder for the tool and its test, relative to the workspace root (default:
                        tools/<targetId>, or a trailmap's own tools/; a per-file tool's folder must
                        be inside the folder its target looks tools up in)
  --server              scaffold a whole MCP server instead of a per-file tool
  --toolset ID          with --server: toolset to list the tool in, created when missing
                        (default: the tool name)
  --config DIR          config folder: trailblaze-config/ or trails/config/ (default:
                        $TRAILBLAZE_CONFIG_DIR, else the nearest one walking up from the working
                        directory)
  -h, --help            show this help`;

function pickTarget(workspace: Workspace, id: string | undefined): TargetConfig {
  const ids = [...workspace.targets.keys()];
  if (id !== undefined) {
    const target = workspace.targets.get(id);
    if (!target) throw new UsageError(`init-tool: unknown target "${id}"; known targets: ${ids.join(", ") || "(none)"}`);
    return target;
  }
  if (ids.length === 1) return workspace.targets.get(ids[0]!)!;
  throw new UsageError(
    ids.length === 0
      ? `init-tool: no targets in ${workspace.configDir}/targets; create <id>.yaml there first (see fixtures/demo)`
      : `init-tool: several targets (${ids.join(", ")}); pick one with --target ID`,
  );
}

interface Planned {
  path: string;
  text: string;
  /** Created, or changed in place. */
  action: "created" | "updated";
  note: string;
}

/** What to write and what to tell the user to run next. */
interface Plan {
  files: Planned[];
  /** Refusals found while planning; any of them means nothing is written. */
  problems: string[];
  /** The test file, to run next. */
  test: string;
  /** The commands after the test under "Next:", each with what it does. */
  next: Array<{ command: string; comment: string }>;
}

interface PlanInput {
  workspace: Workspace;
  target: TargetConfig;
  tool: ToolName;
  dir: string | undefined;
  toolset: string | undefined;
  io: CliIO;
}

/** The nearest tsconfig.json from `dir` up to `root`, if any. */
function hasTsconfig(dir: string, root: string): boolean {
  for (let at = dir; isInside(root, at); at = dirname(at)) {
    if (existsSync(join(at, "tsconfig.json"))) return true;
    if (at === root) break;
  }
  return false;
}

/** `--args` and `--driver` for a `call` of the scaffolded tool: a platform tool is called in a session of its platform. */
function callArgs(tool: ToolName, target: TargetConfig): string {
  const platform = platformOfTool(tool);
  const driver = platform ? ` --driver ${DEFAULT_DRIVER[parsePlatform(platform)!]}` : "";
  return `--target ${target.id}${driver} --args '{"text":"hi"}'`;
}

/** A per-file tool: `<name>.ts` and its test under the target's tools folder, the name added to its `tools:`. */
function planPerFileTool({ workspace, target, tool, dir: dirFlag, toolset, io }: PlanInput): Plan {
  if (toolset !== undefined) {
    throw new UsageError(
      "init-tool: --toolset applies to --server only; a per-file tool is listed by name in the target's tools:, with no toolset",
    );
  }
  const root = workspace.root;
  const shown = (path: string) => relative(io.cwd, path) || ".";
  const toolsDir = target.toolsDir ?? join(root, "tools");
  const dir =
    dirFlag !== undefined
      ? folderInWorkspace("init-tool", root, dirFlag, relative(root, join(toolsDir, target.id)))
      : target.trailmap !== undefined
        ? toolsDir
        : join(toolsDir, target.id);
  if (!isInside(toolsDir, dir)) {
    throw new UsageError(
      `init-tool: --dir ${dirFlag} is outside ${shown(toolsDir)}, where target ${target.id} looks its per-file tools up; pick a folder inside it (or use --server)`,
    );
  }
  const toolFile = join(dir, `${tool.name}.ts`);
  const testFile = join(dir, `${tool.name}.test.ts`);
  const problems: string[] = [];
  for (const file of [toolFile, testFile]) {
    if (existsSync(file)) problems.push(`${shown(file)} already exists`);
  }
  if (target.tools.some((ref) => ref.name === tool.name)) problems.push(`${shown(target.file)} already lists ${tool.name} under tools`);
  for (const at of declarationsOf(toolsDir, tool.name, io.cwd)) {
    if (resolve(io.cwd, at) !== toolFile) problems.push(`${at} already declares ${tool.name}`);
  }

  const trailmap = target.trailmap !== undefined;
  const files: Planned[] = [
    { path: toolFile, text: perFileToolTemplate(tool), action: "created", note: "the tool" },
    { path: testFile, text: perFileTestTemplate(tool), action: "created", note: "its test" },
    {
      path: target.file,
      text: addToolToTarget(readFileSync(target.file, "utf8"), shown(target.file), tool.name, trailmap),
      action: "updated",
      note: `${trailmap ? "target.tools" : "tools"} += ${tool.name}`,
    },
  ];
  if (!hasTsconfig(dir, root)) {
    const path = trailmap ? join(toolsDir, "tsconfig.json") : join(root, "tsconfig.json");
    files.push({ path, text: trailmap ? TOOLS_TSCONFIG : TSCONFIG, action: "created", note: "for editors and tsc" });
  }
  const args = callArgs(tool, target);
  const dts = relative(root, join(toolsDir, "trailblaze-client.d.ts"));
  return {
    files,
    problems,
    test: testFile,
    next: [
      { command: `trailblaze call ${tool.name} ${args}`, comment: "in a session: QuickJS, either agent" },
      { command: `trailblaze types --target ${target.id}`, comment: `writes ${dts}, which types ctx.tools calls` },
    ],
  };
}

/** A whole MCP server: its file and test, a toolset listing the tool, the script and toolset added to the target. */
function planServer({ workspace, target, tool, dir: dirFlag, toolset, io }: PlanInput): Plan {
  if (target.trailmap !== undefined) {
    throw new UsageError(
      `init-tool: target ${target.id} is a trailmap (${relative(io.cwd, target.file) || target.file}); --server scaffolds an MCP server into a targets/<id>.yaml file. ` +
        `Leave out --server to scaffold a per-file tool into the trailmap`,
    );
  }
  const toolsetId = toolset ?? tool.name;
  if (!/^[a-z][a-zA-Z0-9_]*$/.test(toolsetId)) {
    throw new UsageError(
      `init-tool: --toolset "${toolsetId}" is not a valid toolset id (letters, digits and _; starts with a lower-case letter)`,
    );
  }
  const root = workspace.root;
  const shown = (path: string) => relative(io.cwd, path) || ".";
  const dir =
    dirFlag !== undefined ? folderInWorkspace("init-tool", root, dirFlag, join("tools", target.id)) : join(root, "tools", target.id);
  const serverFile = join(dir, `${tool.local}.ts`);
  const testFile = join(dir, `${tool.local}.test.ts`);
  const script = `./${relative(root, serverFile).split("\\").join("/")}`;

  const problems: string[] = [];
  for (const file of [serverFile, testFile]) {
    if (existsSync(file)) problems.push(`${shown(file)} already exists`);
  }
  if (target.mcpServers.some((s) => s.kind === "script" && resolve(root, s.script) === serverFile)) {
    problems.push(`${shown(target.file)} already lists ${script}`);
  }
  const taken = [...workspace.toolsets.values()].find((t) => t.tools.includes(tool.name));
  if (taken) problems.push(`toolset ${taken.id} (${shown(taken.file)}) already lists ${tool.name}`);
  if (problems.length > 0) return { files: [], problems, test: testFile, next: [] };

  const existingToolset = workspace.toolsets.get(toolsetId);
  const toolsetFile = existingToolset?.file ?? join(workspace.configDir, "toolsets", `${toolsetId}.yaml`);
  if (!existingToolset && existsSync(toolsetFile)) {
    throw new ScaffoldError(
      `init-tool: refusing to overwrite: ${shown(toolsetFile)} exists but does not define toolset ${toolsetId}. Nothing was written.`,
    );
  }
  const targetEdit = addServerToTarget(readFileSync(target.file, "utf8"), shown(target.file), script, toolsetId, platformOfTool(tool));
  const files: Planned[] = [
    { path: serverFile, text: serverTemplate(tool, target.id), action: "created", note: `its MCP server` },
    { path: testFile, text: testTemplate(tool), action: "created", note: "its test" },
    existingToolset
      ? {
          path: toolsetFile,
          text: addToolToToolset(readFileSync(toolsetFile, "utf8"), shown(toolsetFile), tool.name),
          action: "updated",
          note: `tools += ${tool.name}`,
        }
      : { path: toolsetFile, text: toolsetTemplate(toolsetId, tool), action: "created", note: `toolset ${toolsetId}` },
    {
      path: target.file,
      text: targetEdit.text,
      action: "updated",
      note: `mcp_servers += ${script}${targetEdit.platforms.length > 0 ? `; tool_sets += ${toolsetId} (${targetEdit.platforms.join(", ")})` : ""}`,
    },
  ];
  if (!existsSync(join(root, "tsconfig.json"))) {
    files.push({ path: join(root, "tsconfig.json"), text: TSCONFIG, action: "created", note: "for editors and tsc" });
  }
  const args = callArgs(tool, target);
  return {
    files,
    problems,
    test: testFile,
    next: [
      { command: `trailblaze call ${tool.name} ${args}`, comment: "host agent: bun subprocess" },
      { command: `trailblaze call ${tool.name} ${args} --agent on-device`, comment: "bundled into QuickJS" },
    ],
  };
}

export const initToolCommand: Command = {
  name: "init-tool",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("init-tool", argv, {
      config: { type: "string" },
      target: { type: "string" },
      toolset: { type: "string" },
      dir: { type: "string" },
      server: { type: "boolean" },
    });
    if (positionals.length !== 1) {
      throw new UsageError(`init-tool: expected one tool name, got ${positionals.length}; e.g. trailblaze init-tool myapp_applyCoupon`);
    }
    const configDir = await findConfigDir({ flag: values.config, env: io.env.TRAILBLAZE_CONFIG_DIR, cwd: io.cwd });
    const workspace = await loadWorkspace(configDir, { cwd: io.cwd });
    const target = pickTarget(workspace, values.target);
    const input: PlanInput = {
      workspace,
      target,
      tool: toolName(positionals[0]!, target.id),
      dir: values.dir,
      toolset: values.toolset,
      io,
    };
    const plan = values.server ? planServer(input) : planPerFileTool(input);
    if (plan.problems.length > 0) {
      throw new ScaffoldError(
        `init-tool: refusing to overwrite: ${plan.problems.join("; ")}. Nothing was written; pick another name or remove them.`,
      );
    }
    const root = workspace.root;
    const shown = (path: string) => relative(io.cwd, path) || ".";
    checkInsideWorkspace("init-tool", root, plan.files, shown);
    // A name a source of the target already advertises would fail every session on a collision.
    const advertised = await advertisedTools(workspace, target, io);
    const source = advertised.ok ? advertised.sources.get(input.tool.name) : undefined;
    if (source !== undefined) {
      const by = source === "builtin" ? "a built-in tool has that name" : `MCP server ${source} advertises it`;
      throw new ScaffoldError(
        `init-tool: target ${target.id} already has a tool ${input.tool.name} (${by}); a second one would fail every session of ${target.id} on a tool name collision. Nothing was written; pick another name.`,
      );
    }
    if (!advertised.ok)
      io.stderr(
        `warning: init-tool: could not list the tools of target ${target.id} to check that ${input.tool.name} is free: ${advertised.why}\n`,
      );
    writeScaffold("init-tool", root, plan.files, shown);

    const width = Math.max(...plan.files.map((f) => `${f.action} ${shown(f.path)}`.length));
    const lines = plan.files.map((f) => `${`${f.action[0]!.toUpperCase()}${f.action.slice(1)} ${shown(f.path)}`.padEnd(width)}  ${f.note}`);
    const at = resolve(io.cwd) === root ? "" : `cd ${shown(root)}   # the workspace root: test paths below are relative to it\n  `;
    const printed = printedCommands(io);
    const commands = plan.next.map((n) => ({ ...n, command: printed(n.command) }));
    const commandWidth = Math.max(...commands.map((n) => n.command.length));
    const next = commands.map((n) => `  ${n.command.padEnd(commandWidth)}   # ${n.comment}\n`).join("");
    io.stdout(`${lines.join("\n")}\n\nNext:\n  ${at}${printed(`bun test ${relative(root, plan.test)}`)}\n${next}`);
    return 0;
  },
};
