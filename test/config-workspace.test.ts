// Loading whole config folders: discovery, every file at once, duplicate ids, script paths.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, ConfigNotFoundError } from "../src/errors.ts";
import { findConfigDir, loadWorkspace, resolveScriptPath, resolveTargetServers, unknownToolsetRefs } from "../src/config/workspace.ts";

const ROOT = join(import.meta.dir, "..");
const FIXTURES = join(ROOT, "fixtures/config");

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("findConfigDir", () => {
  test("--config wins, then $TRAILBLAZE_CONFIG_DIR, then the nearest folder upward", async () => {
    const nested = join(FIXTURES, "nested");
    expect(await findConfigDir({ flag: "valid/trailblaze-config", env: "nested/trailblaze-config", cwd: FIXTURES })).toBe(
      join(FIXTURES, "valid/trailblaze-config"),
    );
    expect(await findConfigDir({ env: "valid/trailblaze-config", cwd: FIXTURES })).toBe(join(FIXTURES, "valid/trailblaze-config"));
    expect(await findConfigDir({ env: "", cwd: join(nested, "sub/deeper") })).toBe(join(nested, "trailblaze-config"));
  });

  test("a given folder that does not exist", async () => {
    const error = await rejection(findConfigDir({ flag: "nope", cwd: FIXTURES }));
    expect(error).toBeInstanceOf(ConfigNotFoundError);
    expect(error.message).toBe(
      `--config nope: ${join(FIXTURES, "nope")} does not exist; point it at a trailblaze-config/ folder (holding targets/ and toolsets/) or a trails/config/ folder (holding trailblaze.yaml)`,
    );
    expect((await rejection(findConfigDir({ env: "valid/tools/myapp/login.ts", cwd: FIXTURES }))).message).toBe(
      `TRAILBLAZE_CONFIG_DIR valid/tools/myapp/login.ts: ${join(FIXTURES, "valid/tools/myapp/login.ts")} is not a folder; ` +
        "point it at a trailblaze-config/ folder (holding targets/ and toolsets/) or a trails/config/ folder (holding trailblaze.yaml)",
    );
  });

  test("none found walking up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tb-config-"));
    try {
      const error = await rejection(findConfigDir({ cwd: dir }));
      expect(error.message).toBe(
        `no trailblaze-config/ folder or trails/config/trailblaze.yaml found from ${dir} upward; run \`trailblaze init\` here to make one, or pass --config DIR (or set TRAILBLAZE_CONFIG_DIR) for one elsewhere`,
      );
      expect((error as ConfigNotFoundError).exitCode).toBe(2);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe("loadWorkspace", () => {
  test("loads targets and toolsets (yaml and yml) with normalized names", async () => {
    const dir = join(FIXTURES, "valid/trailblaze-config");
    const workspace = await loadWorkspace(dir, { cwd: ROOT });
    expect(workspace.configDir).toBe(dir);
    expect([...workspace.toolsets.keys()]).toEqual(["core", "myapp_login"]);
    expect(workspace.warnings).toEqual([]);
    const target = workspace.targets.get("myapp")!;
    const shown = "fixtures/config/valid/trailblaze-config/targets/myapp.yaml";
    expect(target).toEqual({
      id: "myapp",
      displayName: "Example App",
      tools: [],
      mcpServers: [
        {
          kind: "script",
          script: "./tools/myapp/login.ts",
          bundle: "./tools/myapp/login.bundle.js",
          timeoutMs: 5000,
          index: 0,
          where: { file: shown, line: 4, col: 5 },
        },
        {
          kind: "command",
          command: "node",
          args: ["./server.js", "--port", "8080"],
          env: { API_BASE: "http://127.0.0.1:9", RETRIES: "3" },
          cwd: "./vendor",
          index: 1,
          where: { file: shown, line: 7, col: 5 },
        },
      ],
      platforms: {
        android: {
          appIds: ["com.example.myapp"],
          toolSets: ["myapp_login"],
          drivers: ["android-ondevice-accessibility"],
          where: { file: shown, line: 12, col: 12 },
        },
        ios: { appIds: ["com.example.myapp"], toolSets: ["myapp_login"], where: { file: shown, line: 13, col: 12 } },
        web: { appIds: [], toolSets: [], where: { file: shown, line: 14, col: 3 } },
      },
      file: join(dir, "targets/myapp.yaml"),
      where: { file: shown, line: 1, col: 5 },
    });
    expect(workspace.toolsets.get("myapp_login")).toMatchObject({
      platforms: ["ANDROID", "IOS"],
      drivers: ["android-ondevice-accessibility", "ios-host"],
      alwaysEnabled: false,
      tools: ["myapp_logInWithEmail"],
    });
    expect(workspace.toolsets.get("core")).toMatchObject({ description: "", alwaysEnabled: true, tools: [] });
  });

  test("a duplicate target id names both files", async () => {
    const error = await rejection(loadWorkspace(join(FIXTURES, "duplicate-id/trailblaze-config"), { cwd: ROOT }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'fixtures/config/duplicate-id/trailblaze-config/targets/b.yaml:2:5 id: duplicate target id "myapp": also defined in ' +
        "fixtures/config/duplicate-id/trailblaze-config/targets/a.yaml:1:5; target ids must be unique, rename one of them",
    );
  });

  test("problems of every file come in one error; id/file-name mismatches are warnings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tb-ws-"));
    try {
      await Bun.write(join(dir, "targets/shop.yaml"), "id: shop\ndisplay_nme: Shop\n");
      await Bun.write(join(dir, "toolsets/a.yaml"), "id: a\ntools: tapOn\n");
      await Bun.write(join(dir, "toolsets/notes.txt"), "not yaml, ignored\n");
      const error = (await rejection(loadWorkspace(dir, { cwd: dir }))) as ConfigError;
      expect(error.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.path}: ${p.message}`)).toEqual([
        'targets/shop.yaml:2:1 : unknown key "display_nme"; did you mean "display_name"?',
        'toolsets/a.yaml:2:8 tools: expected a list, got a string ("tapOn")',
      ]);
      await Bun.write(join(dir, "targets/shop.yaml"), "id: shop_app\nplatforms:\n  web: { tool_sets: [shop_web, a] }\n");
      await Bun.write(join(dir, "toolsets/a.yaml"), "id: a\ntools: [tapOn]\n");
      await Bun.write(join(dir, "toolsets/shop_web.yaml"), "id: shop_wbe\n");
      const workspace = await loadWorkspace(dir, { cwd: dir });
      expect(workspace.warnings.map((w) => `${w.file}:${w.line}:${w.col} ${w.path}: ${w.message}`)).toEqual([
        'targets/shop.yaml:1:5 id: id "shop_app" differs from the file name shop.yaml; name the file shop_app.yaml',
        'targets/shop.yaml:1:5 id: [TrailmapScopingCheck] target id "shop_app" does not match ^[a-z][a-zA-Z0-9]*$: ids are one lowerCamelCase word (no "_" or "-") so that <targetId>_<localName> tool names split at their first underscore (advisory)',
        'toolsets/shop_web.yaml:1:5 id: id "shop_wbe" differs from the file name shop_web.yaml; name the file shop_wbe.yaml',
      ]);
      const refs = unknownToolsetRefs(workspace.targets.values(), new Set(workspace.toolsets.keys()));
      expect(refs.map((w) => `${w.file}:${w.line}:${w.col} ${w.path}: ${w.message}`)).toEqual([
        'targets/shop.yaml:3:8 platforms.web.tool_sets: toolset "shop_web" is not defined in toolsets/, so it enables nothing (no toolset file or tool _meta defines it); did you mean "shop_wbe"?',
      ]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test("a config folder that does not exist", async () => {
    const error = await rejection(loadWorkspace(join(FIXTURES, "nope")));
    expect(error.message).toBe(`config folder ${join(FIXTURES, "nope")} does not exist or is not a folder`);
  });
});

describe("script paths", () => {
  test("resolve against the workspace root; absolute paths pass through", async () => {
    const base = join(FIXTURES, "valid");
    const target = (await loadWorkspace(join(base, "trailblaze-config"), { cwd: ROOT })).targets.get("myapp")!;
    expect(resolveTargetServers(target, base)).toEqual([
      {
        kind: "script",
        script: join(base, "tools/myapp/login.ts"),
        bundle: join(base, "tools/myapp/login.bundle.js"),
        display: "tools/myapp/login.ts",
        origin: { where: target.mcpServers[0]!.where, index: 0 },
        timeoutMs: 5000,
      },
      {
        kind: "command",
        command: "node",
        args: ["./server.js", "--port", "8080"],
        env: { API_BASE: "http://127.0.0.1:9", RETRIES: "3" },
        cwd: join(base, "vendor"),
        display: "node ./server.js --port 8080",
        origin: { where: target.mcpServers[1]!.where, index: 1 },
      },
    ]);
    const entry = target.mcpServers[0]!;
    if (entry.kind !== "script") throw new Error("fixture changed");
    expect(resolveScriptPath(entry, base)).toBe(join(base, "tools/myapp/login.ts"));
    expect(resolveScriptPath({ ...entry, script: join(base, "tools/myapp/login.ts") }, "/elsewhere")).toBe(
      join(base, "tools/myapp/login.ts"),
    );
  });

  test("every missing file of a target is reported at once, located at its entry", async () => {
    const base = join(FIXTURES, "missing-script");
    const target = (await loadWorkspace(join(base, "trailblaze-config"), { cwd: ROOT })).targets.get("myapp")!;
    const file = "fixtures/config/missing-script/trailblaze-config/targets/myapp.yaml";
    const how = `(resolved against ${base}; relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)`;
    let error: unknown;
    try {
      resolveTargetServers(target, base);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      "4 configuration problems:\n" +
        `  ${file}:3:5 mcp_servers[0].script: file ./tools/login.ts not found ${how}\n` +
        `  ${file}:4:5 mcp_servers[1].script: file ./tools/signup.ts not found ${how}\n` +
        `  ${file}:4:5 mcp_servers[1].bundle: file /nonexistent/signup.bundle.js not found\n` +
        `  ${file}:6:5 mcp_servers[2].cwd: folder ./vendor not found ${how}`,
    );
    const first = target.mcpServers[0]!;
    if (first.kind !== "script") throw new Error("fixture changed");
    expect(() => resolveScriptPath(first, base)).toThrow(`${file}:3:5 mcp_servers[0].script: file ./tools/login.ts not found ${how}`);
  });

  test("a folder where a file is expected", async () => {
    const base = join(FIXTURES, "valid");
    const target = (await loadWorkspace(join(base, "trailblaze-config"), { cwd: ROOT })).targets.get("myapp")!;
    const entry = target.mcpServers[0]!;
    if (entry.kind !== "script") throw new Error("fixture changed");
    expect(() => resolveScriptPath({ ...entry, script: "./tools" }, base)).toThrow(
      `mcp_servers[0].script: ./tools is not a file (resolved against ${base}; relative paths resolve against the workspace root, the folder holding trailblaze-config/ or trails/)`,
    );
  });
});
