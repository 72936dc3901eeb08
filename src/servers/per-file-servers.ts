// A target's per-file tools become MCP servers the session starts like any `script:` entry: one
// for the tools that run in QuickJS (the default `runtime: inProcess`, in both agent modes) and
// one for `runtime: subprocess` tools (a bun subprocess, host agent only). Each is a small
// generated entry in `<root>/.cache/trailblaze-tools/` importing the tool files and serving them
// with @trailblaze/scripting's serveTools, so the tools go through the same transports,
// registry filters, dispatcher, context and result mapping as hand-written servers.

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkCacheFolder, writeAtomically } from "../core/cache-files.ts";
import { deriveTools } from "../bundle/tool-schemas.ts";
import { displayPath } from "../config/config-files.ts";
import { resolvePerFileTools, toolsOfScript, type PerFileTool, type ToolRuntime } from "../config/per-file-tools.ts";
import { resolveTargetServers, type ResolvedServer } from "../config/script-paths.ts";
import { registeredToolNames } from "../config/registered-tools.ts";
import type { TargetConfig } from "../config/target-config.ts";
import { ConfigError } from "../errors.ts";

const SERVE_TOOLS = fileURLToPath(new URL("../scripting/serve-tools.ts", import.meta.url));
const COMPOSED_TOOL = fileURLToPath(new URL("../scripting/composed-tool.ts", import.meta.url));
const REGISTERED_TOOL = fileURLToPath(new URL("../scripting/registered-tool.ts", import.meta.url));

/** How per-file servers are shown (tool sources, logs): `per-file tools (QuickJS)`. */
const PER_FILE_DISPLAY: Record<ToolRuntime, string> = {
  inProcess: "per-file tools (QuickJS)",
  subprocess: "per-file tools (subprocess)",
};

/** Fills in descriptions, input and output schemas from the sources; a tool whose schema cannot be derived is a located error. */
async function described(tools: PerFileTool[], root: string, cacheRoot = root): Promise<PerFileTool[]> {
  const cacheDir = join(cacheRoot, ".cache", "trailblaze-tool-schemas");
  const byScript = new Map<string, PerFileTool[]>();
  // A composed tool's schema comes from its parameters, a registered one's from its spec when it runs: nothing to derive.
  for (const tool of tools.filter((t) => !t.composed && !t.registered))
    byScript.set(tool.script, [...(byScript.get(tool.script) ?? []), tool]);
  const derived = await deriveTools(
    [...byScript].map(([script, group]) => {
      const wanting = new Set(group.filter((tool) => !tool.inputSchema).map((tool) => tool.exportName));
      return { file: script, names: group.map((tool) => tool.exportName), wantSchema: (name: string) => wanting.has(name) };
    }),
    cacheDir,
  );
  const problems = tools.flatMap((tool) => {
    const problem = derived.get(tool.script)?.get(tool.exportName)?.problem;
    if (!problem) return [];
    const file = displayPath(tool.script, root);
    return [
      {
        ...tool.where,
        path: "tools",
        message:
          `tool ${tool.name}: its input type in ${file} cannot be turned into a JSON Schema (${problem}); ` +
          `declare the input as an interface or type alias of plain fields, or give inputSchema in its trailblaze.tool spec or a ${tool.name}.yaml sidecar`,
      },
    ];
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return tools.map((tool) => {
    const found = derived.get(tool.script)?.get(tool.exportName);
    return {
      ...tool,
      // `requiresHost: true` in its spec: the host runs it as a subprocess; QuickJS never bundles it.
      ...(found?.requiresHost ? { runtime: "subprocess" as const, meta: { ...tool.meta, "trailblaze/requiresHost": true } } : {}),
      ...(tool.description === undefined && found?.description ? { description: found.description } : {}),
      ...(tool.inputSchema === undefined && found?.inputSchema ? { inputSchema: found.inputSchema } : {}),
      ...(found?.outputSchema ? { outputSchema: found.outputSchema } : {}),
    };
  });
}

/** The generated entry serving `tools`, for `owner` (a target's id, or the one script checked). */
function entrySource(tools: PerFileTool[], runtime: ToolRuntime, owner: string, root: string): string {
  const scripts = [...new Set(tools.filter((tool) => !tool.composed && !tool.registered).map((tool) => tool.script))];
  // A registering script is imported for its side effect: an unused `import * as` is elided from TypeScript.
  const registering = [...new Set(tools.filter((tool) => tool.registered).map((tool) => tool.script))];
  const imports = [
    ...registering.map((script) => `import ${JSON.stringify(script)};`),
    ...scripts.map((script, i) => `import * as m${i} from ${JSON.stringify(script)};`),
  ];
  if (tools.some((tool) => tool.composed)) imports.push(`import { composedTool } from ${JSON.stringify(COMPOSED_TOOL)};`);
  if (tools.some((tool) => tool.registered)) imports.push(`import { registeredTool } from ${JSON.stringify(REGISTERED_TOOL)};`);
  const served = tools.map((tool) => {
    // Upstream's pure-JS form: read from globalThis.__trailblazeTools once the scripts above have run.
    if (tool.registered) {
      const meta = Object.keys(tool.meta).length > 0 ? `, ${JSON.stringify(tool.meta)}` : "";
      return `  registeredTool(${JSON.stringify(tool.name)}, ${JSON.stringify(displayPath(tool.script, root))}, ${JSON.stringify(tool.registered)}${meta}),`;
    }
    const fields = [
      `name: ${JSON.stringify(tool.name)}`,
      tool.composed
        ? `value: composedTool(${JSON.stringify(tool.composed)})`
        : `value: m${scripts.indexOf(tool.script)}[${JSON.stringify(tool.exportName)}]`,
      `file: ${JSON.stringify(displayPath(tool.script, root))}`,
      ...(tool.description !== undefined ? [`description: ${JSON.stringify(tool.description)}`] : []),
      ...(tool.inputSchema ? [`inputSchema: ${JSON.stringify(tool.inputSchema)}`] : []),
      ...(tool.outputSchema ? [`outputSchema: ${JSON.stringify(tool.outputSchema)}`] : []),
      ...(Object.keys(tool.meta).length > 0 ? [`meta: ${JSON.stringify(tool.meta)}`] : []),
    ];
    return `  { ${fields.join(", ")} },`;
  });
  return [
    `// Generated by trailblaze: the per-file tools of ${owner} (${PER_FILE_DISPLAY[runtime]}). Do not edit; regenerated on every session.`,
    `import { serveTools } from ${JSON.stringify(SERVE_TOOLS)};`,
    ...imports,
    "",
    "await serveTools([",
    ...served,
    `], { name: ${JSON.stringify(`${owner} ${PER_FILE_DISPLAY[runtime]}`)} });`,
    "",
  ].join("\n");
}

/** Writes `text` to `path` unless it already holds it (an unchanged entry keeps its build cache). */
function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, "utf8") === text) return;
  writeAtomically(path, text);
}

/** The servers serving `target`'s per-file tools (none when it lists no `tools:`). */
async function perFileServers(target: TargetConfig, root: string, cwd: string): Promise<ResolvedServer[]> {
  const tools = await described(resolvePerFileTools(target, root, cwd), root);
  if (tools.length === 0) return [];
  const dir = join(root, ".cache", "trailblaze-tools");
  checkCacheFolder(dir);
  mkdirSync(dir, { recursive: true });
  const servers: ResolvedServer[] = [];
  for (const runtime of ["inProcess", "subprocess"] as const) {
    const group = tools.filter((tool) => tool.runtime === runtime);
    if (group.length === 0) continue;
    const script = join(dir, `${target.id}-${runtime}.ts`);
    writeIfChanged(script, entrySource(group, runtime, target.id, root));
    servers.push({
      kind: "script",
      script,
      display: PER_FILE_DISPLAY[runtime],
      perFile: { runtime, tools: group.map((tool) => tool.name) },
      cwd: target.toolsDir ?? join(root, "tools"),
    });
  }
  return servers;
}

/**
 * A `script:` entry that is upstream's pure-JS form (it fills `globalThis.__trailblazeTools` and
 * is no MCP server) as the per-file server serving every tool it registers; undefined otherwise.
 */
function registrationServer(server: ResolvedServer, owner: string, root: string, cwd: string): ResolvedServer | undefined {
  if (server.kind !== "script" || server.bundle) return undefined;
  let source: string;
  try {
    source = readFileSync(server.script, "utf8");
  } catch {
    return undefined;
  }
  if (source.includes("@modelcontextprotocol/")) return undefined;
  const found = registeredToolNames(source);
  if (found.length === 0) return undefined;
  const shown = displayPath(server.script, cwd);
  const tools: PerFileTool[] = found.map(({ name, index }) => {
    const before = source.slice(0, index);
    const line = before.split("\n").length;
    const col = index - (before.lastIndexOf("\n") + 1) + 1;
    return {
      name,
      script: server.script,
      exportName: name,
      runtime: "inProcess",
      meta: {},
      registered: `${shown}:${line}:${col}`,
      where: { file: shown, line, col },
    };
  });
  const dir = join(root, ".cache", "trailblaze-tools");
  checkCacheFolder(dir);
  mkdirSync(dir, { recursive: true });
  const script = join(dir, `${owner}-registered-${basename(server.script, extname(server.script))}.ts`);
  writeIfChanged(script, entrySource(tools, "inProcess", `${owner} ${shown}`, root));
  return {
    ...server,
    script,
    perFile: { runtime: "inProcess", tools: tools.map((tool) => tool.name) },
    cwd: server.cwd ?? dirname(server.script),
  };
}

/** Every server of `target`: its `mcp_servers` entries (pure-JS registrations served as per-file tools), then its per-file tools' servers. */
export async function targetServers(target: TargetConfig, root: string, cwd: string): Promise<ResolvedServer[]> {
  const configured = resolveTargetServers(target, root).map((server) => registrationServer(server, target.id, root, cwd) ?? server);
  return [...configured, ...(await perFileServers(target, root, cwd))];
}

/**
 * The tools one script declares, as the on-device server a session would make of them (for
 * check-bundle on a tool file): the generated entry, written into `dir`, and the tools it
 * serves; `hostOnly` names the tools that run as a host subprocess and so are not in it.
 * Undefined when the script declares no per-file tool (it is an MCP server of its own).
 * Derived schemas are cached in `<cacheRoot>/.cache/` (the workspace root; default `cwd`).
 */
export async function perFileScriptEntry(
  file: string,
  cwd: string,
  dir: string,
  cacheRoot = cwd,
): Promise<{ entry: string; tools: string[]; hostOnly: string[] } | undefined> {
  const tools = await described(toolsOfScript(file, cwd), cwd, cacheRoot);
  if (tools.length === 0) return undefined;
  const onDevice = tools.filter((tool) => tool.runtime === "inProcess");
  const entry = join(dir, `${basename(file, extname(file))}.ts`);
  writeAtomically(entry, entrySource(onDevice, "inProcess", displayPath(file, cwd), cwd));
  return {
    entry,
    tools: onDevice.map((tool) => tool.name),
    hostOnly: tools.filter((tool) => tool.runtime === "subprocess").map((tool) => tool.name),
  };
}
