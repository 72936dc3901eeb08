// The `bundle` / `check-bundle` commands on real author files and bundles, as the CLI under test
// runs them (checkBundle itself, the same in both passes of npm test: bundle-check-api.test.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { cli, cliProcess } from "./support/cli.ts";

const REPO = resolve(import.meta.dir, "..");
mkdirSync(join(REPO, ".cache"), { recursive: true });
const TMP = mkdtempSync(join(REPO, ".cache", "bundle-check-test-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const HOST_ONLY = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';

function author(name: string, source: string): string {
  const file = join(TMP, name);
  writeFileSync(file, source);
  return relative(REPO, file);
}

/** Through the CLI's own routing (`runCli`), as `bun trailblaze <command>` runs it. */
async function runCommand(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = await cli(argv, { cwd: REPO });
  return { code: run.code, out: run.stdout, err: run.stderr };
}

describe("bun trailblaze bundle", () => {
  test("writes the bundle and reports its size", async () => {
    const out = join(TMP, "cli/echo.js");
    const result = await runCommand(["bundle", "fixtures/bundle/echo-server.ts", "-o", out, "--json"]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.out) as Record<string, unknown>;
    expect(json).toEqual({
      ok: true,
      path: out,
      bytes: Buffer.byteLength(readFileSync(out, "utf8")),
      cached: expect.any(Boolean),
      warnings: [],
    });
  });

  test("exit 1 with the error for code that cannot run on-device", async () => {
    const result = await runCommand(["bundle", "fixtures/bundle/node-fs.ts", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toEqual({
      ok: false,
      error: `Cannot bundle fixtures/bundle/node-fs.ts for on-device: fixtures/bundle/node-fs.ts:2:30: imports "node:fs", a Node built-in that does not exist on-device; ${HOST_ONLY}`,
    });
    const human = await runCommand(["bundle", "fixtures/bundle/node-fs.ts"]);
    expect(human.code).toBe(1);
  });

  test("usage errors exit 2; --help exits 0", async () => {
    expect(await runCommand(["bundle"])).toEqual({
      code: 2,
      out: "",
      err: "error: bundle: name the server file to bundle, e.g. `npx trailblaze bundle tools/login.ts -o login.bundle.js`\n",
    });
    expect((await runCommand(["bundle", "a.ts", "b.ts"])).code).toBe(2);
    expect((await runCommand(["bundle", "--nope"])).code).toBe(2);
    const help = await runCommand(["bundle", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toStartWith("Usage: npx trailblaze bundle <entry.ts> [-o OUT.js] [--json]");
  });
});

describe("bun trailblaze check-bundle", () => {
  test("--json prints {ok, tools, problems}; exit 1 on a problem", async () => {
    const result = await runCommand(["check-bundle", "fixtures/bundle/host-globals.ts", "--json"]);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.out) as { ok: boolean; tools: string[]; problems: { kind: string; source?: string }[] };
    expect(json.ok).toBe(false);
    expect(json.tools).toEqual(["fetch_user", "api_base"]);
    expect(json.problems.map((p) => [p.kind, p.source])).toEqual([
      ["host-global", "fixtures/bundle/host-globals.ts"],
      ["host-global", "fixtures/bundle/host-globals.ts"],
    ]);
  });

  test("human output, exit 0 when clean", async () => {
    const result = await runCommand(["check-bundle", "fixtures/bundle/echo-server.ts"]);
    expect(result).toEqual({
      code: 0,
      out: "✓ fixtures/bundle/echo-server.ts runs on-device: 4 tool(s) (echo, whoami, pixel, open_url)\n",
      err: "",
    });
  });

  test("usage errors exit 2; --help exits 0", async () => {
    expect((await runCommand(["check-bundle"])).code).toBe(2);
    const help = await runCommand(["check-bundle", "-h"]);
    expect(help.code).toBe(0);
    expect(help.out).toStartWith("Usage: npx trailblaze check-bundle <bundle.js|entry.ts|tool.ts> [--json]");
  });

  test("a per-file tool script is checked as the server a session makes of its tools; a sidecar's runtime: subprocess tool is not bundled", async () => {
    expect(await runCommand(["check-bundle", "fixtures/per-file/tools/shop_greet.ts"])).toEqual({
      code: 0,
      out: "✓ fixtures/per-file/tools/shop_greet.ts runs on-device: 1 tool(s) (shop_greet)\n",
      err: "",
    });
    const subprocess = await runCommand(["check-bundle", "fixtures/per-file/tools/shop_writeNote.js", "--json"]);
    expect(subprocess.code).toBe(0);
    expect(JSON.parse(subprocess.out)).toEqual({ ok: true, tools: [], hostOnlyTools: ["shop_writeNote"], problems: [], warnings: [] });
  });

  test("a per-file tool's host-only uses name its own file and the per-file fix, never the generated entry", async () => {
    mkdirSync(join(TMP, "tools"), { recursive: true });
    const header = 'import { trailblaze } from "@trailblaze/scripting";\n';
    const env = author(
      "tools/shop_env.ts",
      `${header}\nexport const shop_env = trailblaze.tool(async () => process.env.HOME ?? "none");\n`,
    );
    const fs = author(
      "tools/shop_fs.ts",
      `${header}import { existsSync } from "node:fs";\n\nexport const shop_fs = trailblaze.tool(async () => String(existsSync("/")));\n`,
    );
    const fix = "Mark the tool that needs the host `requiresHost: true` in its trailblaze.tool spec";
    const envRun = await runCommand(["check-bundle", env, "--json"]);
    expect(envRun.code).toBe(1);
    const envJson = JSON.parse(envRun.out) as { tools: string[]; problems: { kind: string; message: string; source: string }[] };
    expect(envJson.tools).toEqual(["shop_env"]);
    expect(envJson.problems).toEqual([{ kind: "host-global", message: expect.stringContaining(`${env}:3:`), source: env }]);
    expect(envJson.problems[0]!.message).toContain(fix);
    const fsRun = await runCommand(["check-bundle", fs]);
    expect(fsRun.code).toBe(1);
    expect(fsRun.out).toContain(`✗ bundle: Cannot bundle ${fs} for on-device: ${fs}:2:`);
    expect(fsRun.out).toContain(fix);
    expect(fsRun.out).not.toContain("trailblaze-check-bundle-");
  });

  test("a locale the guest ignores is a warning naming the call, exit 0, without the advice to run the tool on the host", async () => {
    mkdirSync(join(TMP, "tools"), { recursive: true });
    const price = author(
      "tools/shop_price.ts",
      'import { trailblaze } from "@trailblaze/scripting";\n\nexport const shop_price = trailblaze.tool(async () => (1234.5).toLocaleString("de-DE"));\n',
    );
    expect(await runCommand(["check-bundle", price])).toEqual({
      code: 0,
      out:
        `✓ ${price} runs on-device: 1 tool(s) (shop_price)\n` +
        `  ! locale: ${price}:3:56: calls toLocaleString("de-DE"), whose locale and options the guest ignores (QuickJS has no Intl): ` +
        "on-device the text differs from the host's; format it without a locale for the same text on both agents\n",
      err: "",
    });
  });
});

test("bundle and check-bundle are commands of the real CLI", async () => {
  const main = await cliProcess(["--help"], { cwd: REPO });
  expect(main.stdout).toContain("\n  bundle ");
  expect(main.stdout).toContain("\n  check-bundle ");
  const run = await cliProcess(["check-bundle", "fixtures/bundle/echo-server.ts"], { cwd: REPO });
  expect(run).toEqual({
    code: 0,
    stdout: "✓ fixtures/bundle/echo-server.ts runs on-device: 4 tool(s) (echo, whoami, pixel, open_url)\n",
    stderr: "",
  });
});
