// A workspace of one's own, as a new user makes it: pack this repository, install the tarball
// into an empty project outside it, `npx trailblaze init`, then run the trail with the host agent,
// on-device and from a subfolder, and the scaffolded tool's own test.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./support/cli.ts";

const work = mkdtempSync(join(tmpdir(), "trailblaze-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command to completion; its output and exit code. */
async function sh(cmd: string[], cwd: string): Promise<{ code: number; out: string }> {
  // PATH without this repository's node_modules/.bin: the project must bring its own bun.
  const PATH = (process.env.PATH ?? "").split(":").filter((dir) => !dir.startsWith(REPO)).join(":");
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, PATH, NO_COLOR: "1", npm_config_update_notifier: "false" }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out: `${stdout}${stderr}` };
}

test("pack, install, init, run on the host, on-device and from trails/, and the tool's test", async () => {
  const pack = await sh(["npm", "pack", "--pack-destination", work, "--silent"], REPO);
  expect(pack.code).toBe(0);
  const tarball = join(work, pack.out.trim().split("\n").at(-1)!);

  const project = join(work, "my-app");
  await sh(["mkdir", "-p", project], work);
  expect((await sh(["npm", "init", "-y"], project)).code).toBe(0);
  const install = await sh(["npm", "install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
  expect(install).toMatchObject({ code: 0 });

  const init = await sh(["npx", "--no-install", "trailblaze", "init", "--target", "myApp"], project);
  expect(init.out).toContain("Wrote trailblaze-config/targets/myApp.yaml  target myApp\n");
  expect(init.code).toBe(0);
  expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).scripts.trails).toBe("trailblaze run trails");

  for (const [args, cwd] of [
    [["run", "trails"], project],
    [["run", "trails", "--agent", "on-device"], project],
    [["run", "hello.trail.yaml"], join(project, "trails")],
  ] as const) {
    const run = await sh(["npx", "--no-install", "trailblaze", ...args], cwd);
    expect({ args, code: run.code }).toEqual({ args, code: 0 });
    expect(run.out).toContain("1 passed, 0 failed (1 trail)");
  }

  const own = await sh(["npx", "--no-install", "bun", "test"], project);
  expect(own.out).toContain(" 0 fail");
  expect(own.code).toBe(0);
}, 240_000);

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
  expect(bad.stderr).toBe('error: init: target id "my_app" must be one lowerCamelCase word (^[a-z][a-zA-Z0-9]*$): it prefixes tool names, <targetId>_<verbNoun>\n');
});
