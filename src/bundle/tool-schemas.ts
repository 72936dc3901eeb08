// What a per-file tool's source says about it: the doc comment above `export const <name>` (its
// description) and, from the types of `trailblaze.tool<Input, Output>(…)`, JSON Schemas of its
// input and of its structured result (through ts-json-schema-generator, as upstream derives them;
// `@default`, `@minimum` … tags carry over). Deriving compiles the file (~2 s), so results are
// cached by the content of the file and of every local file it imports, named by their paths from the
// cache (a workspace moved with its `.cache/` keeps them).

import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
// Types only: the compiler API of the TypeScript that ts-json-schema-generator brings (tsconfig `paths`).
import type * as TS from "typescript-api";
import { writeAtomically } from "../core/cache-files.ts";
import { sha256 } from "./build-cache.ts";

interface DerivedTool {
  description?: string;
  inputSchema?: Record<string, unknown>;
  /**
   * The JSON Schema of `Output` in `trailblaze.tool<Input, Output>`, when it is an object type: an
   * MCP outputSchema describes `structuredContent`, which is always an object. Other results
   * (text, a list) get none.
   */
  outputSchema?: Record<string, unknown>;
  /** Why no input schema could be derived (then the tool needs `inputSchema` in its spec or sidecar). */
  problem?: string;
  /** Its `trailblaze.tool` spec says `requiresHost: true`: it runs as a host subprocess, never in QuickJS. */
  requiresHost?: true;
}

interface Declaration {
  description?: string;
  /** The text of `Input` in `trailblaze.tool<Input>(…)`, when given. */
  inputType?: string;
  /** The text of `Output` in `trailblaze.tool<Input, Output>(…)`, when given. */
  outputType?: string;
  /** The spec passed to `trailblaze.tool` sets `inputSchema` itself. */
  specSchema: boolean;
  /** The spec says `requiresHost: true`. */
  requiresHost: boolean;
}

const require = createRequire(import.meta.url);
const GENERATOR = "ts-json-schema-generator";

/**
 * The TypeScript compiler ts-json-schema-generator is built on (the project's own may be TS 7, which
 * has no JS API), resolved from this source file's place (import.meta.url is the source's in the
 * precompiled CLI too).
 */
function typescript(): typeof TS {
  return createRequire(require.resolve(GENERATOR))("typescript") as typeof TS;
}

function docOf(ts: typeof TS, node: TS.Node): string | undefined {
  const comments = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = comments
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
    .filter(Boolean)
    .at(-1);
  return text?.trim() || undefined;
}

function isToolCall(ts: typeof TS, node: TS.Expression | undefined): node is TS.CallExpression {
  if (!node || !ts.isCallExpression(node)) return false;
  const callee = node.expression;
  return (ts.isPropertyAccessExpression(callee) && callee.name.text === "tool") || (ts.isIdentifier(callee) && callee.text === "tool");
}

/** The doc comment, input type and spec of each exported tool of `source`, by export name. */
function declarations(ts: typeof TS, file: string, source: string): Map<string, Declaration> {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found = new Map<string, Declaration>();
  for (const statement of sourceFile.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      const description = docOf(ts, statement);
      found.set(statement.name.text, { ...(description ? { description } : {}), specSchema: false, requiresHost: false });
    }
    if (!ts.isVariableStatement(statement)) continue;
    const description = docOf(ts, statement);
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const call = isToolCall(ts, declaration.initializer) ? declaration.initializer : undefined;
      const spec = call?.arguments.length === 2 ? call.arguments[0] : undefined;
      const property = (name: string) =>
        spec && ts.isObjectLiteralExpression(spec)
          ? spec.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name)
          : undefined;
      const specSchema = property("inputSchema") !== undefined;
      const host = property("requiresHost");
      const requiresHost = host !== undefined && ts.isPropertyAssignment(host) && host.initializer.kind === ts.SyntaxKind.TrueKeyword;
      found.set(declaration.name.text, {
        ...(description ? { description } : {}),
        ...(call?.typeArguments?.[0] ? { inputType: call.typeArguments[0].getText(sourceFile) } : {}),
        ...(call?.typeArguments?.[1] ? { outputType: call.typeArguments[1].getText(sourceFile) } : {}),
        specSchema,
        requiresHost,
      });
    }
  }
  return found;
}

const EMPTY_INPUT = { type: "object", properties: {}, additionalProperties: false };

/** A tool file to derive from: its text and the types to describe, alias → type text. */
interface Probe {
  file: string;
  source: string;
  aliases: Map<string, string>;
}

/** The options ts-json-schema-generator compiles with when it is given no tsconfig. */
const compilerOptions = (ts: typeof TS): TS.CompilerOptions => ({
  noEmit: true,
  emitDecoratorMetadata: true,
  experimentalDecorators: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  strictNullChecks: false,
  skipLibCheck: true,
  skipDefaultLibCheck: true,
  esModuleInterop: true,
});

let host: TS.CompilerHost | undefined;
/** Parsed declaration files (TypeScript's lib, packages' types) by path and their file's stat: what every compile reads again. */
const declarationFiles = new Map<string, { stamp: string; file: TS.SourceFile }>();

/**
 * A compiler host that keeps each `.d.ts` file it parsed for the process's later compiles while the
 * file is unchanged (as TypeScript's language service shares them between programs): a second
 * derivation in a process (`trailblaze mcp`, a run over several workspaces) then parses only the
 * tool files. The tools' own files are read afresh each time.
 */
function compilerHost(ts: typeof TS): TS.CompilerHost {
  if (host) return host;
  const base = ts.createCompilerHost(compilerOptions(ts));
  host = {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      if (!fileName.endsWith(".d.ts")) return base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
      const stat = statSync(fileName, { throwIfNoEntry: false });
      const stamp = stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : "";
      const known = declarationFiles.get(fileName);
      if (known?.stamp === stamp) return known.file;
      const file = base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (file && stamp) declarationFiles.set(fileName, { stamp, file });
      return file;
    },
  };
  return host;
}

/**
 * JSON Schemas for every probe's aliases, from one TypeScript program over copies of the files
 * beside them that declare the aliases: the compile (~2 s) is paid once, however many tool files
 * need deriving. The copies live only while generating.
 */
async function schemasOf(probes: readonly Probe[]): Promise<Map<string, Record<string, unknown> | Error>> {
  // A literal specifier: the precompiled CLI (precompiled-cli.ts) imports it by its path in this
  // package, so it loads wherever the CLI's bundle is cached ($TRAILBLAZE_CLI_CACHE).
  const { createFormatter, createParser, DEFAULT_CONFIG, SchemaGenerator } = await import("ts-json-schema-generator");
  const ts = typescript();
  const out = new Map<string, Record<string, unknown> | Error>();
  const copies = probes.map((probe, i) => {
    const copy = join(dirname(probe.file), `.trailblaze-schema-${process.pid}-${i}-${basename(probe.file, extname(probe.file))}.ts`);
    const declared = [...probe.aliases].map(([alias, type]) => `export type ${alias} = ${type};`).join("\n");
    writeFileSync(copy, `${probe.source}\n${declared}\n`);
    return copy;
  });
  const aliases = probes.flatMap((probe) => [...probe.aliases.keys()]);
  try {
    const program = ts.createProgram(copies, compilerOptions(ts), compilerHost(ts));
    // The generator over our own program (what createGenerator's `tsProgram` does in later versions).
    const config = {
      ...DEFAULT_CONFIG,
      type: "*",
      skipTypeCheck: true,
      expose: "none",
      topRef: false,
      jsDoc: "extended",
      additionalProperties: true,
    } as const;
    const generator = new SchemaGenerator(program as never, createParser(program as never, config), createFormatter(config), config);
    for (const alias of aliases) {
      try {
        const { $schema: _schema, definitions, ...schema } = generator.createSchema(alias) as Record<string, unknown>;
        out.set(alias, definitions && Object.keys(definitions).length > 0 ? { ...schema, definitions } : schema);
      } catch (error) {
        out.set(alias, error instanceof Error ? error : new Error(String(error)));
      }
    }
  } catch (error) {
    for (const alias of aliases) out.set(alias, error instanceof Error ? error : new Error(String(error)));
  } finally {
    for (const copy of copies) rmSync(copy, { force: true });
  }
  return out;
}

// `from "./x"`, `import "./x"`, `import("./x")`: the relative imports of a file, read from its text.
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
const IMPORTABLE = ["", ".ts", ".tsx", ".mts", ".d.ts", "/index.ts", "/index.tsx"];

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/**
 * The text of `file` and of every local file it imports, directly or not, in a stable order, each
 * named by its path from `cacheDir`: what a derived schema can depend on, wherever the workspace
 * lies. Packages are left out (they change with the lockfile, not the tool).
 */
function sourcesOf(file: string, cacheDir: string): string[] {
  const seen = new Map<string, string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return;
    }
    seen.set(path, text);
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const base = resolve(dirname(path), specifier!.replace(/\.[cm]?js$/, ""));
      const found = IMPORTABLE.map((ending) => base + ending).find(isFile);
      if (found) visit(found);
    }
  };
  visit(file);
  return [...seen].map(([path, text]) => `${relative(cacheDir, path)}\0${text}`);
}

const INPUT = "__TrailblazeInput_";
const OUTPUT = "__TrailblazeOutput_";

/** One tool file to describe: the tools it exports, and which of them need an input schema derived. */
interface DeriveRequest {
  file: string;
  names: readonly string[];
  /** False when a sidecar already gives the tool's input schema. */
  wantSchema: (name: string) => boolean;
}

/**
 * Descriptions, input schemas and output schemas of the tools each request's file exports, by
 * file. Input schemas are derived only for tools whose spec sets none and when `wantSchema(name)`
 * says one is needed; output schemas whenever the output type is given. A `.js` file has no types,
 * so its tools get no derived schema. Files whose sources are unchanged come from the cache; the
 * rest are derived together, in one compile.
 */
export async function deriveTools(requests: readonly DeriveRequest[], cacheDir: string): Promise<Map<string, Map<string, DerivedTool>>> {
  const results = new Map<string, Map<string, DerivedTool>>();
  const pending: Array<{ probe: Probe; cacheFile: string; result: Map<string, DerivedTool> }> = [];
  let ts: typeof TS | undefined;
  for (const [index, { file, names, wantSchema }] of requests.entries()) {
    const typed = [".ts", ".mts", ".tsx"].includes(extname(file));
    const key = sha256(
      `4\0${(typed ? sourcesOf(file, cacheDir) : [readFileSync(file, "utf8")]).join("\0")}\0${names.join(",")}\0${typed}\0${names.map(wantSchema).join(",")}`,
    );
    const cacheFile = join(cacheDir, `${cacheStem(file, cacheDir)}${key.slice(0, 16)}.json`);
    const cached = readCached(cacheFile);
    if (cached) {
      results.set(file, cached);
      continue;
    }
    const source = readFileSync(file, "utf8");
    ts ??= typescript();
    const found = declarations(ts, file, source);
    const result = new Map<string, DerivedTool>();
    const aliases = new Map<string, string>();
    for (const name of names) {
      const declaration = found.get(name);
      const description = declaration?.description;
      result.set(name, { ...(description ? { description } : {}), ...(declaration?.requiresHost ? { requiresHost: true as const } : {}) });
      if (!typed || !declaration) continue;
      if (declaration.outputType !== undefined) aliases.set(`${OUTPUT}${index}_${name}`, declaration.outputType);
      if (declaration.specSchema || !wantSchema(name)) continue;
      if (declaration.inputType === undefined) result.set(name, { ...result.get(name), inputSchema: EMPTY_INPUT });
      else aliases.set(`${INPUT}${index}_${name}`, declaration.inputType);
    }
    results.set(file, result);
    pending.push({ probe: { file, source, aliases }, cacheFile, result });
  }
  const withTypes = pending.filter(({ probe }) => probe.aliases.size > 0);
  const schemas =
    withTypes.length > 0 ? await schemasOf(withTypes.map(({ probe }) => probe)) : new Map<string, Record<string, unknown> | Error>();
  for (const { probe, cacheFile, result } of pending) {
    for (const alias of probe.aliases.keys()) {
      const schema = schemas.get(alias)!;
      const output = alias.startsWith(OUTPUT);
      const name = alias.slice(alias.indexOf("_", (output ? OUTPUT : INPUT).length) + 1);
      if (output) {
        // An output type that is not an object, or cannot be described, leaves the result untyped.
        if (!(schema instanceof Error) && schema.type === "object") result.set(name, { ...result.get(name), outputSchema: schema });
        continue;
      }
      result.set(name, {
        ...result.get(name),
        ...(schema instanceof Error ? { problem: schema.message.split("\n")[0] } : { inputSchema: schema }),
      });
    }
    writeAtomically(cacheFile, JSON.stringify(Object.fromEntries(result)));
    removeSuperseded(cacheFile);
  }
  return results;
}

/**
 * What every cache file of one source file's name starts with: its name and a hash of its path from
 * the cache, so a workspace moved or copied elsewhere with its `.cache/` keeps its schemas.
 */
const cacheStem = (file: string, cacheDir: string) => `${basename(file, extname(file))}-${sha256(relative(cacheDir, file)).slice(0, 8)}-`;

/** Removes the entries of the same source file that `cacheFile` replaces (derived from earlier versions of it). */
function removeSuperseded(cacheFile: string): void {
  const dir = dirname(cacheFile);
  const name = basename(cacheFile);
  const stem = name.slice(0, name.length - "0123456789abcdef.json".length);
  for (const other of readdirSync(dir)) {
    if (other !== name && other.startsWith(stem) && other.endsWith(".json") && other.length === name.length)
      rmSync(join(dir, other), { force: true });
  }
}

function readCached(cacheFile: string): Map<string, DerivedTool> | undefined {
  if (!existsSync(cacheFile)) return undefined;
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, DerivedTool>));
  } catch {
    return undefined; // A damaged cache entry is derived again.
  }
}
