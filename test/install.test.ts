// The first five minutes of a new user, as they meet them: pack this repository, install the
// tarball into an empty project outside it with no bun on PATH, and from there on only `npx`:
// help twice (a cold, then a warm precompiled CLI), init, two init-tools, the scaffolded tests,
// `check`, init's hints run as printed, runs on both agents and from trails/ (on precompiled
// servers) that leave `git status` clean, the shipped examples the docs walk through run from
// their folders, the bin from a plain PATH (as the docs' MCP client config starts it), and every
// link of the installed README and docs.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./support/cli.ts";

const work = mkdtempSync(join(tmpdir(), "trailblaze-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** PATH without this repository's node_modules/.bin: the project must bring its own bun. */
const USER_PATH = (process.env.PATH ?? "")
  .split(":")
  .filter((dir) => !dir.startsWith(REPO) && !existsSync(join(dir, "bun")))
  .join(":");
/** A user's shell: none of the npm or bun variables of the test run itself. */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|BUN_|TRAILBLAZE_)/.test(key)));

/** Runs a command to completion; its output and exit code. */
async function sh(cmd: string[], cwd: string, path = USER_PATH): Promise<{ code: number; out: string }> {
  const env = {
    ...USER_ENV,
    PATH: path,
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  const child = Bun.spawn(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // This machine's npm config has a key npm 11 warns about on every call: not ours, so not in the output.
  return { code, out: `${stdout}${stderr}`.replace(/^npm warn Unknown user config.*\n/gm, "") };
}

/** The commands under init's "Next:", as printed. */
function nextSteps(out: string): string[] {
  return out
    .slice(out.indexOf("\nNext:\n") + 7)
    .trim()
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim());
}

test("the first five minutes, as a user runs them: every step through npx works and leaves git clean", async () => {
  const pack = await sh(["npm", "pack", "--pack-destination", work, "--silent"], REPO, process.env.PATH);
  expect(pack.code).toBe(0);
  const tarball = join(work, pack.out.trim().split("\n").at(-1)!);

  const project = join(work, "shop-app");
  mkdirSync(project);
  expect((await sh(["npm", "init", "-y"], project)).code).toBe(0);
  const install = await sh(["npm", "install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
  expect(install.code).toBe(0);
  expect(install.out).not.toContain("EBADENGINE");
  const installed = join(project, "node_modules/trailblaze-ts");

  // Help twice: the first start runs the sources and precompiles the CLI, the second runs that.
  const cache = join(installed, ".cache/trailblaze-cli");
  const cold = await sh(["npx", "trailblaze", "--help"], project);
  expect(existsSync(cache) && readdirSync(cache).some((entry) => existsSync(join(cache, entry, "cli.js")))).toBe(true);
  const warm = await sh(["npx", "trailblaze", "--help"], project);
  expect(warm).toEqual(cold);
  expect(warm.out).toStartWith("Usage: npx trailblaze <command> [options]\n");

  const init = await sh(["npx", "trailblaze", "init", "--target", "shop"], project);
  expect(init.code).toBe(0);
  expect(init.out).toContain("Wrote .gitignore ");
  expect(nextSteps(init.out)).toEqual(["npx trailblaze run trails", "npx trailblaze run trails --agent on-device", "npx bun test"]);
  const perFile = await sh(["npx", "trailblaze", "init-tool", "applyCoupon"], project);
  expect(perFile.code).toBe(0);
  expect(nextSteps(perFile.out)[0]).toBe("npx bun test tools/shop/shop_applyCoupon.test.ts");
  expect((await sh(["npx", "trailblaze", "init-tool", "resetCart", "--server"], project)).code).toBe(0);

  // The workspace as committed: from here on, what the commands write must leave `git status` clean.
  expect((await sh(["git", "init", "-q"], project)).code).toBe(0);
  expect((await sh(["git", "add", "-A"], project)).code).toBe(0);
  expect((await sh(["git", "commit", "-qm", "workspace"], project)).code).toBe(0);
  expect((await sh(["git", "ls-files"], project)).out.split("\n").filter((file) => /^(node_modules|logs|\.cache)\//.test(file))).toEqual(
    [],
  );

  // init's hints, run as printed: the trails on both agents and every scaffolded test. No server
  // falls back to its source ("Cannot precompile …; running it from source").
  for (const hint of nextSteps(init.out)) {
    const run = await sh(["sh", "-c", hint], project);
    expect({ hint, code: run.code, fromSource: run.out.includes("running it from source") }).toEqual({ hint, code: 0, fromSource: false });
    if (hint.endsWith("bun test")) expect(run.out).toMatch(/\n 8 pass\n 0 fail\n/);
  }
  const check = await sh(["npx", "trailblaze", "check"], project);
  expect({ code: check.code, problems: check.out.split("\n").filter((line) => line.startsWith("✗")) }).toEqual({ code: 0, problems: [] });
  for (const [args, cwd] of [
    [["run", "hello.trail.yaml"], join(project, "trails")],
    [["tools"], project],
    [["call", "shop_greet", "--args", '{"text":"hi"}'], join(project, "tools")],
  ] as const) {
    const run = await sh(["npx", "trailblaze", ...args], cwd);
    expect({ args, code: run.code, fromSource: run.out.includes("running it from source") }).toEqual({ args, code: 0, fromSource: false });
  }
  // The examples the docs walk through run where they are installed, from their folders as the docs
  // say (the project's own trailblaze-config/ is above them): the demo, and the web shop in Chromium.
  for (const [example, trails] of [
    ["fixtures/demo", "trails"],
    ["fixtures/web", "trails/basket.trail.yaml"],
  ] as const) {
    const run = await sh(["npx", "trailblaze", "run", trails, "--no-logging"], join(installed, example));
    expect({ example, code: run.code, fromSource: run.out.includes("running it from source") }).toEqual({
      example,
      code: 0,
      fromSource: false,
    });
  }
  // The workspace's host servers ran precompiled: each script's bundle is in the workspace's cache.
  const bundles = readdirSync(join(project, ".cache/trailblaze-host-bundles")).filter((name) => name.endsWith(".json"));
  expect(bundles.map((name) => name.replace(/-[0-9a-f]+\.json$/, "")).sort()).toEqual(["greet", "resetCart"]);
  expect((await sh(["git", "status", "--porcelain"], project)).out).toBe("");

  // The bin itself, as an MCP client's config or a script starts it: no bun anywhere on PATH.
  const bare = await sh([join(project, "node_modules/.bin/trailblaze"), "--help"], project, "/usr/bin:/bin");
  expect(bare.code).toBe(0);
  expect(bare.out).toStartWith("Usage: npx trailblaze <command> [options]\n");

  // The installed docs' MCP client config, as a client starts it: from /, with a bare PATH.
  const page = readFileSync(join(installed, "docs/cli.md"), "utf8");
  const config = /```json\n([\s\S]*?)```/.exec(page.slice(page.indexOf("## Serving tools to MCP clients")))![1]!;
  const [entry] = Object.values(
    JSON.parse(config.replaceAll("/abs/path/to/my-project", project)).mcpServers as Record<string, { command: string; args: string[] }>,
  );
  const args = entry!.args.map((arg) => (arg === "myapp" ? "shop" : arg));
  const client = new Client({ name: "install-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: entry!.command,
      args,
      cwd: "/",
      env: { HOME: process.env.HOME ?? "/", PATH: "/usr/bin:/bin" },
      stderr: "ignore",
    }),
  );
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("shop_greet");
  } finally {
    await client.close();
  }
  expect((await sh(["git", "status", "--porcelain"], project)).out).toBe("");

  // Every relative link of the installed README and docs leads to a file the package holds.
  const pages = [
    "README.md",
    ...readdirSync(join(installed, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];
  const broken = pages.flatMap((page) =>
    [...readFileSync(join(installed, page), "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map(([, link]) => link!)
      .filter((link) => !/^[a-z]+:/.test(link) && !existsSync(resolve(dirname(join(installed, page)), link)))
      .map((link) => `${page}: ${link}`),
  );
  expect(broken).toEqual([]);
}, 300_000);

test("init refuses to overwrite and says why; a bad target id is a usage error", async () => {
  const { cli, tempDir } = await import("./support/cli.ts");
  const dir = tempDir("init-twice");
  expect((await cli(["init"], { cwd: dir })).code).toBe(0);
  const again = await cli(["init"], { cwd: dir });
  expect(again).toEqual({
    code: 2,
    stdout: "",
    stderr:
      "error: init: trailblaze-config/targets/app.yaml, tools/app/greet.ts, tools/app/greet.test.ts, trails/hello.trail.yaml already exist; " +
      "nothing was written (init scaffolds a new workspace; add tools with `npx trailblaze init-tool`)\n",
  });
  const bad = await cli(["init", "--target", "my_app"], { cwd: tempDir("init-bad") });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toBe(
    'error: init: target id "my_app" must be one lowerCamelCase word (^[a-z][a-zA-Z0-9]*$): it prefixes tool names, <targetId>_<verbNoun>\n',
  );
});
