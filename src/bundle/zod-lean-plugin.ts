// esbuild plugin keeping zod small. `import { z } from "zod"` binds `z` to a namespace object that
// zod re-exports, which esbuild cannot tree-shake: every export stays, including `z.locales` and
// `z.core.locales` (~400 KB of translations). Two measures:
//  1. in the author's own files (not node_modules), `import { z } from "zod"` (or from
//     "@trailblaze/scripting", which re-exports it) is read as `import * as z from "zod"`, whose
//     property accesses (`z.string()`) esbuild does tree-shake;
//  2. where `z` is still used as a whole value, the "zod" and "zod/v4" entries resolve to generated
//     modules re-exporting the same bindings from the same files, with `locales` replaced by a
//     stub that names the direct import to use instead.
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";

const SKIP = "trailblazeZodLeanSkip";
const NAMESPACE = "trailblaze-zod-lean";
const LOCALES_STUB = fileURLToPath(new URL("./stubs/zod-locales.ts", import.meta.url));

const exportNames = new Map<string, Promise<string[]>>();

/** The runtime export names of one module (via esbuild's metafile; nothing is executed). */
function namesOf(file: string): Promise<string[]> {
  let names = exportNames.get(file);
  if (!names) {
    names = import("esbuild")
      .then((esbuild) => esbuild.build({ entryPoints: [file], bundle: true, write: false, metafile: true, format: "esm", platform: "neutral", logLevel: "silent" }))
      .then((result) => Object.values(result.metafile.outputs).flatMap((output) => output.exports));
    exportNames.set(file, names);
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

async function moduleText(kind: string, root: string): Promise<string> {
  const external = join(root, "v4/classic/external.js");
  const core = join(root, "v4/core/index.js");
  const stub = `export { locales } from ${JSON.stringify(LOCALES_STUB)};\n`;
  switch (kind) {
    case "index":
      return `import * as z from "${NAMESPACE}:external:${root}";\nexport * from "${NAMESPACE}:external:${root}";\nexport { z, z as default };\n`;
    case "external":
      return reexport(await namesOf(external), external, ["locales", "core"]) + `export * as core from "${NAMESPACE}:core:${root}";\n` + stub;
    case "core":
      return reexport(await namesOf(core), core, ["locales"]) + stub;
    default:
      throw new Error(`unknown zod-lean module ${kind}`);
  }
}

const ZOD_ENTRIES = new Set(["zod", "zod/v4", "zod/mini", "zod/v4-mini", "zod/v4/mini"]);
/** Packages whose `z` export is zod's own (`@trailblaze/scripting` re-exports it). */
const Z_REEXPORTS = new Set(["@trailblaze/scripting"]);
const NAMED_IMPORT = /^([ \t]*)import\s*\{([^}]*)\}\s*from\s*(["'])([^"'\n]+)\3[ \t]*;?/gm;
const LOADERS: Record<string, "ts" | "tsx" | "js" | "jsx"> = {
  ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx",
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
    const items = list.split(",").map((item) => item.trim()).filter(Boolean);
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

export function zodLeanPlugin(): Plugin {
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
        return { contents: await moduleText(args.path.slice(0, colon), root), loader: "js", resolveDir: root };
      });
    },
  };
}
