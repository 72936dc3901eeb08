// The bytecode form of a precompiled host server that a process has started often (host-bundle.ts,
// BYTECODE_AFTER_STARTS). Bun starts a script from bytecode it compiled beforehand
// (`Bun.build({ bytecode: true })`) without parsing it: 0–10 ms less per server start on a 2-core
// VM, for ~550 ms of CPU to compile (BENCHMARKS.md). Bun compiles only CommonJS that way, and an MCP
// server's top level awaits (`await server.connect(...)`), so the ES module Bun bundled is turned
// into one CommonJS script first:
//  - its first line, Bun's `// @bun` marker, becomes the module's static imports (of Node builtins:
//    everything else is bundled) and the opening of an async function;
//  - each import statement elsewhere is blanked out with spaces, so every other line and column
//    stays where the ES module's source map says it is;
//  - the function is called at the end, so the top level runs as before, awaits included.
// Bun then compiles that script to bytecode, and the new source map is traced through the old one,
// so stack traces still name the author's file:line:col. Anything this cannot express faithfully
// (exports, `import.meta`, another first line) keeps the ES module, as does a failed build.
import remapping, { type EncodedSourceMap } from "@jridgewell/remapping";
import { init, parse } from "es-module-lexer";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { writeAtomically } from "../core/cache-files.ts";

const BUN_MARKER = "// @bun";
const TRAILING_COMMENTS = /(?:\n\/\/# (?:debugId|sourceMappingURL)=[^\n]*)+\n?$/;

/**
 * Compiles `esmFile` (Bun's ESM output, with its linked `.map`) to bytecode: writes `file`,
 * `<file>.jsc` and `<file>.map` and returns `file`, or returns undefined when the module cannot be
 * expressed as such a script or any step fails (nothing is written at `file` then).
 */
export async function bytecodeBundle(esmFile: string, file: string): Promise<string | undefined> {
  const script = await asScript(readFileSync(esmFile, "utf8"));
  if (script === undefined) return undefined;
  // Beside the ES module, in a folder of this build's own: another process may compile the same one.
  const work = join(dirname(esmFile), `bytecode.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const outdir = dirname(file);
  mkdirSync(work, { recursive: true });
  try {
    const input = join(work, basename(file));
    writeFileSync(input, script);
    // Built under the final file name, so the script's own sourceMappingURL comment (part of what
    // the bytecode was compiled from) names the final map.
    const built = join(work, "out");
    const result = await Bun.build({
      entrypoints: [input],
      target: "bun",
      format: "cjs",
      bytecode: true,
      sourcemap: "linked",
      outdir: built,
      throw: false,
    });
    const output = (suffix: string) => result.outputs.find((artifact) => artifact.path.endsWith(suffix));
    const [js, jsc, map] = [output(".js"), output(".jsc"), output(".map")];
    if (!result.success || !js || !jsc || !map) return undefined;

    const authorMap = JSON.parse(readFileSync(`${esmFile}.map`, "utf8")) as EncodedSourceMap;
    const traced = remapping(readFileSync(map.path, "utf8"), (source) =>
      resolve(built, source) === input ? withAbsoluteSources(authorMap, dirname(esmFile)) : null,
    );
    traced.sources = traced.sources.map((source) => (source === null ? source : relative(outdir, resolve(outdir, source))));
    traced.file = basename(file);
    mkdirSync(outdir, { recursive: true });
    // The map first, so the script never points at a missing map; the bytecode before the script
    // that names it. Each replaces what is there (a link included) rather than writing through it.
    writeAtomically(`${file}.map`, JSON.stringify(traced));
    renameSync(jsc.path, `${file}.jsc`);
    renameSync(js.path, file);
    return file;
  } catch {
    // A faster start is all this adds: whatever goes wrong, the ES module still runs.
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The module as one script (see the top of this file), or undefined when that would change what it does. */
async function asScript(esm: string): Promise<string | undefined> {
  const firstLine = esm.indexOf("\n");
  if (firstLine < 0 || esm.slice(0, firstLine) !== BUN_MARKER) return undefined;
  await init();
  let imports, exports;
  try {
    [imports, exports] = parse(esm);
  } catch {
    return undefined;
  }
  if (exports.length > 0) return undefined;
  const header: string[] = [];
  const body: string[] = [];
  let copied = firstLine;
  for (const entry of imports) {
    if (entry.type === "dynamic") continue;
    if (entry.type !== "static" || entry.importStart < copied) return undefined;
    const statement = esm.slice(entry.importStart, entry.importEnd);
    header.push(`${statement};`);
    body.push(esm.slice(copied, entry.importStart), statement.replace(/[^\n]/g, " "));
    copied = entry.importEnd;
  }
  body.push(esm.slice(copied));
  return `${header.join("")}(async()=>{${body.join("").replace(TRAILING_COMMENTS, "\n")}})();\n`;
}

function withAbsoluteSources(map: EncodedSourceMap, dir: string): EncodedSourceMap {
  const root = resolve(dir, map.sourceRoot ?? "");
  return { ...map, sourceRoot: undefined, sources: map.sources.map((source) => (source === null ? null : resolve(root, source))) };
}
