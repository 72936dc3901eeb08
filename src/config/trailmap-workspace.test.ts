// Upstream's layout (trails/config/trailblaze.yaml + trailmaps/<id>/trailmap.yaml): finding it,
// the targets it yields (dependencies, defaults, exports, per-platform tools, excluded_tools),
// and the exact message of every mistake.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ConfigError } from "../errors.ts";
import { findConfigDir } from "./config-dir.ts";
import { loadWorkspace } from "./workspace.ts";

const REPO = join(import.meta.dir, "../..");
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A workspace root holding `files` (paths relative to it). */
function workspace(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "tb-trailmaps-")));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const load = (root: string) => loadWorkspace(join(root, "trails/config"), { cwd: root });

async function problems(root: string): Promise<string> {
  try {
    await load(root);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("loaded without problems");
}

const SHOP = "id: shop\ntarget:\n  display_name: Shop\n  platforms:\n    android: { app_ids: [com.example.shop] }\n";

describe("finding upstream's layout", () => {
  test("walking up from any subfolder finds trails/config/trailblaze.yaml; the root is the folder holding trails/", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [shop]\n",
      "trails/config/trailmaps/shop/trailmap.yaml": SHOP,
      "trails/login/x.trail.yaml": "",
    });
    const configDir = join(root, "trails/config");
    expect(await findConfigDir({ cwd: join(root, "trails/login") })).toBe(configDir);
    expect(await findConfigDir({ cwd: join(root, "trails/config/trailmaps/shop") })).toBe(configDir);
    const loaded = await load(root);
    expect({ layout: loaded.layout, root: loaded.root, configDir: loaded.configDir, targets: [...loaded.targets.keys()] }).toEqual({
      layout: "trails-config",
      root,
      configDir,
      targets: ["shop"],
    });
  });

  test("--config and $TRAILBLAZE_CONFIG_DIR take trails/config, its trailblaze.yaml, or the workspace root", async () => {
    const root = workspace({ "trails/config/trailblaze.yaml": "", "elsewhere/.keep": "" });
    const configDir = join(root, "trails/config");
    const cwd = join(root, "elsewhere");
    expect(await findConfigDir({ flag: "../trails/config", cwd })).toBe(configDir);
    expect(await findConfigDir({ flag: "../trails/config/trailblaze.yaml", cwd })).toBe(configDir);
    expect(await findConfigDir({ env: "..", cwd })).toBe(configDir);
  });

  test("at the same level trailblaze-config/ wins, and the workspace warns that trailblaze.yaml is not loaded", async () => {
    const root = workspace({
      "trailblaze-config/targets/app.yaml": "id: app\n",
      "trails/config/trailblaze.yaml": "targets: [shop]\n",
      "sub/.keep": "",
    });
    const configDir = await findConfigDir({ cwd: join(root, "sub") });
    expect(configDir).toBe(join(root, "trailblaze-config"));
    const loaded = await loadWorkspace(configDir, { cwd: root });
    expect({ layout: loaded.layout, root: loaded.root, targets: [...loaded.targets.keys()] }).toEqual({
      layout: "trailblaze-config",
      root,
      targets: ["app"],
    });
    expect(loaded.warnings).toEqual([
      {
        file: "trails/config/trailblaze.yaml",
        line: 1,
        col: 1,
        path: "",
        message:
          "not loaded: trailblaze-config/ at the same level is used instead (trailblaze-config/ wins over trails/config/); pass --config trails/config to load this one",
      },
    ]);
  });

  test("the nearest config folder wins over one further up, whatever its layout", async () => {
    const root = workspace({ "trailblaze-config/.keep": "", "inner/trails/config/trailblaze.yaml": "", "inner/trails/deep/.keep": "" });
    expect(await findConfigDir({ cwd: join(root, "inner/trails/deep") })).toBe(join(root, "inner/trails/config"));
    expect(await findConfigDir({ cwd: root })).toBe(join(root, "trailblaze-config"));
  });
});

describe("targets from trailmaps", () => {
  test("tools from target.tools, platform tools: and dependencies' exports; defaults nearest-first; compose stands in for web", async () => {
    const root = join(REPO, "fixtures/config/upstream-tools");
    const maps = join(root, "trails/config/trailmaps");
    const loaded = await loadWorkspace(join(root, "trails/config"), { cwd: root });
    const shown = "trails/config/trailmaps/shop/trailmap.yaml";
    const at = (line: number, col: number, file = shown) => ({ file, line, col });
    const payments = "trails/config/trailmaps/payments/trailmap.yaml";
    expect(loaded.warnings).toEqual([]);
    expect([...loaded.targets.keys()]).toEqual(["shop"]);
    expect(loaded.targets.get("shop")).toEqual({
      id: "shop",
      displayName: "Shop",
      mcpServers: [{ kind: "script", script: "./servers/shop.ts", index: 0, where: at(10, 7) }],
      tools: [
        { name: "shop_openCart", where: at(7, 7) },
        { name: "shop_applyCoupon", where: at(8, 7) },
        { name: "shop_android_launch", where: at(14, 15) },
        { name: "base_ios_reset", where: at(8, 13, "trails/config/trailmaps/base/trailmap.yaml"), toolsDir: join(maps, "base/tools") },
        { name: "payments_pay", where: at(3, 11, payments), toolsDir: join(maps, "payments/tools") },
      ],
      toolsDir: join(maps, "shop/tools"),
      platforms: {
        android: {
          appIds: ["com.example.shop"],
          toolSets: ["payments_core"],
          drivers: ["android-ondevice-instrumentation"],
          excludedTools: ["tapOnPoint"],
          excludedToolWheres: [at(7, 22, payments)],
          where: at(13, 7),
        },
        ios: { appIds: ["com.example.shop"], toolSets: ["base_core"], where: at(16, 7) },
        web: { appIds: [], toolSets: ["shop_compose"], drivers: ["compose"], where: at(18, 7) },
      },
      file: join(maps, "shop/trailmap.yaml"),
      where: at(1, 5),
      trailmap: "shop",
      dependencies: ["trailblaze", "payments", "base"],
    });
  });

  test("without targets: every target trailmap under trailmaps/ is one (library trailmaps are not)", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "# comments only\n",
      "trails/config/trailmaps/shop/trailmap.yaml": SHOP,
      "trails/config/trailmaps/lib/trailmap.yaml": "id: lib\ndefaults:\n  android: { tool_sets: [core] }\n",
      "trails/config/trailmaps/admin/trailmap.yaml": "id: admin\ntarget:\n  id: backoffice\n  display_name: Admin\n",
    });
    const loaded = await load(root);
    expect([...loaded.targets.keys()]).toEqual(["backoffice", "shop"]);
    expect(loaded.targets.get("backoffice")).toMatchObject({ trailmap: "admin", where: { line: 3, col: 7 } });
  });

  test("the nearest dependency's defaults win field by field, the later-declared at equal depth; lists are replaced, not joined", async () => {
    const lib = (id: string, body: string) => `id: ${id}\n${body}`;
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [shop]\n",
      "trails/config/trailmaps/shop/trailmap.yaml":
        "id: shop\ndependencies: [a, b]\ntarget:\n  display_name: Shop\n  platforms:\n    android: { tool_sets: [own] }\n    ios: {}\n",
      "trails/config/trailmaps/a/trailmap.yaml": lib("a", "dependencies: [deep]\ndefaults:\n  ios: { tool_sets: [from_a] }\n"),
      "trails/config/trailmaps/b/trailmap.yaml": lib(
        "b",
        "defaults:\n  ios: { tool_sets: [from_b] }\n  android: { app_ids: [com.b], tool_sets: [from_b] }\n",
      ),
      "trails/config/trailmaps/deep/trailmap.yaml": lib(
        "deep",
        "defaults:\n  ios: { app_ids: [com.deep], tool_sets: [from_deep] }\n  web: { tool_sets: [w] }\n",
      ),
    });
    const shop = (await load(root)).targets.get("shop")!;
    expect(shop.platforms.android).toMatchObject({ appIds: ["com.b"], toolSets: ["own"] });
    expect(shop.platforms.ios).toMatchObject({ appIds: ["com.deep"], toolSets: ["from_b"] });
    expect(shop.platforms.web).toBeUndefined(); // defaults fill declared platforms only
    expect(shop.dependencies).toEqual(["a", "b", "deep"]);
  });

  test("base_url: a target's own, else the nearest dependency's default, becomes the platform's baseUrls", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [site, other]\n",
      "trails/config/trailmaps/site/trailmap.yaml":
        "id: site\ndependencies: [kit]\ntarget:\n  display_name: Site\n  platforms:\n    web: { base_url: https://site.example.test/ }\n",
      "trails/config/trailmaps/other/trailmap.yaml":
        "id: other\ndependencies: [kit]\ntarget:\n  display_name: Other\n  platforms:\n    web: {}\n",
      "trails/config/trailmaps/kit/trailmap.yaml": "id: kit\ndefaults:\n  web: { base_url: https://kit.example.test/ }\n",
    });
    const { targets } = await load(root);
    expect(targets.get("site")!.platforms.web?.baseUrls).toEqual(["https://site.example.test/"]);
    expect(targets.get("other")!.platforms.web?.baseUrls).toEqual(["https://kit.example.test/"]);
  });

  test("allowed_origins: a target's own, else the nearest dependency's default; an entry that is not an origin is located", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [site, other]\n",
      "trails/config/trailmaps/site/trailmap.yaml":
        "id: site\ndependencies: [kit]\ntarget:\n  display_name: Site\n  platforms:\n    web: { allowed_origins: [https://SSO.example.test/, myapp://] }\n",
      "trails/config/trailmaps/other/trailmap.yaml":
        "id: other\ndependencies: [kit]\ntarget:\n  display_name: Other\n  platforms:\n    web: {}\n",
      "trails/config/trailmaps/kit/trailmap.yaml": "id: kit\ndefaults:\n  web: { allowed_origins: [https://kit.example.test] }\n",
    });
    const { targets } = await load(root);
    expect(targets.get("site")!.platforms.web?.allowedOrigins).toEqual(["https://sso.example.test", "myapp:"]);
    expect(targets.get("other")!.platforms.web?.allowedOrigins).toEqual(["https://kit.example.test"]);

    const bad = workspace({
      "trails/config/trailblaze.yaml": "targets: [site]\n",
      "trails/config/trailmaps/site/trailmap.yaml":
        "id: site\ntarget:\n  display_name: Site\n  platforms:\n    web:\n      allowed_origins:\n        - https://sso.example.test/login\n        - file:///home\n",
    });
    const message = await problems(bad);
    expect(message).toContain(
      'trailmaps/site/trailmap.yaml:7:11 target.platforms.web.allowed_origins[0]: "https://sso.example.test/login" has more than an origin: write https://sso.example.test',
    );
    expect(message).toContain(
      'trailmaps/site/trailmap.yaml:8:11 target.platforms.web.allowed_origins[1]: "file:///home": file: URLs are never opened',
    );
  });

  test("a library trailmap's top-level platforms: tool_sets join its dependents' own, on declared platforms, once each", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [shop]\n",
      "trails/config/trailmaps/shop/trailmap.yaml":
        "id: shop\ndependencies: [mobile, kit]\ntarget:\n  display_name: Shop\n  platforms:\n    android: { tool_sets: [own, mobile_primitives] }\n    ios: {}\n",
      "trails/config/trailmaps/mobile/trailmap.yaml":
        "id: mobile\nplatforms:\n  android: { tool_sets: [mobile_primitives, android_extras] }\n  ios:\n    tool_sets: [mobile_primitives]\n  web: { tool_sets: [web_only] }\n",
      "trails/config/trailmaps/kit/trailmap.yaml": "id: kit\ndefaults:\n  ios: { tool_sets: [kit_defaults] }\n",
    });
    const shop = (await load(root)).targets.get("shop")!;
    expect(shop.platforms.android?.toolSets).toEqual(["own", "mobile_primitives", "android_extras"]);
    expect(shop.platforms.ios?.toolSets).toEqual(["kit_defaults", "mobile_primitives"]);
    expect(shop.platforms.web).toBeUndefined();
  });

  test("toolsets: trails/config/toolsets/, each loaded trailmap's toolsets/ and toolsets: files, trailblaze.yaml inline and ref:", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml": "targets: [shop]\ntoolsets:\n  - id: inline_set\n    tools: [a]\n  - ref: shared/ref_set.yaml\n",
      "trails/config/shared/ref_set.yaml": "id: ref_set\n",
      "trails/config/toolsets/flat_set.yaml": "id: flat_set\n",
      "trails/config/trailmaps/shop/trailmap.yaml": `${SHOP}dependencies: [lib]\ntoolsets: [extra/listed.yaml]\n`,
      "trails/config/trailmaps/shop/extra/listed.yaml": "id: listed_set\n",
      "trails/config/trailmaps/lib/trailmap.yaml": "id: lib\n",
      "trails/config/trailmaps/lib/toolsets/lib_set.yaml": "id: lib_set\n",
      "trails/config/trailmaps/unused/toolsets/unused_set.yaml": "id: unused_set\n",
    });
    const loaded = await load(root);
    expect([...loaded.toolsets.keys()]).toEqual(["flat_set", "inline_set", "ref_set", "listed_set", "lib_set"]);
    expect(loaded.toolsets.get("inline_set")).toMatchObject({
      tools: ["a"],
      file: join(root, "trails/config/trailblaze.yaml"),
      where: { line: 3, col: 9 },
    });
  });

  test("defaults.target picks the target when nothing names one; llm: and providers: are accepted; tools: entries are warned about", async () => {
    const root = workspace({
      "trails/config/trailblaze.yaml":
        "targets: [shop]\ndefaults:\n  target: shop\n  llm: openai/gpt-4.1\n  max-llm-calls: 20\nllm:\n  defaults: { model: openai/gpt-4.1 }\nproviders: []\ntools:\n  - ref: tools/x.tool.yaml\n",
      "trails/config/trailmaps/shop/trailmap.yaml": SHOP,
    });
    const loaded = await load(root);
    expect(loaded.defaultTarget).toBe("shop");
    expect(loaded.warnings.map((w) => `${w.line}:${w.col} ${w.path}: ${w.message}`)).toEqual([
      "10:5 tools[0]: not loaded: tool entries here are JVM class-backed or YAML-composed tools, which this runtime does not run; write a per-file tool under trailmaps/<id>/tools/ (listed in target.tools) or an MCP server instead",
    ]);
  });

  test("excluded_tools in a targets/<id>.yaml file too, each entry located", async () => {
    const root = workspace({
      "trailblaze-config/targets/app.yaml": "id: app\nplatforms:\n  ios:\n    excluded_tools: [tapOnPoint, pressBack]\n",
    });
    const loaded = await loadWorkspace(join(root, "trailblaze-config"), { cwd: root });
    expect(loaded.targets.get("app")!.platforms.ios).toEqual({
      appIds: [],
      toolSets: [],
      excludedTools: ["tapOnPoint", "pressBack"],
      excludedToolWheres: [
        { file: "trailblaze-config/targets/app.yaml", line: 4, col: 22 },
        { file: "trailblaze-config/targets/app.yaml", line: 4, col: 34 },
      ],
      where: { file: "trailblaze-config/targets/app.yaml", line: 4, col: 5 },
    });
  });
});

describe("mistakes, each at file:line:col", () => {
  const anchor = "trails/config/trailblaze.yaml";
  const shopFile = "trails/config/trailmaps/shop/trailmap.yaml";

  test("a listed trailmap that does not exist (with close names), and a library trailmap listed as a target", async () => {
    const root = workspace({
      [anchor]: "targets:\n  - shpo\n  - lib\n",
      [shopFile]: SHOP,
      "trails/config/trailmaps/lib/trailmap.yaml": "id: lib\n",
    });
    expect(await problems(root)).toBe(
      "2 configuration problems:\n" +
        `  ${anchor}:2:5 targets: trailmap shpo not found: there is no trails/config/trailmaps/shpo/trailmap.yaml; did you mean "shop"?; create it (with a target: block), or remove shpo from targets:\n` +
        `  ${anchor}:3:5 targets: trailmap lib (trails/config/trailmaps/lib/trailmap.yaml) has no target: block, so it is a library trailmap; targets: lists target trailmaps only (a library comes in through a target's dependencies:)`,
    );
  });

  test("an unknown key in trailblaze.yaml, and a trailmap whose id is not its folder's name", async () => {
    const root = workspace({ [anchor]: "targets: [shop]\ntargest: []\n", [shopFile]: SHOP.replace("id: shop", "id: shopApp") });
    expect(await problems(root)).toBe(
      "2 configuration problems:\n" +
        `  ${anchor}:2:1: unknown key "targest"; did you mean "targets"?\n` +
        `  ${shopFile}:1:5 id: trailmap id "shopApp" differs from its folder trailmaps/shop/; targets: and dependencies: find a trailmap by its folder, so name them the same`,
    );
  });

  test("a missing dependency, and a dependency cycle", async () => {
    const root = workspace({
      [anchor]: "targets: [shop]\n",
      [shopFile]: `${SHOP}dependencies: [trailblaze, payment, a]\n`,
      "trails/config/trailmaps/payments/trailmap.yaml": "id: payments\n",
      "trails/config/trailmaps/a/trailmap.yaml": "id: a\ndependencies: [b]\n",
      "trails/config/trailmaps/b/trailmap.yaml": "id: b\ndependencies: [a]\n",
    });
    expect(await problems(root)).toBe(
      "2 configuration problems:\n" +
        `  ${shopFile}:6:28 dependencies: trailmap payment not found: there is no trails/config/trailmaps/payment/trailmap.yaml; did you mean "payments" or "a"?; create it, or remove the dependency (only the framework's own trailmaps, trailblaze, mobile and android, need no folder)\n` +
        "  trails/config/trailmaps/b/trailmap.yaml:2:16 dependencies: dependency cycle a → b → a; a trailmap cannot depend on itself, directly or through others: remove one of these dependencies",
    );
  });

  test("a trailmap depending on itself", async () => {
    const root = workspace({
      [anchor]: "targets: [shop]\n",
      [shopFile]: `${SHOP}dependencies: [lib]\n`,
      "trails/config/trailmaps/lib/trailmap.yaml": "id: lib\ndependencies: [lib]\n",
    });
    expect(await problems(root)).toBe(
      "trails/config/trailmaps/lib/trailmap.yaml:2:16 dependencies: dependency cycle lib → lib; a trailmap cannot depend on itself, directly or through others: remove one of these dependencies",
    );
  });

  test("unknown keys, platforms and drivers in a trailmap; mcp_servers entries are checked like a target file's", async () => {
    const root = workspace({
      [anchor]: "targets: [shop]\n",
      [shopFile]:
        "id: shop\ntarget:\n  display_name: Shop\n  tool: [x]\n  mcp_servers:\n    - { script: ./a.ts, command: node }\n" +
        "  platforms:\n    andriod: {}\n    web: { drivers: [ios-host], excluded: [x] }\n",
    });
    expect(await problems(root)).toBe(
      "5 configuration problems:\n" +
        `  ${shopFile}:9:33 target.platforms.web: unknown key "excluded"; did you mean "excluded_tools"?\n` +
        `  ${shopFile}:4:3 target: unknown key "tool"; did you mean "tools"?\n` +
        `  ${shopFile}:6:25 target.mcp_servers[0]: has both script: and command:; an entry is either a script (a .ts/.js MCP server run by the runtime) or a command (any stdio MCP server), not both\n` +
        `  ${shopFile}:8:5 target.platforms: unknown platform "andriod"; did you mean "android"? Known platforms: android, ios, web, compose\n` +
        `  ${shopFile}:9:22 target.platforms.web.drivers[0]: driver ios-host belongs to platform ios; list it under target.platforms.ios`,
    );
  });

  test("a target trailmap with top-level platforms:, a missing display_name, a system_prompt_file that is not there", async () => {
    const root = workspace({
      [anchor]: "targets: [shop, other]\n",
      [shopFile]: "id: shop\nplatforms: {}\ntarget:\n  display_name: Shop\n",
      "trails/config/trailmaps/other/trailmap.yaml": "id: other\ntarget:\n  system_prompt_file: prompt.md\n",
      "trails/config/trailmaps/third/trailmap.yaml": "id: third\ntarget:\n  display_name: Third\n  system_prompt_file: prompt.md\n",
    });
    expect(await problems(root)).toBe(
      "2 configuration problems:\n" +
        `  ${shopFile}:2:1 platforms: a top-level platforms: map is for library trailmaps (no target:); a target trailmap writes its platforms under target.platforms\n` +
        '  trails/config/trailmaps/other/trailmap.yaml:3:3 target: missing required key "display_name" (a string)',
    );
    writeFileSync(join(root, anchor), "targets: [third]\n");
    expect(await problems(root)).toBe(
      "trails/config/trailmaps/third/trailmap.yaml:4:23 target.system_prompt_file: file prompt.md not found (resolved against trails/config/trailmaps/third, the trailmap's folder)",
    );
  });

  test("a target id defined both in targets/ and by a trailmap; a defaults.target no target has; a missing toolset file", async () => {
    const root = workspace({
      [anchor]: "targets: [shop]\ndefaults: { target: shp }\ntoolsets:\n  - ref: nope.yaml\n",
      [shopFile]: SHOP,
      "trails/config/targets/shop.yaml": "id: shop\n",
    });
    expect(await problems(root)).toBe(
      "3 configuration problems:\n" +
        `  ${anchor}:4:10 toolsets: toolset file nope.yaml not found (resolved against trails/config, the folder holding trailblaze.yaml)\n` +
        `  ${shopFile}:1:5 id: duplicate target id "shop": also defined in trails/config/targets/shop.yaml:1:5; target ids must be unique, rename one of them\n` +
        `  ${anchor}:2:21 defaults.target: target "shp" is not one of this workspace's targets; did you mean "shop"?; known targets: shop`,
    );
  });
});
