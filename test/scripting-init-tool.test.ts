// `bun trailblaze init-tool`: scaffolds into a copy of fixtures/scripting/init-workspace (and of
// fixtures/upstream-layout for a trailmap), then the scaffold is held to what a user would do
// next — typecheck it, run its test, call the tool in both agent modes — and every refusal is
// checked to write nothing.

import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cli, cliProcess, REPO, TEST_PATH, tempDir } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/scripting/init-workspace");

/**
 * A fresh copy of a workspace fixture that resolves packages from the repo's node_modules; with a
 * `key`, at a fixed place that keeps the schemas derived for its tools by the previous run
 * (support/workspace-copy.ts). The first test's copy stays cold: each pass of npm test derives a
 * new tool's schemas at least once, with the CLI it runs.
 */
function workspace(fixture = FIXTURE, key?: string): string {
  const dir = key === undefined ? join(tempDir("init-tool"), "ws") : workspaceCopy(fixture, key);
  if (key === undefined) cpSync(fixture, dir, { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  return dir;
}

function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.name === "node_modules" || entry.name === "logs" || entry.name === ".cache") continue;
      if (entry.isDirectory()) walk(rel);
      else files[rel] = readFileSync(join(dir, rel), "utf8");
    }
  };
  walk("");
  return files;
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");

/** `tsc --noEmit -p <project>` as a user runs it on the tsconfig init-tool wrote; its output, empty when it compiles. */
function typecheck(ws: string, project: string): string {
  const tsc = Bun.spawnSync([join(REPO, "node_modules/.bin/tsc"), "--noEmit", "-p", join(ws, project), "--pretty", "false"], { cwd: ws });
  return tsc.stdout.toString() + tsc.stderr.toString();
}

/** Runs a scaffolded test file with bun test in the workspace, expecting `passes` passing tests. */
function expectTestPasses(ws: string, file: string, passes: number): void {
  const tested = Bun.spawnSync([process.execPath, "test", file], { cwd: ws, env: { ...process.env, PATH: TEST_PATH } });
  expect(tested.stderr.toString()).toContain(` ${passes} pass\n 0 fail\n`);
  expect(tested.exitCode).toBe(0);
}

/** `call <tool> --args {"text":"hi"} --json` with each agent: every one answers `result`. */
async function expectCallInBothAgents(ws: string, tool: string, result: Record<string, unknown>): Promise<void> {
  const logs = tempDir("init-tool-logs");
  for (const agent of ["host", "on-device"]) {
    const call = await cli(["call", tool, "--args", '{"text":"hi"}', "--agent", agent, "--json", "--logs", logs], { cwd: ws });
    expect({ agent, code: call.code, json: JSON.parse(call.stdout) }).toEqual({ agent, code: 0, json: { tool, result } });
  }
}

describe("init-tool scaffolds a per-file tool by default", () => {
  test("writes the tool and its test, lists it in the target's tools:, and the tool works: its test, a call in both agents, typed", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "applyCoupon"], { cwd: ws });
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "Created tools/myapp/myapp_applyCoupon.ts       the tool\n" +
        "Created tools/myapp/myapp_applyCoupon.test.ts  its test\n" +
        "Updated trailblaze-config/targets/myapp.yaml   tools += myapp_applyCoupon\n" +
        "Created tsconfig.json                          for editors and tsc\n" +
        "\nNext:\n" +
        "  npx bun test tools/myapp/myapp_applyCoupon.test.ts\n" +
        `  npx trailblaze call myapp_applyCoupon --target myapp --args '{"text":"hi"}'   # in a session: QuickJS, either agent\n` +
        "  npx trailblaze types --target myapp                                           # writes tools/trailblaze-client.d.ts, which types ctx.tools calls\n",
    });
    expect(read(ws, "trailblaze-config/targets/myapp.yaml")).toEndWith("      - myapp_login\n  web:\ntools:\n  - myapp_applyCoupon\n");
    expect(read(ws, "tools/myapp/myapp_applyCoupon.ts")).toContain("export const myapp_applyCoupon = trailblaze.tool<ApplyCouponInput>(");

    expect(typecheck(ws, ".")).toBe("");
    expectTestPasses(ws, "tools/myapp/myapp_applyCoupon.test.ts", 2);
    await expectCallInBothAgents(ws, "myapp_applyCoupon", {
      status: "success",
      variant: "Success",
      message: "typed hi on android",
      // The scaffold only types: with no screen loaded, nothing was checked.
      unchecked: "only called inputText, which acted on a simulated device with no screen loaded",
    });
    const logs = tempDir("init-tool-logs");
    // The schema the LLM sees comes from the input type and its doc comment.
    const tools = JSON.parse((await cli(["tools", "--json", "--logs", logs], { cwd: ws })).stdout);
    expect(tools.tools.find((t: { name: string }) => t.name === "myapp_applyCoupon")).toMatchObject({
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "TODO: describe each field for the LLM." } },
        required: ["text"],
      },
    });
    // The typed client the Next lines point at checks the tool's own ctx.tools call.
    expect((await cli(["types", "--target", "myapp", "--logs", logs], { cwd: ws })).code).toBe(0);
    expect(existsSync(join(ws, "tools/trailblaze-client.d.ts"))).toBe(true);
    expect(typecheck(ws, ".")).toBe("");
  });

  test("in a trailmap: the tool goes to its tools/ folder, target.tools gains the name, a platform name sets supportedPlatforms", async () => {
    const ws = workspace(join(REPO, "fixtures/upstream-layout"), "init-tool-trailmap");
    const run = await cli(["init-tool", "shop_ios_resetKeychain", "--target", "shop"], { cwd: join(ws, "trails") });
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Created config/trailmaps/shop/tools/shop_ios_resetKeychain.ts       the tool",
      "Created config/trailmaps/shop/tools/shop_ios_resetKeychain.test.ts  its test",
      "Updated config/trailmaps/shop/trailmap.yaml                         target.tools += shop_ios_resetKeychain",
      "Created config/trailmaps/shop/tools/tsconfig.json                   for editors and tsc",
    ]);
    expect(run.stdout).toContain(
      `\nNext:\n  cd ..   # the workspace root: test paths below are relative to it\n  npx bun test trails/config/trailmaps/shop/tools/shop_ios_resetKeychain.test.ts\n`,
    );
    expect(run.stdout).toContain(`npx trailblaze call shop_ios_resetKeychain --target shop --driver ios-host --args '{"text":"hi"}'`);
    expect(read(ws, "trails/config/trailmaps/shop/trailmap.yaml")).toContain(
      "    compose: {}                           # web is declared, so the compose section adds nothing\n  tools:\n    - shop_ios_resetKeychain\n",
    );
    const tool = read(ws, "trails/config/trailmaps/shop/tools/shop_ios_resetKeychain.ts");
    expect(tool).toContain('{ supportedPlatforms: ["ios"] }, // the name says ios: registered on ios sessions only');

    expect(typecheck(ws, "trails/config/trailmaps/shop/tools")).toBe("");
    const tested = Bun.spawnSync([process.execPath, "test", "trails/config/trailmaps/shop/tools"], {
      cwd: ws,
      env: { ...process.env, PATH: TEST_PATH },
    });
    expect(tested.stderr.toString()).toContain(" 2 pass\n 0 fail\n");
    const logs = tempDir("init-tool-logs");
    const ios = await cli(
      ["call", "shop_ios_resetKeychain", "--target", "shop", "--driver", "ios-host", "--args", '{"text":"hi"}', "--json", "--logs", logs],
      { cwd: ws },
    );
    expect(JSON.parse(ios.stdout)).toEqual({
      tool: "shop_ios_resetKeychain",
      result: {
        status: "success",
        variant: "Success",
        message: "typed hi on ios",
        unchecked: "only called inputText, which acted on a simulated device with no screen loaded",
      },
    });
    const android = await cli(["call", "shop_ios_resetKeychain", "--target", "shop", "--args", '{"text":"hi"}', "--logs", logs], {
      cwd: ws,
    });
    expect(android.code).toBe(2);
    expect(android.stderr).toContain("shop_ios_resetKeychain");
  });

  test("refuses a second declaration, a listed name, a --dir outside the tools folder, --toolset, and --server in a trailmap; writes nothing", async () => {
    const ws = workspace();
    writeFileSync(
      join(ws, "tools/myapp/cart.ts"),
      'import { trailblaze } from "@trailblaze/scripting";\nexport const myapp_openCart = trailblaze.tool(async () => "open");\n',
    );
    const before = snapshot(ws);
    const error = async (...argv: string[]) => (await cli(["init-tool", ...argv], { cwd: ws })).stderr;
    expect(await error("openCart", "--dir", "tools")).toBe(
      "error: init-tool: refusing to overwrite: tools/myapp/cart.ts already declares myapp_openCart. Nothing was written; pick another name or remove them.\n",
    );
    expect(await error("applyCoupon", "--dir", "lib")).toBe(
      "error: init-tool: --dir lib is outside tools, where target myapp looks its per-file tools up; pick a folder inside it (or use --server)\n",
    );
    expect(await error("applyCoupon", "--toolset", "myapp_login")).toBe(
      "error: init-tool: --toolset applies to --server only; a per-file tool is listed by name in the target's tools:, with no toolset\n",
    );
    expect(snapshot(ws)).toEqual(before);

    expect((await cli(["init-tool", "applyCoupon"], { cwd: ws })).code).toBe(0);
    const scaffolded = snapshot(ws);
    expect(await error("applyCoupon")).toBe(
      "error: init-tool: refusing to overwrite: tools/myapp/myapp_applyCoupon.ts already exists; tools/myapp/myapp_applyCoupon.test.ts already exists; " +
        "trailblaze-config/targets/myapp.yaml already lists myapp_applyCoupon under tools. Nothing was written; pick another name or remove them.\n",
    );
    expect(snapshot(ws)).toEqual(scaffolded);

    const upstream = workspace(join(REPO, "fixtures/upstream-layout"));
    const server = await cli(["init-tool", "x", "--server", "--target", "shop"], { cwd: upstream });
    expect(server.stderr).toBe(
      "error: init-tool: target shop is a trailmap (trails/config/trailmaps/shop/trailmap.yaml); --server scaffolds an MCP server into a targets/<id>.yaml file. " +
        "Leave out --server to scaffold a per-file tool into the trailmap\n",
    );
  });
});

describe("init-tool --server scaffolds a working MCP server", () => {
  test("writes the server, test and toolset, edits the target keeping its comments, and prints next steps", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "applyCoupon", "--server"], { cwd: ws });
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "Created tools/myapp/applyCoupon.ts                         its MCP server\n" +
        "Created tools/myapp/applyCoupon.test.ts                    its test\n" +
        "Created trailblaze-config/toolsets/myapp_applyCoupon.yaml  toolset myapp_applyCoupon\n" +
        "Updated trailblaze-config/targets/myapp.yaml               mcp_servers += ./tools/myapp/applyCoupon.ts; tool_sets += myapp_applyCoupon (android, ios, web)\n" +
        "Created tsconfig.json                                      for editors and tsc\n" +
        "\nNext:\n" +
        "  npx bun test tools/myapp/applyCoupon.test.ts\n" +
        `  npx trailblaze call myapp_applyCoupon --target myapp --args '{"text":"hi"}'                     # host agent: bun subprocess\n` +
        `  npx trailblaze call myapp_applyCoupon --target myapp --args '{"text":"hi"}' --agent on-device   # bundled into QuickJS\n`,
    });
    expect(
      read(ws, "trailblaze-config/targets/myapp.yaml"),
    ).toBe(`# The example app's target. init-tool adds servers and toolsets here; these comments must survive.
id: myapp
display_name: Example App

# Each entry is one MCP server; paths resolve against the workspace root (the folder holding trailblaze-config/).
mcp_servers:
  - script: ./tools/myapp/login.ts # log in / out
  - script: ./tools/myapp/applyCoupon.ts

platforms:
  android:
    app_ids: [com.example.myapp]
    tool_sets: [myapp_login, myapp_applyCoupon] # enabled on Android
  ios:
    app_ids: [com.example.myapp]
    tool_sets:
      - myapp_login
      - myapp_applyCoupon
  web:
    tool_sets: [myapp_applyCoupon]
`);
    expect(read(ws, "trailblaze-config/toolsets/myapp_applyCoupon.yaml")).toBe(
      "id: myapp_applyCoupon\ndescription: TODO what these tools are for\ntools:\n  - myapp_applyCoupon\n",
    );
    const server = read(ws, "tools/myapp/applyCoupon.ts");
    expect(server).toContain('import { contextOf, success, type TrailblazeToolMeta } from "@trailblaze/scripting";');
    expect(server).toContain("await server.connect(new StdioServerTransport());");

    // What the user does next: typecheck, run the generated test, call the tool in both modes.
    expect(typecheck(ws, ".")).toBe("");
    expectTestPasses(ws, "tools/myapp/applyCoupon.test.ts", 3);
    await expectCallInBothAgents(ws, "myapp_applyCoupon", {
      status: "success",
      variant: "Success",
      message: 'got "hi" (ANDROID)',
      structuredContent: { text: "hi", platform: "ANDROID" },
    });
    const logs = tempDir("init-tool-logs");
    const tools = JSON.parse((await cli(["tools", "--json", "--logs", logs], { cwd: ws })).stdout);
    expect(tools.toolsets.find((t: { id: string }) => t.id === "myapp_applyCoupon")).toMatchObject({
      active: true,
      tools: ["myapp_applyCoupon"],
    });
  });

  test("--toolset adds to an existing toolset YAML (comments kept); --dir and a platform name are honoured (ios tools only on ios)", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "myapp_ios_resetKeychain", "--server", "--toolset", "myapp_login", "--dir", "tools/ios"], {
      cwd: ws,
    });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Created tools/ios/ios_resetKeychain.ts               its MCP server",
      "Created tools/ios/ios_resetKeychain.test.ts          its test",
      "Updated trailblaze-config/toolsets/myapp_login.yaml  tools += myapp_ios_resetKeychain",
      // The target lists myapp_login on android and ios already, and an ios tool is not added for web.
      "Updated trailblaze-config/targets/myapp.yaml         mcp_servers += ./tools/ios/ios_resetKeychain.ts",
    ]);
    expect(read(ws, "tools/ios/ios_resetKeychain.ts")).toContain(
      '"trailblaze/supportedPlatforms": ["ios"], // the name says ios: registered on ios sessions only',
    );
    expect(run.stdout).toContain(`npx trailblaze call myapp_ios_resetKeychain --target myapp --driver ios-host --args '{"text":"hi"}'`);
    expect(read(ws, "trailblaze-config/toolsets/myapp_login.yaml")).toBe(
      "# Login helpers.\nid: myapp_login\ndescription: Log in and out of the example app\ntools:\n  - myapp_logIn   # the only tool so far\n  - myapp_ios_resetKeychain\n",
    );
  });

  test("run from a subfolder, the next steps start with cd to the workspace root", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "myapp_openCart", "--server"], { cwd: join(ws, "tools/myapp") });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Created openCart.ts                                           its MCP server",
      "Created openCart.test.ts                                      its test",
      "Created ../../trailblaze-config/toolsets/myapp_openCart.yaml  toolset myapp_openCart",
      "Updated ../../trailblaze-config/targets/myapp.yaml            mcp_servers += ./tools/myapp/openCart.ts; tool_sets += myapp_openCart (android, ios, web)",
    ]);
    expect(run.stdout).toContain(
      "\nNext:\n  cd ../..   # the workspace root: test paths below are relative to it\n  npx bun test tools/myapp/openCart.test.ts\n",
    );
  });
});

describe("init-tool refuses, and then writes nothing", () => {
  test("an existing file, script entry or tool name", async () => {
    const ws = workspace();
    expect((await cli(["init-tool", "applyCoupon", "--server"], { cwd: ws })).code).toBe(0);
    const before = snapshot(ws);
    const again = await cli(["init-tool", "myapp_applyCoupon", "--server"], { cwd: ws });
    expect(again).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: init-tool: refusing to overwrite: tools/myapp/applyCoupon.ts already exists; tools/myapp/applyCoupon.test.ts already exists; " +
        "trailblaze-config/targets/myapp.yaml already lists ./tools/myapp/applyCoupon.ts; " +
        "toolset myapp_applyCoupon (trailblaze-config/toolsets/myapp_applyCoupon.yaml) already lists myapp_applyCoupon. " +
        "Nothing was written; pick another name or remove them.\n",
    });
    const listed = await cli(["init-tool", "logIn", "--server", "--dir", "tools/other"], { cwd: ws });
    expect(listed.stderr).toBe(
      "error: init-tool: refusing to overwrite: toolset myapp_login (trailblaze-config/toolsets/myapp_login.yaml) already lists myapp_logIn. " +
        "Nothing was written; pick another name or remove them.\n",
    );
    expect(snapshot(ws)).toEqual(before);
  });

  test("a name an MCP server of the target advertises (myapp_logIn, listed in no target tools: and declared by no per-file tool): exit 2, naming the server", async () => {
    const ws = workspace();
    const before = snapshot(ws);
    const refusal =
      "error: init-tool: target myapp already has a tool myapp_logIn (MCP server tools/myapp/login.ts advertises it); " +
      "a second one would fail every session of myapp on a tool name collision. Nothing was written; pick another name.\n";
    expect(await cli(["init-tool", "logIn"], { cwd: ws })).toEqual({ code: 2, stdout: "", stderr: refusal });
    expect(snapshot(ws)).toEqual(before);
  });

  test("init's own tool scaffolded again (init --target shop, then init-tool shop_greet): exit 2 naming init's server", async () => {
    const ws = join(tempDir("init-then-tool"), "shop-app");
    mkdirSync(ws);
    symlinkSync(join(REPO, "node_modules"), join(ws, "node_modules"));
    expect((await cli(["init", "--target", "shop"], { cwd: ws })).code).toBe(0);
    const before = snapshot(ws);
    expect(await cli(["init-tool", "shop_greet"], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: init-tool: target shop already has a tool shop_greet (MCP server tools/shop/greet.ts advertises it); " +
        "a second one would fail every session of shop on a tool name collision. Nothing was written; pick another name.\n",
    });
    expect(snapshot(ws)).toEqual(before);
  });

  test("a toolset file that holds another id", async () => {
    const ws = workspace();
    writeFileSync(join(ws, "trailblaze-config/toolsets/stray.yaml"), "id: myapp_stray\ntools: []\n");
    const before = snapshot(ws);
    const run = await cli(["init-tool", "doThing", "--server", "--toolset", "stray"], { cwd: ws });
    expect(run.stderr).toBe(
      "error: init-tool: refusing to overwrite: trailblaze-config/toolsets/stray.yaml exists but does not define toolset stray. Nothing was written.\n",
    );
    expect(snapshot(ws)).toEqual(before);
  });

  test("names that break the naming convention", async () => {
    const ws = workspace();
    const before = snapshot(ws);
    const error = async (...argv: string[]) => (await cli(["init-tool", ...argv], { cwd: ws })).stderr;
    expect(await error("shop_applyCoupon")).toBe(
      'error: init-tool: "shop_applyCoupon" does not start with "myapp_": tools of target myapp are named myapp_<verbNoun> (e.g. myapp_applyCoupon), or myapp_<platform>_<verbNoun>\n',
    );
    expect(await error("Apply-Coupon")).toBe(
      'error: init-tool: "Apply-Coupon" is not a valid tool name: use myapp_<verbNoun> with lowerCamelCase words joined by single underscores, e.g. myapp_applyCoupon\n',
    );
    expect(await error("myapp__double")).toBe(
      'error: init-tool: "myapp__double" is not a valid tool name: use myapp_<verbNoun> with lowerCamelCase words joined by single underscores, e.g. myapp_applyCoupon\n',
    );
    expect(await error(`a${"b".repeat(60)}`)).toBe(
      `error: init-tool: "myapp_a${"b".repeat(60)}" is 67 characters; tool names are at most 64\n`,
    );
    expect(await error("x", "--target", "nope")).toBe('error: init-tool: unknown target "nope"; known targets: myapp\n');
    expect(await error("x", "--server", "--toolset", "Bad-Id")).toBe(
      'error: init-tool: --toolset "Bad-Id" is not a valid toolset id (letters, digits and _; starts with a lower-case letter)\n',
    );
    expect(await error()).toBe("error: init-tool: expected one tool name, got 0; e.g. npx trailblaze init-tool myapp_applyCoupon\n");
    expect(snapshot(ws)).toEqual(before);
    expect(existsSync(join(ws, "tools/myapp/x.ts"))).toBe(false);
  });

  test("a target id that cannot prefix tool names", async () => {
    const ws = workspace();
    writeFileSync(join(ws, "trailblaze-config/targets/myapp.yaml"), "id: my-app\n");
    const run = await cli(["init-tool", "x"], { cwd: ws });
    expect(run.stderr).toEndWith(
      'error: init-tool: target id "my-app" cannot prefix tool names: tool names are <targetId>_<verbNoun> and the id must be one lowerCamelCase word (^[a-z][a-zA-Z0-9]*$)\n',
    );
  });
});

describe("init-tool writes inside the workspace, all or nothing", () => {
  test("a --dir outside the workspace root is refused, with the server and the per-file tool; nothing is written anywhere", async () => {
    const ws = workspace();
    const before = snapshot(ws);
    const outside = join(dirname(ws), "outside");
    const refusal = (flag: string, resolved: string) =>
      `error: init-tool: --dir ${flag} resolves to ${resolved}, outside the workspace root ${ws}; scaffolds are written inside the workspace only. ` +
      "Pick a folder inside it (e.g. --dir tools/myapp); nothing was written\n";
    expect(await cli(["init-tool", "applyCoupon", "--server", "--dir", "../outside"], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr: refusal("../outside", outside),
    });
    expect(await cli(["init-tool", "applyCoupon", "--dir", "../outside"], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr: refusal("../outside", outside),
    });
    expect(await cli(["init-tool", "applyCoupon", "--server", "--dir", outside], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr: refusal(outside, outside),
    });
    // From a subfolder, --dir is still relative to the workspace root: tools/../../x leaves it too.
    const sub = await cli(["init-tool", "applyCoupon", "--server", "--dir", "tools/../../outside"], { cwd: join(ws, "tools") });
    expect(sub).toEqual({ code: 2, stdout: "", stderr: refusal("tools/../../outside", outside) });
    expect(existsSync(outside)).toBe(false);
    expect(snapshot(ws)).toEqual(before);
  });

  test("a write that fails partway removes the files this run created, restores the target and removes the folders it made", async () => {
    const ws = workspace();
    const before = snapshot(ws);
    // A dangling link where tsconfig.json goes: not there for the plan's checks, but the last file
    // written is created exclusively, so the write fails instead of following the link out of the workspace.
    const escaped = join(dirname(ws), "escaped-tsconfig.json");
    symlinkSync(escaped, join(ws, "tsconfig.json"));
    const run = await cli(["init-tool", "applyCoupon", "--server", "--dir", "tools/fresh/deep"], { cwd: ws });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: init-tool: could not write tsconfig.json: a file or link of that name already exists; " +
        "the 4 files written before it were removed or restored, so nothing was written. Move it away and run init-tool again\n",
    });
    expect(existsSync(escaped)).toBe(false);
    expect(lstatSync(join(ws, "tsconfig.json")).isSymbolicLink()).toBe(true);
    rmSync(join(ws, "tsconfig.json"));
    expect(existsSync(join(ws, "tools/fresh"))).toBe(false);
    expect(snapshot(ws)).toEqual(before);

    // With the link gone the same command writes everything.
    expect((await cli(["init-tool", "applyCoupon", "--server", "--dir", "tools/fresh/deep"], { cwd: ws })).code).toBe(0);
    expect(existsSync(join(ws, "tools/fresh/deep/applyCoupon.ts"))).toBe(true);
    expect(existsSync(join(ws, "tsconfig.json"))).toBe(true);
  });
});

test("--help as a real subprocess", async () => {
  const run = await cliProcess(["init-tool", "--help"], { cwd: FIXTURE });
  expect(run.code).toBe(0);
  expect(run.stdout).toStartWith(
    "Usage: npx trailblaze init-tool <name> [--target ID] [--dir DIR] [--server [--toolset ID]] [--config DIR]\n",
  );
  expect(run.stdout).toContain("Existing files are never overwritten: if any\nwould be, nothing is written.");
  const main = await cliProcess(["--help"], { cwd: FIXTURE });
  expect(main.stdout).toMatch(/\n {2}init-tool +scaffold a per-file tool and its test, listed in a target \(--server: an MCP server\)\n/);
});
