// The SDK's protocol schemas a bundle does not use are dropped (pure-schemas-plugin.ts), the used
// ones still work, and a types.js of another shape is left as it is.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { markSchemasPure, pureSchemasBunPlugin, pureSchemasPlugin } from "./pure-schemas-plugin.ts";
import { SdkPatchLedger } from "./sdk-patches.ts";

// The ESM build, the one bundles use (require() resolves the CommonJS one beside it).
const TYPES = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/types.js")), "../esm/types.js");

/** esbuild's output for an entry that uses only CallToolRequestSchema, with or without the plugin. */
async function bundleOfOneSchema(withPlugin: boolean): Promise<string> {
  const result = await build({
    stdin: {
      contents: 'import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js"; globalThis.schema = CallToolRequestSchema;',
      resolveDir: import.meta.dir,
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
    plugins: withPlugin ? [pureSchemasPlugin(new SdkPatchLedger("on-device"))] : [],
  });
  return result.outputFiles[0]!.text;
}

describe("pureSchemasPlugin", () => {
  test("drops the schemas an entry does not use and keeps the ones it does, which still parse", async () => {
    const [plain, pure] = await Promise.all([bundleOfOneSchema(false), bundleOfOneSchema(true)]);
    expect(plain).toContain('"sampling/createMessage"');
    expect(pure).not.toContain('"sampling/createMessage"');
    expect(pure).toContain('"tools/call"');
    expect(pure.length).toBeLessThan(plain.length);
    const run = new Function(`${pure.replace(/^export\s*\{[^}]*\};?\s*$/m, "")}; return globalThis.schema;`) as () => {
      parse(value: unknown): unknown;
    };
    const schema = run();
    expect(schema.parse({ method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } })).toEqual({
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    });
    expect(() => schema.parse({ method: "tools/list" })).toThrow();
  });

  test("Bun's bundler (precompiled host servers) drops them too", async () => {
    const dir = mkdtempSync(join(import.meta.dir, ".pure-schemas-"));
    try {
      const entry = join(dir, "entry.ts");
      writeFileSync(
        entry,
        'import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";\nconsole.log(CallToolRequestSchema.parse({ method: "tools/call", params: { name: "echo" } }).params.name);\n',
      );
      const outputs = async (plugins: Bun.BunPlugin[]) => {
        const result = await Bun.build({ entrypoints: [entry], target: "bun", plugins });
        expect(result.success).toBe(true);
        return result.outputs[0]!.text();
      };
      const [plain, pure] = await Promise.all([outputs([]), outputs([pureSchemasBunPlugin(new SdkPatchLedger("host"))])]);
      expect(plain).toContain('"sampling/createMessage"');
      expect(pure).not.toContain('"sampling/createMessage"');
      const file = join(dir, "out.js");
      writeFileSync(file, pure);
      const run = Bun.spawnSync([process.execPath, file]);
      expect(run.stdout.toString()).toBe("echo\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("wraps every schema declaration of the SDK's types.js, not its constants or functions", () => {
    const text = readFileSync(TYPES, "utf8");
    const marked = markSchemasPure(text)!;
    expect(marked).toContain("export const CallToolRequestSchema = /* @__PURE__ */ (() => (");
    expect(marked).toContain("export const LATEST_PROTOCOL_VERSION = '");
    expect(marked).toContain("export const isJSONRPCRequest = (value) =>");
    expect(marked.match(/@__PURE__/g)!.length).toBeGreaterThan(140);
  });

  test("a declaration that does not end as tsc writes it leaves the file as it is", () => {
    expect(markSchemasPure("export const ASchema = z.object({\n    a: z.string()\n})\nexport const B = 1;\n")).toBeUndefined();
    expect(markSchemasPure("export const ASchema = z.object({\n    a: z.string()\n});\n")).toBe(
      "export const ASchema = /* @__PURE__ */ (() => (z.object({\n    a: z.string()\n})))();\n",
    );
  });
});
