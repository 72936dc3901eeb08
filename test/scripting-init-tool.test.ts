// `bun trailblaze init-tool`: scaffolds into a copy of fixtures/scripting/init-workspace, then the
// scaffold is held to what a user would do next — typecheck it, run its test, call the tool in
// both agent modes — and every refusal is checked to write nothing.

import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const FIXTURE = join(REPO, "fixtures/scripting/init-workspace");

/** A fresh copy of the workspace that resolves packages from the repo's node_modules. */
function workspace(): string {
  const dir = join(tempDir("init-tool"), "ws");
  cpSync(FIXTURE, dir, { recursive: true });
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

describe("init-tool scaffolds a working tool", () => {
  test("writes the server, test and toolset, edits the target keeping its comments, and prints next steps", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "applyCoupon"], { cwd: ws });
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
        "  bun test tools/myapp/applyCoupon.test.ts\n" +
        `  bun trailblaze call myapp_applyCoupon --target myapp --args '{"text":"hi"}'                     # host agent: bun subprocess\n` +
        `  bun trailblaze call myapp_applyCoupon --target myapp --args '{"text":"hi"}' --agent on-device   # bundled into QuickJS\n`,
    });
    expect(read(ws, "trailblaze-config/targets/myapp.yaml")).toBe(`# The example app's target. init-tool adds servers and toolsets here; these comments must survive.
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
    writeFileSync(join(ws, "tsconfig.json"), JSON.stringify({ extends: join(REPO, "tsconfig.json"), include: ["tools"], compilerOptions: { types: ["bun"] } }));
    const tsc = Bun.spawnSync([join(REPO, "node_modules/.bin/tsc"), "--noEmit", "-p", ws, "--pretty", "false"], { cwd: ws });
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
    const tested = Bun.spawnSync([process.execPath, "test", "tools/myapp/applyCoupon.test.ts"], { cwd: ws, env: { ...process.env, PATH: TEST_PATH } });
    expect(tested.stderr.toString()).toContain(" 3 pass\n 0 fail\n");
    expect(tested.exitCode).toBe(0);
    const logs = tempDir("init-tool-logs");
    for (const agent of ["host", "on-device"]) {
      const call = await cli(["call", "myapp_applyCoupon", "--args", '{"text":"hi"}', "--agent", agent, "--json", "--logs", logs], { cwd: ws });
      expect({ agent, code: call.code, json: JSON.parse(call.stdout) }).toEqual({
        agent,
        code: 0,
        json: {
          tool: "myapp_applyCoupon",
          result: { status: "success", variant: "Success", message: "myapp_applyCoupon: hi (ANDROID)", structuredContent: { text: "hi", platform: "ANDROID" } },
        },
      });
    }
    const tools = JSON.parse((await cli(["tools", "--json", "--logs", logs], { cwd: ws })).stdout);
    expect(tools.toolsets.find((t: { id: string }) => t.id === "myapp_applyCoupon")).toMatchObject({ active: true, tools: ["myapp_applyCoupon"] });
  });

  test("--toolset adds to an existing toolset YAML (comments kept); --dir and a platform name are honoured (ios tools only on ios)", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "myapp_ios_resetKeychain", "--toolset", "myapp_login", "--dir", "tools/ios"], { cwd: ws });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Created tools/ios/ios_resetKeychain.ts               its MCP server",
      "Created tools/ios/ios_resetKeychain.test.ts          its test",
      "Updated trailblaze-config/toolsets/myapp_login.yaml  tools += myapp_ios_resetKeychain",
      // The target lists myapp_login on android and ios already, and an ios tool is not added for web.
      "Updated trailblaze-config/targets/myapp.yaml         mcp_servers += ./tools/ios/ios_resetKeychain.ts",
    ]);
    expect(read(ws, "tools/ios/ios_resetKeychain.ts")).toContain('"trailblaze/supportedPlatforms": ["ios"], // the name says ios: registered on ios sessions only');
    expect(run.stdout).toContain(`bun trailblaze call myapp_ios_resetKeychain --target myapp --driver ios-host --args '{"text":"hi"}'`);
    expect(read(ws, "trailblaze-config/toolsets/myapp_login.yaml")).toBe(
      "# Login helpers.\nid: myapp_login\ndescription: Log in and out of the example app\ntools:\n  - myapp_logIn # the only tool so far\n  - myapp_ios_resetKeychain\n",
    );
  });

  test("run from a subfolder, the next steps start with cd to the workspace root", async () => {
    const ws = workspace();
    const run = await cli(["init-tool", "myapp_openCart"], { cwd: join(ws, "tools/myapp") });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Created openCart.ts                                           its MCP server",
      "Created openCart.test.ts                                      its test",
      "Created ../../trailblaze-config/toolsets/myapp_openCart.yaml  toolset myapp_openCart",
      "Updated ../../trailblaze-config/targets/myapp.yaml            mcp_servers += ./tools/myapp/openCart.ts; tool_sets += myapp_openCart (android, ios, web)",
    ]);
    expect(run.stdout).toContain("\nNext:\n  cd ../..   # the workspace root: test paths below are relative to it\n  bun test tools/myapp/openCart.test.ts\n");
  });
});

describe("init-tool refuses, and then writes nothing", () => {
  test("an existing file, script entry or tool name", async () => {
    const ws = workspace();
    expect((await cli(["init-tool", "applyCoupon"], { cwd: ws })).code).toBe(0);
    const before = snapshot(ws);
    const again = await cli(["init-tool", "myapp_applyCoupon"], { cwd: ws });
    expect(again).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: init-tool: refusing to overwrite: tools/myapp/applyCoupon.ts already exists; tools/myapp/applyCoupon.test.ts already exists; " +
        "trailblaze-config/targets/myapp.yaml already lists ./tools/myapp/applyCoupon.ts; " +
        "toolset myapp_applyCoupon (trailblaze-config/toolsets/myapp_applyCoupon.yaml) already lists myapp_applyCoupon. " +
        "Nothing was written; pick another name or remove them.\n",
    });
    const listed = await cli(["init-tool", "logIn", "--dir", "tools/other"], { cwd: ws });
    expect(listed.stderr).toBe(
      "error: init-tool: refusing to overwrite: toolset myapp_login (trailblaze-config/toolsets/myapp_login.yaml) already lists myapp_logIn. " +
        "Nothing was written; pick another name or remove them.\n",
    );
    expect(snapshot(ws)).toEqual(before);
  });

  test("a toolset file that holds another id", async () => {
    const ws = workspace();
    writeFileSync(join(ws, "trailblaze-config/toolsets/stray.yaml"), "id: myapp_stray\ntools: []\n");
    const before = snapshot(ws);
    const run = await cli(["init-tool", "doThing", "--toolset", "stray"], { cwd: ws });
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
    expect(await error(`a${"b".repeat(60)}`)).toBe(`error: init-tool: "myapp_a${"b".repeat(60)}" is 67 characters; tool names are at most 64\n`);
    expect(await error("x", "--target", "nope")).toBe('error: init-tool: unknown target "nope"; known targets: myapp\n');
    expect(await error("x", "--toolset", "Bad-Id")).toBe(
      'error: init-tool: --toolset "Bad-Id" is not a valid toolset id (letters, digits and _; starts with a lower-case letter)\n',
    );
    expect(await error()).toBe("error: init-tool: expected one tool name, got 0; e.g. bun trailblaze init-tool myapp_applyCoupon\n");
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

test("--help as a real subprocess", async () => {
  const run = await cliProcess(["init-tool", "--help"], { cwd: FIXTURE });
  expect(run.code).toBe(0);
  expect(run.stdout).toStartWith("Usage: bun trailblaze init-tool <name> [--target ID] [--toolset ID] [--dir DIR] [--config DIR]\n");
  expect(run.stdout).toContain("Existing files are never overwritten: if any would be, nothing is written.");
  const main = await cliProcess(["--help"], { cwd: FIXTURE });
  expect(main.stdout).toMatch(/\n  init-tool +scaffold a tool: MCP server file, test, toolset YAML and target entry\n/);
});
