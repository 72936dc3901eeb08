// Bundler plugins (esbuild for on-device bundles, Bun's for precompiled host servers) letting the
// bundler drop the MCP SDK's protocol schemas a server never uses. The SDK's types.js builds ~150
// zod schemas at its top level; to a bundler each is a call with possible side effects, so all are
// kept and built on every start. Each top-level `const X = <expression>;` becomes
// `const X = /* @__PURE__ */ (() => (<expression>))();`: evaluated exactly as before where X is
// used, removed with its whole expression where it is not. An echo server's bundle evaluates in
// QuickJS in ~45 ms instead of ~60 ms (BENCHMARKS.md, P5).
//
// The rewrite reads statements by layout (tsc's output: each top-level declaration starts at column
// 0 and its last line ends with `;`), and is kept only when the bundler's parser accepts the
// result; any other shape leaves the file untouched.

import { readFileSync } from "node:fs";
import type { Plugin } from "esbuild";
import { SDK_PATCHES, type SdkPatchLedger } from "./sdk-patches.ts";

/** The SDK's schema module. */
const TYPES_MODULE = SDK_PATCHES.pureSchemas.target;
/** A top-level declaration whose initializer is worth deferring: anything but a function or a plain literal. */
const DECLARATION = /^(export )?const ([A-Za-z_$][\w$]*) = (?!\(?[\w$, ]*\)? =>|'|"|\d|\[)/;
/** A line that starts the next top-level statement (or comment) after a declaration. */
const NEXT_STATEMENT = /^(export |const |let |var |function |class |import |\/\*|\/\/|$)/;

/** The text with each deferrable declaration wrapped in a pure IIFE; `undefined` when a statement does not end as expected. */
export function markSchemasPure(text: string): string | undefined {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = DECLARATION.exec(lines[i]!);
    if (!match) {
      out.push(lines[i]!);
      continue;
    }
    let end = i;
    while (end + 1 < lines.length && !NEXT_STATEMENT.test(lines[end + 1]!)) end++;
    const statement = lines.slice(i, end + 1);
    const last = statement.at(-1)!;
    if (!last.endsWith(";")) return undefined;
    const head = statement[0]!;
    const prefix = match[0];
    statement[0] = `${prefix}/* @__PURE__ */ (() => (${head.slice(prefix.length)}`;
    statement[statement.length - 1] = `${statement.at(-1)!.slice(0, -1)}))();`;
    out.push(...statement);
    i = end;
  }
  return out.join("\n");
}

/** Marks the schemas pure (esbuild's parser must accept the result), recording the patch in `ledger`. */
export function pureSchemasPlugin(ledger: SdkPatchLedger): Plugin {
  return {
    name: "trailblaze-pure-schemas",
    setup(build) {
      build.onLoad({ filter: TYPES_MODULE }, async (args) => {
        const text = readFileSync(args.path, "utf8");
        const marked = markSchemasPure(text);
        if (marked === undefined) return { contents: text, loader: "js" };
        try {
          await build.esbuild.transform(marked, { loader: "js", format: "esm" });
        } catch {
          return { contents: text, loader: "js" };
        }
        ledger.applied("pureSchemas");
        return { contents: marked, loader: "js" };
      });
    },
  };
}

/** The same for Bun's bundler (precompiled host servers), checked with Bun's own parser. */
export const pureSchemasBunPlugin = (ledger: SdkPatchLedger): Bun.BunPlugin => ({
  name: "trailblaze-pure-schemas",
  setup(build) {
    build.onLoad({ filter: TYPES_MODULE }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const marked = markSchemasPure(text);
      if (marked === undefined) return { contents: text, loader: "js" };
      try {
        new Bun.Transpiler({ loader: "js" }).scan(marked);
      } catch {
        return { contents: text, loader: "js" };
      }
      ledger.applied("pureSchemas");
      return { contents: marked, loader: "js" };
    });
  },
});
