// Per-file tools: each name of a target's `tools:` list is found under the target's tools folder
// (and its subfolders), either as a `<name>.yaml` sidecar (`script:`, `name:`, `description:`,
// `runtime:`, `inputSchema:` …, or `tools: [...]` for several tools of one script) or as a script
// that exports it (`export const <name> = trailblaze.tool(…)`). What the script exports is read
// from its text here with es-module-lexer (its parse compiles synchronously without `init()`, so
// this stays synchronous); the server the runtime makes of the tools checks it again when it loads.
// Upstream's `<id>.tool.yaml` files are read too: one with a `tools:` list is a composed tool (see
// scripting/composed-tool.ts); one with `class:` is a JVM tool, which a target cannot list here.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { parse } from "es-module-lexer";
import * as z from "zod";
import { didYouMean } from "../core/did-you-mean.ts";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";
import { displayPath } from "./config-files.ts";
import type { ComposedDefinition } from "../scripting/composed-tool.ts";
import type { TargetConfig, ToolRef } from "./target-config.ts";
import { validateWith } from "./validate.ts";
import { locate, parseYaml } from "../core/yaml-file.ts";
import type { Where } from "../core/yaml-file.ts";
import { registeredToolNames, REGISTRY_GLOBAL } from "./registered-tools.ts";

/** Where a per-file tool runs: in QuickJS (the default) or as a bun subprocess (`runtime: subprocess`). */
export type ToolRuntime = "inProcess" | "subprocess";

export interface PerFileTool {
  name: string;
  /** Absolute path of the script exporting it. */
  script: string;
  /** The export holding it (the tool's name). */
  exportName: string;
  runtime: ToolRuntime;
  /** From a sidecar; a `trailblaze.tool` spec may set the rest of the metadata itself. */
  description?: string;
  inputSchema?: Record<string, unknown>;
  /** Derived from `trailblaze.tool<Input, Output>`'s output type, when it is an object type. */
  outputSchema?: Record<string, unknown>;
  /** `_meta["trailblaze/*"]` keys a sidecar sets. */
  meta: Record<string, unknown>;
  /** The sidecar that declares it, when there is one. */
  sidecar?: string;
  /** A tool composed in a `.tool.yaml` (`script` is that file): the calls it makes. */
  composed?: ComposedDefinition;
  /** A pure-JS tool the script registers on `globalThis.__trailblazeTools`: where (file:line:col of its key). */
  registered?: string;
  /** Where the name is listed in the target. */
  where: Where;
}

const SCRIPT_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "build"]);

/** Every file under `dir` that may declare tools (no tests, declarations or hidden folders). */
function candidateFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      if (name.startsWith(".")) continue;
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir) {
        if (!SKIPPED_FOLDERS.has(name)) walk(path);
      } else if (!/\.(test|spec)\.[cm]?[jt]s$/.test(name) && !name.endsWith(".d.ts")) {
        out.push(path);
      }
    }
  };
  walk(dir);
  return out;
}

// What a declaration that can hold a tool looks like: `export const|let|var x`, `export [async] function[*] x`
// (not a class, enum or namespace). es-module-lexer reads TypeScript too and marks type-only exports.
const VALUE_DECLARATION = /^export\s+(?:const|let|var|(?:async\s+)?function)\b/;

/**
 * The names a script exports that may hold a tool, read with es-module-lexer (so text inside strings,
 * template strings, regexes and comments does not count): every name of `export const a = …, b = …`,
 * `export [async] function f`, and the exported name of `export { a as b }`. Re-exports (`export { x }
 * from "./y"`, `export *`), `export default`, classes and type-only exports are not tool exports.
 * Throws es-module-lexer's error (its `idx` is where it stopped) when the source does not lex.
 */
export function exportedNames(source: string): string[] {
  const [, exports] = parse(source);
  const names: string[] = [];
  for (const entry of exports) {
    if (entry.type !== "direct" || entry.typeOnly || entry.name === "default") continue;
    const statement = source.slice(entry.exportStart, entry.start);
    if (/^export\s*\{/.test(statement) || VALUE_DECLARATION.test(statement)) names.push(entry.name);
  }
  return names;
}

/** `exportedNames` of the script at `path`; a script that does not lex is a problem located where the lexer stopped. */
function scriptExports(path: string, source: string, shown: string, problems: ConfigProblem[]): string[] {
  try {
    return exportedNames(source);
  } catch (error) {
    const idx = typeof (error as { idx?: unknown }).idx === "number" ? Math.min((error as { idx: number }).idx, source.length) : 0;
    const before = source.slice(0, idx);
    const line = before.split("\n").length;
    const col = idx - (before.lastIndexOf("\n") + 1) + 1;
    problems.push({
      file: shown,
      line,
      col,
      path: "",
      message: `cannot read which tools ${basename(path)} exports: it does not parse as a module; fix its syntax (\`bun build ${shown}\` names the error)`,
    });
    return [];
  }
}

const property = z.strictObject({
  type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
  description: z.string().optional(),
  enum: z.array(z.union([z.string(), z.number()])).optional(),
  required: z.boolean().optional(),
  items: z.record(z.string(), z.unknown()).optional(),
  default: z.unknown().optional(),
});

const toolFields = {
  description: z.string().optional(),
  requiresHost: z.boolean().optional(),
  supportedPlatforms: z.array(z.string()).optional(),
  supportedDrivers: z.array(z.string()).optional(),
  surfaceToLlm: z.boolean().optional(),
  isRecordable: z.boolean().optional(),
  inputSchema: z.record(z.string(), property).optional(),
};

const sidecarSchema = z.strictObject({
  script: z.string().min(1),
  name: z.string().min(1).optional(),
  runtime: z.enum(["inProcess", "subprocess"]).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  ...toolFields,
  tools: z.array(z.strictObject({ name: z.string().min(1), ...toolFields })).optional(),
});

type SidecarTool = { name: string } & { [K in keyof typeof toolFields]?: z.output<(typeof toolFields)[K]> };

interface Declared {
  name: string;
  script: string;
  runtime: ToolRuntime;
  description?: string;
  inputSchema?: Record<string, unknown>;
  meta: Record<string, unknown>;
  sidecar?: string;
  composed?: ComposedDefinition;
  /** Registered on `globalThis.__trailblazeTools` (upstream's pure-JS form) rather than exported. */
  registered?: boolean;
  /** `class:` of a JVM-backed `.tool.yaml`: declared, but not runnable here. */
  jvmClass?: string;
  /** Where it is declared: the sidecar's `name:`, or the script. */
  at: string;
}

/** A sidecar's `inputSchema:` (property → {type, description, required (default true) …}) as JSON Schema. */
function sidecarJsonSchema(properties: Record<string, z.output<typeof property>>): Record<string, unknown> {
  const required = Object.entries(properties)
    .filter(([, p]) => p.required !== false)
    .map(([name]) => name);
  const props = Object.fromEntries(Object.entries(properties).map(([name, { required: _required, ...rest }]) => [name, rest]));
  return { type: "object", properties: props, ...(required.length > 0 ? { required } : {}) };
}

function sidecarMeta(tool: SidecarTool, shared: Record<string, unknown>): Record<string, unknown> {
  return {
    ...shared,
    ...(tool.requiresHost ? { "trailblaze/requiresHost": true } : {}),
    ...(tool.supportedPlatforms?.length ? { "trailblaze/supportedPlatforms": tool.supportedPlatforms } : {}),
    ...(tool.supportedDrivers?.length ? { "trailblaze/supportedDrivers": tool.supportedDrivers } : {}),
    ...(tool.surfaceToLlm === false ? { "trailblaze/surfaceToLlm": false } : {}),
    ...(tool.isRecordable === false ? { "trailblaze/isRecordable": false } : {}),
  };
}

const toolYamlSchema = z.looseObject({
  id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "a tool name (letters, digits, _ and -, at most 64)"),
  class: z.string().min(1).optional(),
  description: z.string().optional(),
  parameters: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "a parameter name (letters, digits and _)"),
        type: property.shape.type,
        required: z.boolean().optional(),
        description: z.string().optional(),
        default: z.unknown().optional(),
      }),
    )
    .optional(),
  tools: z
    .array(z.record(z.string(), z.unknown()).refine((call) => Object.keys(call).length === 1, "one tool call: { <toolName>: { args } }"))
    .optional(),
  surface_to_llm: z.boolean().optional(),
  is_recordable: z.boolean().optional(),
  requires_host: z.boolean().optional(),
});

/** Upstream's `<id>.tool.yaml`: a composed tool (`tools:`), or a JVM tool (`class:`) that cannot run here. */
function readToolYaml(path: string, shown: string, problems: ConfigProblem[]): Declared[] {
  const yaml = parseYaml(shown, readFileSync(path, "utf8"));
  const checked = validateWith(toolYamlSchema, yaml);
  problems.push(...checked.problems);
  const raw = checked.value;
  if (!raw) return [];
  const where = locate(yaml, ["id"]);
  const at = `${where.file}:${where.line}:${where.col}`;
  if (raw.class !== undefined) return [{ name: raw.id, script: path, runtime: "inProcess", meta: {}, at, jvmClass: raw.class }];
  if (!raw.tools) {
    problems.push({
      ...where,
      path: "id",
      message: `tool ${raw.id} has neither tools: (the calls a composed tool makes) nor class:; add a tools: list`,
    });
    return [];
  }
  const parameters = raw.parameters ?? [];
  const inputSchema = sidecarJsonSchema(
    Object.fromEntries(
      parameters.map((p) => [
        p.name,
        {
          type: p.type,
          ...(p.description !== undefined ? { description: p.description } : {}),
          ...(p.default !== undefined ? { default: p.default } : {}),
          required: p.required !== false,
        },
      ]),
    ),
  );
  return [
    {
      name: raw.id,
      script: path,
      runtime: "inProcess",
      ...(raw.description !== undefined ? { description: raw.description.trim() } : {}),
      inputSchema,
      meta: {
        ...(raw.requires_host ? { "trailblaze/requiresHost": true } : {}),
        ...(raw.surface_to_llm === false ? { "trailblaze/surfaceToLlm": false } : {}),
        ...(raw.is_recordable === false ? { "trailblaze/isRecordable": false } : {}),
      },
      composed: {
        id: raw.id,
        parameters: parameters.map((p) => ({
          name: p.name,
          required: p.required !== false,
          hasDefault: "default" in p,
          ...("default" in p ? { default: p.default } : {}),
        })),
        tools: raw.tools,
      },
      at,
    },
  ];
}

/** The tools a sidecar declares; problems (located in the sidecar) are added to `problems`. */
function readSidecar(path: string, shown: string, problems: ConfigProblem[]): Declared[] {
  const yaml = parseYaml(shown, readFileSync(path, "utf8"));
  // Other YAML in a tools folder (a toolset, a trailmap) is not a sidecar: it has no `script:`.
  if (typeof yaml.data !== "object" || yaml.data === null || !("script" in yaml.data)) return [];
  const checked = validateWith(sidecarSchema, yaml);
  problems.push(...checked.problems);
  const raw = checked.value;
  if (!raw) return [];
  const script = isAbsolute(raw.script) ? raw.script : resolve(dirname(path), raw.script);
  try {
    if (!statSync(script).isFile()) throw new Error("not a file");
  } catch {
    const where = locate(yaml, ["script"]);
    problems.push({
      ...where,
      path: "script",
      message: `script ${raw.script} not found (resolved against the sidecar's folder: ${script})`,
    });
    return [];
  }
  const shared = raw.meta ?? {};
  const tools: SidecarTool[] = raw.tools ?? [{ ...raw, name: raw.name ?? basename(path, extname(path)) }];
  const at = (i: number | undefined) => {
    const where = locate(yaml, i === undefined ? (raw.name ? ["name"] : []) : ["tools", i, "name"]);
    return `${where.file}:${where.line}:${where.col}`;
  };
  return tools.map((tool, i) => ({
    name: tool.name,
    script,
    runtime: raw.runtime ?? "inProcess",
    ...((tool.description ?? raw.description) ? { description: tool.description ?? raw.description } : {}),
    ...(tool.inputSchema ? { inputSchema: sidecarJsonSchema(tool.inputSchema) } : {}),
    meta: sidecarMeta({ ...raw, ...tool }, shared),
    sidecar: path,
    at: at(raw.tools ? i : undefined),
  }));
}

/** Every tool declared under `dir`: by sidecars first, then by scripts' exports (a sidecar's script is not scanned again). */
function declaredTools(dir: string, cwd: string, problems: ConfigProblem[]): Map<string, Declared[]> {
  const files = candidateFiles(dir);
  const shown = (path: string) => displayPath(path, cwd);
  const byName = new Map<string, Declared[]>();
  const add = (...tools: Declared[]) => {
    for (const tool of tools) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  };
  const fromSidecars = new Set<string>();
  const isToolYaml = (f: string) => /\.tool\.ya?ml$/.test(f);
  for (const path of files.filter(isToolYaml)) add(...readToolYaml(path, shown(path), problems));
  for (const path of files.filter((f) => [".yaml", ".yml"].includes(extname(f)) && !isToolYaml(f))) {
    for (const tool of readSidecar(path, shown(path), problems)) {
      fromSidecars.add(tool.script);
      add(tool);
    }
  }
  for (const path of files.filter((f) => SCRIPT_EXTENSIONS.includes(extname(f)) && !fromSidecars.has(f))) {
    const source = readFileSync(path, "utf8");
    if (!source.includes("trailblaze")) continue;
    for (const { name, index } of registeredToolNames(source)) {
      const before = source.slice(0, index);
      const line = before.split("\n").length;
      const col = index - (before.lastIndexOf("\n") + 1) + 1;
      add({ name, script: path, runtime: "inProcess", meta: {}, registered: true, at: `${shown(path)}:${line}:${col}` });
    }
    for (const name of scriptExports(path, source, shown(path), problems))
      add({ name, script: path, runtime: "inProcess", meta: {}, at: shown(path) });
  }
  return byName;
}

/** The files under `dir` that already declare the tool `name` (as shown from `cwd`); bad sidecars are skipped. */
export function declarationsOf(dir: string, name: string, cwd: string): string[] {
  return (declaredTools(dir, cwd, []).get(name) ?? []).map((tool) => tool.at);
}

/**
 * The tools the script `file` declares (its tool exports, or what a sidecar in its folder says it
 * holds), as a target listing them would get them; empty when it declares none (an MCP server).
 */
export function toolsOfScript(file: string, cwd: string): PerFileTool[] {
  const where = { file: displayPath(file, cwd), line: 1, col: 1 };
  return [...declaredTools(dirname(file), cwd, []).values()]
    .flat()
    .filter((tool) => tool.script === file && !tool.composed && tool.jvmClass === undefined)
    .map(({ at, jvmClass: _jvmClass, registered, ...tool }) => ({
      ...tool,
      exportName: tool.name,
      ...(registered ? { registered: at } : {}),
      where,
    }));
}

/**
 * The per-file tools of `target` (its `tools:` names), found under its tools folder (default
 * `<root>/tools`). Throws one ConfigError naming every name not found or found twice, at the
 * name's line in the target, and every bad sidecar at its own line.
 */
export function resolvePerFileTools(target: TargetConfig, root: string, cwd: string = process.cwd()): PerFileTool[] {
  if (target.tools.length === 0) return [];
  const targetDir = target.toolsDir ?? join(root, "tools");
  const problems: ConfigProblem[] = [];
  // A name lent by a dependency trailmap (`exports:`) is looked up in that trailmap's own folder.
  const folders = new Map<string, Map<string, Declared[]>>();
  const declaredIn = (dir: string) => {
    let declared = folders.get(dir);
    if (!declared) folders.set(dir, (declared = declaredTools(dir, cwd, problems)));
    return declared;
  };
  const found: PerFileTool[] = [];
  const located = (ref: ToolRef, message: string): ConfigProblem => ({ ...ref.where, path: "tools", message });
  for (const ref of target.tools) {
    const dir = ref.toolsDir ?? targetDir;
    const declared = declaredIn(dir);
    const candidates = declared.get(ref.name) ?? [];
    if (candidates.length === 0) {
      const hint = didYouMean(ref.name, declared.keys());
      problems.push(
        located(
          ref,
          `tool ${ref.name} not found under ${dir}${hint}; write it as \`export const ${ref.name} = trailblaze.tool(…)\` ` +
            `in a script there (e.g. tools/${ref.name}.ts), register it in a .js file as \`globalThis.${REGISTRY_GLOBAL}["${ref.name}"] = { spec, handler }\`, ` +
            `or give a ${ref.name}.yaml sidecar with script: and name:`,
        ),
      );
      continue;
    }
    if (candidates.length > 1) {
      problems.push(
        located(ref, `tool ${ref.name} is declared ${candidates.length} times: ${candidates.map((c) => c.at).join(", ")}; keep one`),
      );
      continue;
    }
    const tool = candidates[0]!;
    if (tool.jvmClass !== undefined) {
      problems.push(
        located(
          ref,
          `tool ${ref.name} (${tool.at}) is a JVM tool (class: ${tool.jvmClass}), which this runtime cannot run; ` +
            `write it as a per-file tool (export const ${ref.name} = trailblaze.tool(…)) or compose it from other tools with a tools: list`,
        ),
      );
      continue;
    }
    found.push({
      name: tool.name,
      script: tool.script,
      exportName: tool.name,
      runtime: tool.runtime,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}),
      meta: tool.meta,
      ...(tool.sidecar ? { sidecar: tool.sidecar } : {}),
      ...(tool.composed ? { composed: tool.composed } : {}),
      ...(tool.registered ? { registered: tool.at } : {}),
      where: ref.where,
    });
  }
  const seen = new Set<string>();
  for (const ref of target.tools) {
    if (seen.has(ref.name)) problems.push(located(ref, `tool ${ref.name} is listed twice; remove one`));
    seen.add(ref.name);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return found;
}
