// esbuild plugin keeping zod small. `import { z } from "zod"` binds `z` to a namespace object that
// zod re-exports, which esbuild cannot tree-shake: every export stays, including `z.locales` and
// `z.core.locales` (~400 KB of translations). Two measures:
//  1. in the author's own files (not node_modules), `import { z } from "zod"` (or from
//     "@trailblaze/scripting", which re-exports it) is read as `import * as z from "zod"`, whose
//     property accesses (`z.string()`) esbuild does tree-shake;
//  2. where `z` is still used as a whole value, the "zod" and "zod/v4" entries resolve to generated
//     modules re-exporting the same bindings from the same files, with `locales` replaced by a
//     stub that names the direct import to use instead. The names they re-export come from a build
//     of zod's two namespaces (~150 ms, most of a first bundle in a fresh process), so they are kept
//     in the bundle cache's folder while zod stays as installed.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { writeAtomically } from "../core/cache-files.ts";
import { markUsed, sha256 } from "./build-cache.ts";

const SKIP = "trailblazeZodLeanSkip";
const NAMESPACE = "trailblaze-zod-lean";
const LOCALES_STUB = fileURLToPath(new URL("./stubs/zod-locales.ts", import.meta.url));

/** The runtime export names of zod's `v4/classic/external.js` and `v4/core/index.js`. */
interface ZodExports {
  external: string[];
  core: string[];
}

const exportsByRoot = new Map<string, Promise<ZodExports>>();

/** The export names of the zod v4 at `root`, once per process: from `cacheDir` when they are kept there for zod as it is now, else built. */
function zodExports(root: string, cacheDir: string | undefined): Promise<ZodExports> {
  let names = exportsByRoot.get(root);
  if (!names) {
    names = keptOrBuilt(root, cacheDir);
    exportsByRoot.set(root, names);
  }
  return names;
}

const namespaceFiles = (root: string) => ({ external: join(root, "v4/classic/external.js"), core: join(root, "v4/core/index.js") });

async function keptOrBuilt(root: string, cacheDir: string | undefined): Promise<ZodExports> {
  const files = namespaceFiles(root);
  // An install or update of zod rewrites these files (and its package.json holds the version).
  const stamp = [join(root, "package.json"), files.external, files.core]
    .map((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat ? `${stat.size}:${stat.mtimeMs}` : "-";
    })
    .join(" ");
  const kept = cacheDir === undefined ? undefined : join(cacheDir, `zod-exports-${sha256(root).slice(0, 16)}.json`);
  if (kept) {
    try {
      const entry = JSON.parse(readFileSync(kept, "utf8")) as Partial<ZodExports> & { root?: string; stamp?: string };
      if (entry.root === root && entry.stamp === stamp && isNames(entry.external) && isNames(entry.core)) {
        markUsed(kept);
        return { external: entry.external, core: entry.core };
      }
    } catch {
      // not kept yet, or unreadable: built below
    }
  }
  const names = await buildExports(files);
  if (kept) {
    try {
      writeAtomically(kept, JSON.stringify({ root, stamp, ...names }));
    } catch {
      // a cache that cannot be written is no error
    }
  }
  return names;
}

const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((name) => typeof name === "string");

/** Both namespaces' export names from one esbuild build (its metafile; nothing is executed or written). */
async function buildExports(files: Record<keyof ZodExports, string>): Promise<ZodExports> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: files,
    outdir: join(dirname(files.core), "trailblaze-zod-exports"),
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    minify: true,
    logLevel: "silent",
  });
  const names: ZodExports = { external: [], core: [] };
  for (const [output, { exports }] of Object.entries(result.metafile.outputs)) {
    const entry = basename(output, ".js");
    if (entry === "external" || entry === "core") names[entry] = exports;
  }
  return names;
}

/** The zod v4 package root above `file`, or undefined for another zod (e.g. v3) layout. */
function zod4Root(file: string): string | undefined {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (pkg.name !== "zod") continue;
    const major = Number(pkg.version?.split(".")[0]);
    const ok = major >= 4 && existsSync(join(dir, "v4/classic/external.js")) && existsSync(join(dir, "v4/core/index.js"));
    return ok ? dir : undefined;
  }
  return undefined;
}

function reexport(names: string[], from: string, except: string[]): string {
  const kept = names.filter((name) => !except.includes(name) && name !== "default");
  return `export { ${kept.join(", ")} } from ${JSON.stringify(from)};\n`;
}

async function moduleText(kind: string, root: string, cacheDir: string | undefined): Promise<string> {
  const { external, core } = namespaceFiles(root);
  const stub = `export { locales } from ${JSON.stringify(LOCALES_STUB)};\n`;
  switch (kind) {
    case "index":
      return `import * as z from "${NAMESPACE}:external:${root}";\nexport * from "${NAMESPACE}:external:${root}";\nexport { z, z as default };\n`;
    case "external":
      return (
        reexport((await zodExports(root, cacheDir)).external, external, ["locales", "core"]) +
        `export * as core from "${NAMESPACE}:core:${root}";\n` +
        stub
      );
    case "core":
      return reexport((await zodExports(root, cacheDir)).core, core, ["locales"]) + stub;
    default:
      throw new Error(`unknown zod-lean module ${kind}`);
  }
}

const ZOD_ENTRIES = new Set(["zod", "zod/v4", "zod/mini", "zod/v4-mini", "zod/v4/mini"]);
/** Packages whose `z` export is zod's own (`@trailblaze/scripting` re-exports it). */
const Z_REEXPORTS = new Set(["@trailblaze/scripting"]);
const NAMED_IMPORT = /^([ \t]*)import\s*\{([^}]*)\}\s*from\s*(["'])([^"'\n]+)\3[ \t]*;?/gm;
const LOADERS: Record<string, "ts" | "tsx" | "js" | "jsx"> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
};

/**
 * Rewrites `import { z, X as Y } from "zod"` to `import * as z from "zod"; import { X as Y } from "zod";`
 * (and `z` from "@trailblaze/scripting" to `import * as z from "zod"`), keeping the line count, so
 * positions in messages stay right. Undefined when nothing changes.
 */
export function rewriteZodImports(source: string): string | undefined {
  let changed = false;
  const out = source.replace(NAMED_IMPORT, (whole: string, indent: string, list: string, quote: string, from: string) => {
    if (!ZOD_ENTRIES.has(from) && !Z_REEXPORTS.has(from)) return whole;
    const items = list
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    const zItem = items.find((item) => /^z(\s+as\s+[\w$]+)?$/.test(item));
    if (!zItem) return whole;
    changed = true;
    const local = zItem.split(/\s+as\s+/)[1] ?? "z";
    const rest = items.filter((item) => item !== zItem);
    const spec = `${quote}${from}${quote}`;
    const zodSpec = Z_REEXPORTS.has(from) ? `${quote}zod${quote}` : spec;
    const named = rest.length > 0 ? ` import { ${rest.join(", ")} } from ${spec};` : "";
    const newlines = "\n".repeat(whole.split("\n").length - 1);
    return `${indent}import * as ${local} from ${zodSpec};${named}${newlines}`;
  });
  return changed ? out : undefined;
}

/** `cacheDir`: where zod's export names are kept for later processes (the bundle cache's folder); none, then only in the process. */
export function zodLeanPlugin(cacheDir?: string): Plugin {
  return {
    name: "trailblaze-zod-lean",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/, namespace: "file" }, (args) => {
        if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        const source = readFileSync(args.path, "utf8");
        const contents = source.includes("zod") || source.includes("@trailblaze/scripting") ? rewriteZodImports(source) : undefined;
        return contents === undefined ? undefined : { contents, loader: LOADERS[extname(args.path)] ?? "ts" };
      });
      build.onResolve({ filter: /^zod(?:\/v4)?$/ }, async (args) => {
        if (args.pluginData?.[SKIP]) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { [SKIP]: true },
        });
        if (found.errors.length > 0 || found.namespace !== "file") return undefined;
        const root = zod4Root(found.path);
        return root ? { path: `index:${root}`, namespace: NAMESPACE } : undefined;
      });
      build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(NAMESPACE.length + 1),
        namespace: NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const colon = args.path.indexOf(":");
        const root = args.path.slice(colon + 1);
        return { contents: await moduleText(args.path.slice(0, colon), root, cacheDir), loader: "js", resolveDir: root };
      });
    },
  };
}
