import { describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import {
  aliasedSource,
  cycles,
  folderOf,
  importGraph,
  importsOutside,
  LAYERS,
  REPO,
  twoWayPairs,
  upwardImports,
} from "./support/import-graph.ts";

/** What the QuickJS runtime may use of src/: the transport contract it implements, the shared words and the errors. */
const RUNTIME_QUICKJS_MAY_IMPORT = ["src/transports/transport.ts", "src/core/", "src/errors.ts"];

describe("layers (ARCHITECTURE.md)", () => {
  const graph = importGraph();

  test("no import cycle between files", () => {
    expect(cycles(graph.files).map((cycle) => cycle.map((file) => relative(REPO, file)).join(" -> "))).toEqual([]);
  });

  test("no two folders import each other, and no folder imports a layer above its own", () => {
    expect(twoWayPairs(graph.folders)).toEqual([]);
    expect(upwardImports(graph.folders)).toEqual([]);
    expect(cycles(graph.folders)).toEqual([]);
  });

  test("runtime-quickjs imports of src/ are the transport contract, core and errors only", () => {
    expect(importsOutside(graph.files, "runtime-quickjs", RUNTIME_QUICKJS_MAY_IMPORT)).toEqual([]);
  });

  test("sources import each other by relative paths: no absolute path, alias or package name leads into them", () => {
    expect(graph.aliased).toEqual([]);
  });

  test("every folder has a layer", () => {
    const known = new Set(LAYERS.flat());
    const folders = new Set([...graph.files.keys()].map(folderOf));
    expect([...folders].filter((folder) => !known.has(folder))).toEqual([]);
  });

  test("the checks see a cycle, a forbidden import and an aliased one when there is one", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
    ]);
    expect(cycles(edges)).toEqual([["a", "b", "c", "a"]]);
    expect(
      twoWayPairs(
        new Map([
          ["run", new Set(["cli"])],
          ["cli", new Set(["run"])],
        ]),
      ),
    ).toEqual(["cli <-> run"]);
    expect(upwardImports(new Map([["core", new Set(["session"])]]))).toEqual(["core -> session"]);
    const from = join(REPO, "runtime-quickjs/sandbox.ts");
    const imports = ["src/session/session.ts", "src/core/secrets.ts", "src/transports/transport.ts", "src/transports/stdio/proc.ts"].map(
      (path) => join(REPO, path),
    );
    expect(importsOutside(new Map([[from, imports]]), "runtime-quickjs", RUNTIME_QUICKJS_MAY_IMPORT)).toEqual([
      "runtime-quickjs/sandbox.ts -> src/session/session.ts",
      "runtime-quickjs/sandbox.ts -> src/transports/stdio/proc.ts",
    ]);
    const file = join(REPO, "src/registry/tool-meta.ts");
    expect(
      [`${REPO}/src/errors.ts`, "@trailblaze/scripting", "@trailblaze/scripting/result", "trailblaze-ts/src/errors.ts"].map(
        (specifier) => aliasedSource(specifier, file) && relative(REPO, aliasedSource(specifier, file)!),
      ),
    ).toEqual(["src/errors.ts", "src/scripting", "src/scripting/result", "src/errors.ts"]);
    expect(
      ["zod", "node:fs", "typescript-api", "@modelcontextprotocol/sdk/types.js"].map((specifier) => aliasedSource(specifier, file)),
    ).toEqual([undefined, undefined, undefined, undefined]);
  });
});
