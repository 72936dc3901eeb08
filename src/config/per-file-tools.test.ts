// Finding per-file tools by name: in the target's tools folder (subfolders, sidecars) and, for a
// name a dependency trailmap lends with `exports:`, in that trailmap's own tools folder.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ConfigError } from "../errors.ts";
import { resolvePerFileTools } from "./per-file-tools.ts";
import { loadWorkspace } from "./workspace.ts";

const root = mkdtempSync(join(tmpdir(), "per-file-tools-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const TOOL = (name: string) => `import { trailblaze } from "@trailblaze/scripting";\nexport const ${name} = trailblaze.tool(async () => "ok");\n`;

write("trails/config/trailblaze.yaml", "targets: [app]\n");
write("trails/config/trailmaps/app/trailmap.yaml", "id: app\ndependencies: [lib]\ntarget:\n  display_name: App\n  tools: [app_hello]\n  platforms:\n    android:\n      app_ids: [com.example.app]\n");
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
    expect(() => resolvePerFileTools(withNote, workspace.root, root)).toThrow(`x.yaml:3:5 tools: tool lib_note not found under ${join(root, "trails/config/trailmaps/app/tools")}`);
  });

  test("a sidecar declares a tool of a script, with its runtime", async () => {
    const workspace = await loadWorkspace(join(root, "trails/config"), { cwd: root });
    const target = workspace.targets.get("app")!;
    const lent = { ...target, tools: [{ name: "lib_note", where: { file: "x.yaml", line: 3, col: 5 }, toolsDir: join(root, "trails/config/trailmaps/lib/tools") }] };
    expect(resolvePerFileTools(lent, workspace.root, root)).toMatchObject([
      { name: "lib_note", script: join(root, "trails/config/trailmaps/lib/tools/note.js"), runtime: "subprocess", sidecar: join(root, "trails/config/trailmaps/lib/tools/lib_note.yaml") },
    ]);
  });
});
