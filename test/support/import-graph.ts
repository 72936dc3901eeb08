// The repository's import graph, from the sources themselves: which file imports which (static,
// type-only and dynamic imports alike, as TypeScript's own scanner finds them, so an import written
// inside a template string is text, not an edge), folded into folders (src/<folder>, runtime-quickjs).
// `bun test/support/import-graph.ts` prints the folder graph; test/architecture.test.ts checks it.

import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type * as TS from "typescript-api";

import { REPO } from "./cli.ts";

export { REPO };

/** TypeScript 5's API, as ts-json-schema-generator installs it (the typescript package is the native compiler). */
const ts = createRequire(createRequire(import.meta.url).resolve("ts-json-schema-generator"))("typescript") as typeof TS;

/** The layers, top to bottom: a folder imports only its own layer (one way) or layers below it. */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["run", "check", "mcp-serve"],
  ["agent"],
  ["session"],
  ["dispatcher", "registry", "servers", "builtins"],
  ["transports", "runtime-quickjs", "bundle", "config", "llm", "trail", "screen", "scripting", "typegen", "browser"],
  ["core"],
];

/** Every module specifier `file` imports or re-exports, statically or with import(). */
function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((imported) => imported.fileName);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith(".ts") && !path.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** `src/session/session.ts` → `session`; `src/errors.ts` → `core`; `runtime-quickjs/…` → `runtime-quickjs`. */
export function folderOf(file: string): string {
  const parts = relative(REPO, file).split("/");
  if (parts[0] !== "src") return parts[0]!;
  return parts.length === 2 ? "core" : parts[1]!;
}

export interface ImportGraph {
  /** file → files it imports (absolute paths, relative imports only). */
  files: Map<string, string[]>;
  /** folder → folders it imports. */
  folders: Map<string, Set<string>>;
  /**
   * Imports of this repository's sources by anything but a relative path (an absolute path, a
   * tsconfig `paths` alias, the package's own name or a `file:` dependency on one of its folders),
   * as `file: specifier -> target`: the graph cannot see them, and one module loaded under two
   * paths runs twice.
   */
  aliased: string[];
}

/** The folders whose files are the sources the graph covers. */
const SOURCE_ROOTS = ["src", "runtime-quickjs"].map((folder) => join(REPO, folder));

const insideSources = (path: string) => SOURCE_ROOTS.some((root) => path === root || path.startsWith(root + sep));

/** Non-relative names that lead into the sources: tsconfig `paths` aliases, the package's own name and its `file:` dependencies, each with where it leads. */
function aliasesOfSources(): Map<string, string> {
  const aliases = new Map<string, string>();
  const tsconfig = ts.parseConfigFileTextToJson("tsconfig.json", readFileSync(join(REPO, "tsconfig.json"), "utf8")).config as {
    compilerOptions?: { paths?: Record<string, string[]> };
  };
  for (const [alias, targets] of Object.entries(tsconfig.compilerOptions?.paths ?? {}))
    aliases.set(alias.replace(/\/\*$/, ""), resolve(REPO, targets[0]!.replace(/\/\*$/, "")));
  const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  aliases.set(manifest.name, REPO);
  for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    if (version.startsWith("file:")) aliases.set(name, resolve(REPO, version.slice("file:".length)));
  }
  return aliases;
}

/** Where a non-relative `specifier` imported by `file` leads, when that is one of the sources. */
export function aliasedSource(specifier: string, file: string, aliases: Map<string, string> = aliasesOfSources()): string | undefined {
  if (isAbsolute(specifier)) return insideSources(specifier) ? specifier : undefined;
  for (const [alias, target] of aliases) {
    if (specifier !== alias && !specifier.startsWith(`${alias}/`)) continue;
    const led = join(target, specifier.slice(alias.length));
    return insideSources(led) || led === REPO ? led : undefined;
  }
  // Anything else that resolves into the sources (a link in node_modules, a baseUrl).
  try {
    const found = realpathSync(Bun.resolveSync(specifier, dirname(file)));
    return insideSources(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

export function importGraph(): ImportGraph {
  const files = new Map<string, string[]>();
  const folders = new Map<string, Set<string>>();
  const aliased: string[] = [];
  const aliases = aliasesOfSources();
  for (const file of SOURCE_ROOTS.flatMap((root) => sourceFiles(root))) {
    const imports: string[] = [];
    for (const specifier of specifiersOf(file)) {
      if (!specifier.startsWith(".")) {
        const led = aliasedSource(specifier, file, aliases);
        if (led !== undefined) aliased.push(`${relative(REPO, file)}: ${specifier} -> ${relative(REPO, led) || "."}`);
        continue;
      }
      // Data files such as the package manifest are no layer.
      if (specifier.endsWith(".json")) continue;
      const target = resolve(dirname(file), specifier);
      imports.push(target);
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)!.add(to);
    }
    files.set(file, imports);
  }
  return { files, folders, aliased };
}

/**
 * Imports from `folder` (a top-level folder such as runtime-quickjs) into src/ of any file not in
 * `allowed` (paths relative to the repository; one ending in `/` allows the folder), as `from -> to`.
 */
export function importsOutside(files: Map<string, string[]>, folder: string, allowed: readonly string[]): string[] {
  const wrong: string[] = [];
  for (const [file, imports] of files) {
    if (!relative(REPO, file).startsWith(`${folder}/`)) continue;
    for (const target of imports) {
      const to = relative(REPO, target);
      if (!to.startsWith("src/") || allowed.some((path) => (path.endsWith("/") ? to.startsWith(path) : to === path))) continue;
      wrong.push(`${relative(REPO, file)} -> ${to}`);
    }
  }
  return wrong.sort();
}

/** Every cycle found by a depth-first walk, each as the list of nodes around it. */
export function cycles(edges: Map<string, Iterable<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** Folder pairs that import each other. */
export function twoWayPairs(folders: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [a, targets] of folders) for (const b of targets) if (a < b && folders.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);
  return pairs.sort();
}

/** Imports that go up the layers (`from -> to`). */
export function upwardImports(folders: Map<string, Set<string>>): string[] {
  const layer = (folder: string) => LAYERS.findIndex((group) => group.includes(folder));
  const wrong: string[] = [];
  for (const [from, targets] of folders) for (const to of targets) if (layer(to) < layer(from)) wrong.push(`${from} -> ${to}`);
  return wrong.sort();
}

if (import.meta.main) {
  const { files, folders } = importGraph();
  for (const [from, targets] of [...folders].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${from} -> ${[...targets].sort().join(", ")}`);
  console.log(
    `file cycles: ${cycles(files).length} · two-way folder pairs: ${twoWayPairs(folders).length} · upward imports: ${upwardImports(folders).length} · aliased imports: ${importGraph().aliased.length}`,
  );
}
