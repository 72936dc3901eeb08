// The installed `trailblaze` command (src/cli/launcher.sh) finds the Bun its package installed the
// way Node resolves packages, whatever PATH holds: a stand-in bun records how it was started.
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, tempDir } from "./support/cli.ts";

const LAUNCHER = join(REPO, "src/cli/launcher.sh");

/** A package at `pkg` (src/cli/launcher.sh in it) and a stand-in bun at `bunAt` that prints what it got. */
function layout(root: string, pkg: string, bunAt?: string): string {
  mkdirSync(join(root, pkg, "src/cli"), { recursive: true });
  copyFileSync(LAUNCHER, join(root, pkg, "src/cli/launcher.sh"));
  chmodSync(join(root, pkg, "src/cli/launcher.sh"), 0o755);
  if (bunAt) {
    mkdirSync(join(root, bunAt, ".."), { recursive: true });
    writeFileSync(join(root, bunAt), '#!/bin/sh\nprintf "%s|" "$0" "$@" "$TRAILBLAZE_LAUNCHED_AS"\n');
    chmodSync(join(root, bunAt), 0o755);
  }
  return join(root, pkg, "src/cli/launcher.sh");
}

function start(file: string, args: string[]): { code: number; out: string; err: string } {
  const run = Bun.spawnSync([file, ...args], { env: { PATH: "/usr/bin:/bin" } });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

test("npm's layout: the hoisted bun, through the .bin symlink, arguments intact", () => {
  const root = tempDir("launcher-npm");
  layout(root, "node_modules/trailblaze-ts", "node_modules/bun/bin/bun.exe");
  mkdirSync(join(root, "node_modules/.bin"));
  symlinkSync("../trailblaze-ts/src/cli/launcher.sh", join(root, "node_modules/.bin/trailblaze"));
  const bin = join(root, "node_modules/.bin/trailblaze");
  expect(start(bin, ["run", "my trails", "--json"])).toEqual({
    code: 0,
    out: `${join(root, "node_modules/bun/bin/bun.exe")}|--no-install|${join(root, "node_modules/trailblaze-ts/src/cli/main.ts")}|run|my trails|--json|${bin}|`,
    err: "",
  });
});

test("a nested bun (pnpm, or a version conflict) wins over one further up", () => {
  const root = tempDir("launcher-nested");
  const launcher = layout(root, "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/trailblaze-ts", "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/bun/bin/bun.exe");
  layout(root, "unused", "node_modules/bun/bin/bun.exe");
  expect(start(launcher, ["--version"]).out).toStartWith(`${join(root, "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/bun/bin/bun.exe")}|`);
});

test("no bun anywhere: exit 2 and what to do", () => {
  const root = tempDir("launcher-none");
  expect(start(layout(root, "node_modules/trailblaze-ts"), ["--help"])).toEqual({
    code: 2,
    out: "",
    err: "error: trailblaze needs Bun, which installs with it: run `npm install` in your project (or put bun on PATH)\n",
  });
});
