// `bun trailblaze init-tool <name>`: scaffolds a tool — its MCP server file, a test, a toolset
// YAML — and adds the server to a target YAML. Checks everything first and refuses to overwrite,
// so a refused run writes nothing.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { findConfigDir, loadWorkspace, type TargetConfig, type Workspace } from "../../config/workspace.ts";
import { ScaffoldError, UsageError } from "../../errors.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { DEFAULT_DRIVER, parsePlatform } from "../../core/drivers.ts";
import { addServerToTarget, platformOfTool, addToolToToolset, serverTemplate, testTemplate, toolName, toolsetTemplate, TSCONFIG } from "./init-tool-files.ts";

const HELP = `Usage: bun trailblaze init-tool <name> [--target ID] [--toolset ID] [--dir DIR] [--config DIR]

Scaffolds a Trailblaze tool written as a standard MCP server with @trailblaze/scripting:
  <dir>/<verbNoun>.ts          the server (McpServer + StdioServerTransport), one tool
  <dir>/<verbNoun>.test.ts     a bun test that runs it over stdio
  toolsets/<toolset>.yaml      a toolset listing the tool (or the tool added to an existing one)
  targets/<target>.yaml        "- script: ./<dir>/<verbNoun>.ts" under mcp_servers, and the toolset
                               under every platform's tool_sets (comments and layout kept)
Existing files are never overwritten: if any would be, nothing is written.

<name> is the tool name, <targetId>_<verbNoun> (e.g. myapp_applyCoupon); a bare verbNoun gets the
target id prefixed. Platform-specific tools add the platform: myapp_ios_resetKeychain.

Options:
  --target ID           target to add the server to (default: the only target)
  --toolset ID          toolset to list the tool in, created when missing (default: the tool name)
  --dir DIR             folder for the server and test, relative to the workspace root (the folder
                        holding trailblaze-config/) (default: tools/<targetId>)
  --config DIR          trailblaze-config folder (default: $TRAILBLAZE_CONFIG_DIR, else the
                        nearest trailblaze-config/ walking up from the working directory)
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

export const initToolCommand: Command = {
  name: "init-tool",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("init-tool", argv, {
      config: { type: "string" },
      target: { type: "string" },
      toolset: { type: "string" },
      dir: { type: "string" },
    });
    if (positionals.length !== 1) {
      throw new UsageError(`init-tool: expected one tool name, got ${positionals.length}; e.g. bun trailblaze init-tool myapp_applyCoupon`);
    }
    const configDir = await findConfigDir({ flag: values.config, env: io.env.TRAILBLAZE_CONFIG_DIR, cwd: io.cwd });
    const workspace = await loadWorkspace(configDir, { cwd: io.cwd });
    const target = pickTarget(workspace, values.target);
    if (target.trailmap !== undefined) {
      throw new UsageError(
        `init-tool: target ${target.id} is a trailmap (${relative(io.cwd, target.file) || target.file}); init-tool scaffolds an MCP server into a targets/<id>.yaml file. ` +
          `For a trailmap, write a per-file tool under ${relative(io.cwd, target.toolsDir!) || "."}/ and list its name in target.tools`,
      );
    }
    const tool = toolName(positionals[0]!, target.id);
    const toolsetId = values.toolset ?? tool.name;
    if (!/^[a-z][a-zA-Z0-9_]*$/.test(toolsetId)) {
      throw new UsageError(`init-tool: --toolset "${toolsetId}" is not a valid toolset id (letters, digits and _; starts with a lower-case letter)`);
    }

    const root = workspace.root;
    const dir = resolve(root, values.dir ?? join("tools", target.id));
    const serverFile = join(dir, `${tool.local}.ts`);
    const script = `./${relative(root, serverFile).split("\\").join("/")}`;
    const shown = (path: string) => relative(io.cwd, path) || ".";

    const taken = [...workspace.toolsets.values()].find((t) => t.tools.includes(tool.name));
    const problems: string[] = [];
    for (const file of [serverFile, join(dir, `${tool.local}.test.ts`)]) {
      if (existsSync(file)) problems.push(`${shown(file)} already exists`);
    }
    if (target.mcpServers.some((s) => s.kind === "script" && resolve(root, s.script) === serverFile)) {
      problems.push(`${shown(target.file)} already lists ${script}`);
    }
    if (taken) problems.push(`toolset ${taken.id} (${shown(taken.file)}) already lists ${tool.name}`);
    if (problems.length > 0) {
      throw new ScaffoldError(`init-tool: refusing to overwrite: ${problems.join("; ")}. Nothing was written; pick another name or remove them.`);
    }

    const existingToolset = workspace.toolsets.get(toolsetId);
    const toolsetFile = existingToolset?.file ?? join(configDir, "toolsets", `${toolsetId}.yaml`);
    if (!existingToolset && existsSync(toolsetFile)) {
      throw new ScaffoldError(`init-tool: refusing to overwrite: ${shown(toolsetFile)} exists but does not define toolset ${toolsetId}. Nothing was written.`);
    }
    const targetEdit = addServerToTarget(readFileSync(target.file, "utf8"), shown(target.file), script, toolsetId, platformOfTool(tool));
    const planned: Planned[] = [
      { path: serverFile, text: serverTemplate(tool, target.id), action: "created", note: `its MCP server` },
      { path: join(dir, `${tool.local}.test.ts`), text: testTemplate(tool), action: "created", note: "its test" },
      existingToolset
        ? { path: toolsetFile, text: addToolToToolset(readFileSync(toolsetFile, "utf8"), shown(toolsetFile), tool.name), action: "updated", note: `tools += ${tool.name}` }
        : { path: toolsetFile, text: toolsetTemplate(toolsetId, tool), action: "created", note: `toolset ${toolsetId}` },
      {
        path: target.file,
        text: targetEdit.text,
        action: "updated",
        note: `mcp_servers += ${script}${targetEdit.platforms.length > 0 ? `; tool_sets += ${toolsetId} (${targetEdit.platforms.join(", ")})` : ""}`,
      },
    ];
    if (!existsSync(join(root, "tsconfig.json"))) {
      planned.push({ path: join(root, "tsconfig.json"), text: TSCONFIG, action: "created", note: "for editors and tsc" });
    }
    for (const file of planned) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.text);
    }

    const width = Math.max(...planned.map((f) => `${f.action} ${shown(f.path)}`.length));
    const lines = planned.map((f) => `${`${f.action[0]!.toUpperCase()}${f.action.slice(1)} ${shown(f.path)}`.padEnd(width)}  ${f.note}`);
    const at = resolve(io.cwd) === root ? "" : `cd ${shown(root)}   # the workspace root: test paths below are relative to it\n  `;
    // A platform tool is called in a session of its platform.
    const platform = platformOfTool(tool);
    const driver = platform ? ` --driver ${DEFAULT_DRIVER[parsePlatform(platform)!]}` : "";
    const args = `--target ${target.id}${driver} --args '{"text":"hi"}'`;
    io.stdout(
      `${lines.join("\n")}\n\nNext:\n  ${at}bun test ${relative(root, join(dir, `${tool.local}.test.ts`))}\n` +
        `  bun trailblaze call ${tool.name} ${args}                     # host agent: bun subprocess\n` +
        `  bun trailblaze call ${tool.name} ${args} --agent on-device   # bundled into QuickJS\n`,
    );
    return 0;
  },
};
