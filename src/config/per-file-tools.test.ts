// Finding per-file tools by name: in the target's tools folder (subfolders, sidecars) and, for a
// name a dependency trailmap lends with `exports:`, in that trailmap's own tools folder.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ConfigError } from "../errors.ts";
import { exportedNames, resolvePerFileTools } from "./per-file-tools.ts";
import type { TargetConfig } from "./target-config.ts";
import { loadWorkspace } from "./workspace.ts";

const root = mkdtempSync(join(tmpdir(), "per-file-tools-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const TOOL = (name: string) =>
  `import { trailblaze } from "@trailblaze/scripting";\nexport const ${name} = trailblaze.tool(async () => "ok");\n`;

write("trails/config/trailblaze.yaml", "targets: [app]\n");
write(
  "trails/config/trailmaps/app/trailmap.yaml",
  "id: app\ndependencies: [lib]\ntarget:\n  display_name: App\n  tools: [app_hello]\n  platforms:\n    android:\n      app_ids: [com.example.app]\n",
);
write("trails/config/trailmaps/app/tools/nested/app_hello.ts", TOOL("app_hello"));
write("trails/config/trailmaps/lib/trailmap.yaml", "id: lib\nexports: [lib_reset]\n");
write("trails/config/trailmaps/lib/tools/lib_reset.ts", TOOL("lib_reset"));
write("trails/config/trailmaps/lib/tools/lib_note.yaml", "script: ./note.js\nname: lib_note\nruntime: subprocess\n");
write("trails/config/trailmaps/lib/tools/note.js", "export async function lib_note() { return 'noted'; }\n");

describe("resolvePerFileTools", () => {
  test("a target's own names come from its folder (subfolders too); an exported name from the lending trailmap's folder", async () => {
    const workspace = await loadWorkspace(join(root, "trails/config"), { cwd: root });
    const tools = resolvePerFileTools(workspace.targets.get("app")!, workspace.root, root);
    expect(tools.map(({ name, script, runtime }) => ({ name, script, runtime }))).toEqual([
      { name: "app_hello", script: join(root, "trails/config/trailmaps/app/tools/nested/app_hello.ts"), runtime: "inProcess" },
      { name: "lib_reset", script: join(root, "trails/config/trailmaps/lib/tools/lib_reset.ts"), runtime: "inProcess" },
    ]);
  });

  test("a name is not looked up in another trailmap's folder; the error names the folder it searched", async () => {
    const workspace = await loadWorkspace(join(root, "trails/config"), { cwd: root });
    const target = workspace.targets.get("app")!;
    const withNote = { ...target, tools: [...target.tools, { name: "lib_note", where: { file: "x.yaml", line: 3, col: 5 } }] };
    expect(() => resolvePerFileTools(withNote, workspace.root, root)).toThrow(ConfigError);
    expect(() => resolvePerFileTools(withNote, workspace.root, root)).toThrow(
      `x.yaml:3:5 tools: tool lib_note not found under ${join(root, "trails/config/trailmaps/app/tools")}`,
    );
  });

  test("a sidecar declares a tool of a script, with its runtime", async () => {
    const workspace = await loadWorkspace(join(root, "trails/config"), { cwd: root });
    const target = workspace.targets.get("app")!;
    const lent = {
      ...target,
      tools: [{ name: "lib_note", where: { file: "x.yaml", line: 3, col: 5 }, toolsDir: join(root, "trails/config/trailmaps/lib/tools") }],
    };
    expect(resolvePerFileTools(lent, workspace.root, root)).toMatchObject([
      {
        name: "lib_note",
        script: join(root, "trails/config/trailmaps/lib/tools/note.js"),
        runtime: "subprocess",
        sidecar: join(root, "trails/config/trailmaps/lib/tools/lib_note.yaml"),
      },
    ]);
  });
});

describe("exportedNames (es-module-lexer)", () => {
  test('a re-export is not a tool export: export { helper } from "./x" and export * are skipped', () => {
    expect(exportedNames(`export { helper } from "./x";\nexport * from "./y";\nexport * as ns from "./z";\n`)).toEqual([]);
  });

  test("every name of one declaration: export const a = trailblaze.tool(…), b = trailblaze.tool(…)", () => {
    const source = `import { trailblaze } from "@trailblaze/scripting";\nexport const a = trailblaze.tool(async () => "a"), b = trailblaze.tool(async () => "b");\n`;
    expect(exportedNames(source)).toEqual(["a", "b"]);
  });

  test("export const inside a template string, a string, a regex or a comment does not count", () => {
    const source = [
      "const help = `",
      "export const inTemplate = trailblaze.tool(async () => 1);",
      "`;",
      'const quoted = "export const inString = 1";',
      "const pattern = /export const inRegex = 1/;",
      "// export const inLineComment = trailblaze.tool(async () => 1);",
      "/*",
      "export const inBlockComment = trailblaze.tool(async () => 1);",
      "*/",
      "export const real = trailblaze.tool(async () => help + quoted + pattern.source);",
    ].join("\n");
    expect(exportedNames(source)).toEqual(["real"]);
  });

  test("export { a as b } gives b; export { c } gives c", () => {
    expect(exportedNames("const a = 1, c = 2;\nexport { a as b, c };\n")).toEqual(["b", "c"]);
  });

  test("export function f and export async function g are found", () => {
    expect(exportedNames("export function f() { return 1; }\nexport async function g() { return 2; }\n")).toEqual(["f", "g"]);
  });

  test("TypeScript: typed tools are found; types, interfaces, classes and export default are not tools", () => {
    const source = [
      `import { trailblaze } from "@trailblaze/scripting";`,
      "export interface Input { x: number }",
      "export type Output = { ok: boolean };",
      "export class Helper {}",
      'export const typed = trailblaze.tool<Input, Output>({ description: "d" }, async (i: Input): Promise<Output> => ({ ok: i.x > 1 }));',
      "export default typed;",
    ].join("\n");
    expect(exportedNames(source)).toEqual(["typed"]);
  });
});

describe("resolvePerFileTools reads exports with the lexer", () => {
  const dir = join(root, "lexed");
  write(
    "lexed/tools/one.ts",
    `import { trailblaze } from "@trailblaze/scripting";\nexport const one_a = trailblaze.tool(async () => "a"), one_b = trailblaze.tool(async () => "b");\n`,
  );
  // Re-exports one_a under its own name: not a second declaration of it.
  write("lexed/tools/index.ts", `// trailblaze tools, gathered\nexport { one_a } from "./one.ts";\n`);
  const target = (names: string[], toolsDir = join(dir, "tools")): TargetConfig => ({
    id: "lexed",
    mcpServers: [],
    tools: names.map((name, i) => ({ name, where: { file: "trailmap.yaml", line: 4 + i, col: 5 } })),
    toolsDir,
    platforms: {},
    file: join(dir, "trailmap.yaml"),
    where: { file: "trailmap.yaml", line: 1, col: 1 },
  });

  test("both names of one declaration resolve to their script; a re-export does not count twice", () => {
    const tools = resolvePerFileTools(target(["one_a", "one_b"]), dir, root);
    expect(tools.map(({ name, script }) => ({ name, script }))).toEqual([
      { name: "one_a", script: join(dir, "tools/one.ts") },
      { name: "one_b", script: join(dir, "tools/one.ts") },
    ]);
  });

  test("a script in the folder that does not parse is named with where the lexer stopped and what to do", () => {
    write("lexed/broken/tools/ok.ts", TOOL("ok_tool"));
    write("lexed/broken/tools/broken.ts", `import { trailblaze } from "@trailblaze/scripting";\nconst s = 'unterminated\n`);
    expect(() => resolvePerFileTools(target(["ok_tool"], join(dir, "broken/tools")), dir, root)).toThrow(
      "lexed/broken/tools/broken.ts:2:24: cannot read which tools broken.ts exports: it does not parse as a module; " +
        "fix its syntax (`bun build lexed/broken/tools/broken.ts` names the error)",
    );
  });
});
