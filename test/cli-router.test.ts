// The router (src/cli/cli.ts): unknown commands, the main help in the user's words.
import { expect, test } from "bun:test";
import { cli, REPO } from "./support/cli.ts";

test("an unknown command is a usage error that names the closest command", async () => {
  const run = await cli(["tool", "--json"], { cwd: REPO });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toStartWith(
    'error: unknown command "tool"; did you mean "tools" or "init-tool"?\n\nUsage: npx trailblaze <command> [options]\n',
  );
  const far = await cli(["frobnicate"], { cwd: REPO });
  expect(far.stderr).toStartWith('error: unknown command "frobnicate"\n\n');
});

test("the main help speaks the way the CLI was started", async () => {
  const bunx = await cli(["--help"], {
    cwd: REPO,
    env: { npm_command: "exec", npm_lifecycle_event: "bunx", npm_config_user_agent: "bun/1.4.5 npm/? node/v26.3.0 linux x64" },
  });
  expect(bunx.code).toBe(0);
  expect(bunx.stdout).toStartWith("Usage: bunx trailblaze <command> [options]\n");
  expect(bunx.stdout).toContain("Run `bunx trailblaze <command> --help` for a command's options.\n");
});

test("the README's command table names every command", async () => {
  const { COMMANDS } = await import("../src/cli/cli.ts");
  const table = (await Bun.file(`${REPO}/README.md`).text()).split("## Commands")[1]!.split("\n## ")[0]!;
  const named = new Set([...table.matchAll(/`(?:npx trailblaze )?([a-z-]+)[` ]/g)].map((m) => m[1]));
  expect(COMMANDS.map((c) => c.name).filter((name) => !named.has(name))).toEqual([]);
});
