// The repository's import graph, from the sources themselves: which file imports which (static,
// type-only and dynamic imports alike), folded into folders (src/<folder>, runtime-quickjs).
// `bun test/support/import-graph.ts` prints the folder graph; test/architecture.test.ts checks it.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { REPO } from "./cli.ts";

export { REPO };

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

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

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
}

export function importGraph(): ImportGraph {
  const files = new Map<string, string[]>();
  const folders = new Map<string, Set<string>>();
  for (const file of [...sourceFiles(join(REPO, "src")), ...sourceFiles(join(REPO, "runtime-quickjs"))]) {
    const imports: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      // Packages, and data files such as the package manifest, are no layer.
      if (!specifier.startsWith(".") || specifier.endsWith(".json")) continue;
      const target = resolve(dirname(file), specifier);
      imports.push(target);
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)!.add(to);
    }
    files.set(file, imports);
  }
  return { files, folders };
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
  for (const [from, targets] of [...folders].sort(([a], [b]) => a.localeCompare(b))) console.log(`${from} -> ${[...targets].sort().join(", ")}`);
  console.log(`file cycles: ${cycles(files).length} · two-way folder pairs: ${twoWayPairs(folders).length} · upward imports: ${upwardImports(folders).length}`);
}
