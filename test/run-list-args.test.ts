// `run --list` and a trail's args: each declared arg's value and where it came from (--args-file,
// --arg, default), secrets masked, and the arg problems that would stop `run` (exit 2).

import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";

const RUN = join(REPO, "fixtures/run");
const SECRET = "ada-s3cret";

test("an --args-file value is shown as given by the file, an --arg as given by the flag (which wins), the rest as defaults", async () => {
  const args = join(tempDir("list-args"), "ci.yaml");
  writeFileSync(args, "user: ada\n");
  const fromFile = await cli(["run", "trails/required-arg.trail.yaml", "--list", "--args-file", args], { cwd: RUN });
  expect(fromFile.code).toBe(0);
  expect(fromFile.stdout).toContain(`\n  args: user = "ada" (--args-file ${args}), times = 2 (default)\n`);
  const both = await cli(
    ["run", "trails/required-arg.trail.yaml", "--list", "--args-file", args, "--arg", "user=bob", "--arg", "times=3"],
    { cwd: RUN },
  );
  expect(both.stdout).toContain('\n  args: user = "bob" (--arg), times = 3 (--arg)\n');
});

test("a value that is a --secret never prints", async () => {
  const run = await cli(["run", "trails/required-arg.trail.yaml", "--list", "--arg", `user=${SECRET}`, "--secret", `password=${SECRET}`], {
    cwd: RUN,
  });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('\n  args: user = "***" (--arg), times = 2 (default)\n');
  expect(run.stdout + run.stderr).not.toContain(SECRET);
});

test("the arg problems that stop `run` are listed under the trail; exit 2", async () => {
  const run = await cli(["run", "trails/required-arg.trail.yaml", "--list", "--arg", "colour=red"], { cwd: RUN });
  expect(run.code).toBe(2);
  expect(run.stdout).toContain(
    [
      "  args: user (required, not given), times = 2 (default)",
      `  error: arg "colour" not declared in this trail's config.args (it declares times, user); declare it there, or leave it out of --arg and --args-file`,
      '  error: missing required arg "user" (declared in config.args: Who to greet); pass --arg user=VALUE',
      "",
    ].join("\n"),
  );
  expect(run.stdout).toEndWith("\n1 trail file(s) planned; 1 trail(s) would not start: their args.\n");
});

test("a skipped trail lists its args but no problems, as `run` skips it first", async () => {
  const run = await cli(["run", "trails/skipped.trail.yaml", "--list", "--arg", "colour=red"], { cwd: RUN });
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain("error:");
});
