// The installed `trailblaze` command (src/cli/launcher.sh) finds the Bun its package installed the
// way Node resolves packages, whatever PATH holds: a stand-in bun records how it was started.
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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

/**
 * Runs `file` (by its #! line, or under `shell`) with PATH set. A launcher that loops (as one did
 * without dirname on PATH, printing `dirname: not found` for ever) is killed after 60 s and fails.
 */
function start(file: string, args: string[], PATH = "/usr/bin:/bin", shell?: string): { code: number; out: string; err: string } {
  const run = Bun.spawnSync([...(shell ? [shell] : []), file, ...args], { env: { PATH }, timeout: 60_000 });
  expect(run.exitedDueToTimeout).toBeFalsy();
  return { code: run.exitCode ?? -1, out: run.stdout.toString(), err: run.stderr.toString() };
}

/** A PATH holding only node (a folder with nothing else in it): no dirname, readlink, head or tr. */
function nodeOnlyPath(): string {
  const dir = tempDir("launcher-path");
  symlinkSync(Bun.which("node")!, join(dir, "node"));
  return dir;
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
  const launcher = layout(
    root,
    "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/trailblaze-ts",
    "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/bun/bin/bun.exe",
  );
  layout(root, "unused", "node_modules/bun/bin/bun.exe");
  expect(start(launcher, ["--version"]).out).toStartWith(
    `${join(root, "node_modules/.pnpm/trailblaze-ts@0.1.0/node_modules/bun/bin/bun.exe")}|`,
  );
});

test("no bun anywhere: exit 2 and what to do", () => {
  const root = tempDir("launcher-none");
  expect(start(layout(root, "node_modules/trailblaze-ts"), ["--help"])).toEqual({
    code: 2,
    out: "",
    err: "error: trailblaze needs Bun, which installs with it: run `npm install` in your project (or put bun on PATH)\n",
  });
});

/** What the `bun` npm package ships as bin/bun.exe (and npm links from .bin/bun), until its postinstall replaces it with Bun. */
const BUN_PLACEHOLDER = `echo "Error: Bun's postinstall script was not run." >&2
echo "" >&2
echo "This occurs when using --ignore-scripts during installation, or when using a" >&2
echo "package manager like pnpm that does not run postinstall scripts by default." >&2
echo "" >&2
echo "To fix this, run the postinstall script manually:" >&2
echo "  cd node_modules/bun && node install.js" >&2
echo "" >&2
echo "Or reinstall bun without the --ignore-scripts flag." >&2
exit 1
`;

test("bun's install script not run (--ignore-scripts, npm 11's allowScripts): exit 2, naming the placeholder and how to approve and run the scripts", () => {
  const root = tempDir("launcher-placeholder");
  layout(root, "node_modules/trailblaze-ts");
  mkdirSync(join(root, "node_modules/bun/bin"), { recursive: true });
  writeFileSync(join(root, "node_modules/bun/bin/bun.exe"), BUN_PLACEHOLDER);
  chmodSync(join(root, "node_modules/bun/bin/bun.exe"), 0o755);
  mkdirSync(join(root, "node_modules/.bin"));
  symlinkSync("../bun/bin/bun.exe", join(root, "node_modules/.bin/bun"));
  symlinkSync("../trailblaze-ts/src/cli/launcher.sh", join(root, "node_modules/.bin/trailblaze"));
  expect(start(join(root, "node_modules/.bin/trailblaze"), ["--help"])).toEqual({
    code: 2,
    out: "",
    err:
      "error: trailblaze needs Bun, and the bun package it installed is not set up: its install script did not run\n" +
      `(npm install --ignore-scripts, or npm 11 skipping install scripts it was not told to allow), so ${join(root, "node_modules/.bin/bun")} is still its placeholder.\n` +
      "Approve and run the install scripts of bun and esbuild, in your project:\n" +
      "  npm install-scripts approve bun esbuild && npm rebuild bun esbuild\n" +
      "(npm 10 and earlier: npm rebuild bun esbuild), or install again without --ignore-scripts.\n",
  });
});

describe("with no coreutils on PATH (only node), it starts or says why, exit 2", () => {
  const shells = ["/bin/sh", "/bin/bash", "/bin/dash"].filter((shell) => existsSync(shell));

  for (const shell of shells) {
    test(`npm's layout, through the .bin symlink, under ${shell}`, () => {
      const root = tempDir("launcher-bare-npm");
      layout(root, "node_modules/trailblaze-ts", "node_modules/bun/bin/bun.exe");
      mkdirSync(join(root, "node_modules/.bin"));
      symlinkSync("../trailblaze-ts/src/cli/launcher.sh", join(root, "node_modules/.bin/trailblaze"));
      const bin = join(root, "node_modules/.bin/trailblaze");
      expect(start(bin, ["run", "my trails"], nodeOnlyPath(), shell)).toEqual({
        code: 0,
        out: `${join(root, "node_modules/bun/bin/bun.exe")}|--no-install|${join(root, "node_modules/trailblaze-ts/src/cli/main.ts")}|run|my trails|${bin}|`,
        err: "",
      });
    });
  }

  test("a global install: prefix/bin/trailblaze into prefix/lib/node_modules, the bun installed with it", () => {
    const root = tempDir("launcher-bare-global");
    layout(root, "lib/node_modules/trailblaze-ts", "lib/node_modules/trailblaze-ts/node_modules/bun/bin/bun.exe");
    mkdirSync(join(root, "bin"));
    symlinkSync("../lib/node_modules/trailblaze-ts/src/cli/launcher.sh", join(root, "bin/trailblaze"));
    expect(start(join(root, "bin/trailblaze"), ["--version"], nodeOnlyPath()).out).toStartWith(
      `${join(root, "lib/node_modules/trailblaze-ts/node_modules/bun/bin/bun.exe")}|--no-install|${join(root, "lib/node_modules/trailblaze-ts/src/cli/main.ts")}|--version|`,
    );
  });

  test("a symlink it cannot follow without readlink: exit 2, naming what to do", () => {
    const root = tempDir("launcher-bare-link");
    const launcher = layout(root, "pkg", "node_modules/bun/bin/bun.exe");
    mkdirSync(join(root, "my/bin"), { recursive: true });
    symlinkSync(launcher, join(root, "my/bin/tb"));
    const path = nodeOnlyPath();
    expect(start(join(root, "my/bin/tb"), ["--help"], path)).toEqual({
      code: 2,
      out: "",
      err:
        `error: trailblaze cannot tell where ${join(root, "my/bin/tb")} leads: it is a symlink, and readlink is not on PATH (${path}) to follow it.\n` +
        "Run the package's src/cli/launcher.sh itself, or put readlink (coreutils) on PATH.\n",
    });
  });

  test("no bun anywhere: exit 2 and what to do", () => {
    const root = tempDir("launcher-bare-none");
    expect(start(layout(root, "node_modules/trailblaze-ts"), ["--help"], nodeOnlyPath())).toEqual({
      code: 2,
      out: "",
      err: "error: trailblaze needs Bun, which installs with it: run `npm install` in your project (or put bun on PATH)\n",
    });
  });

  test("bun's install script not run: told by running the placeholder, exit 2 with the same advice", () => {
    const root = tempDir("launcher-bare-placeholder");
    layout(root, "node_modules/trailblaze-ts");
    mkdirSync(join(root, "node_modules/bun/bin"), { recursive: true });
    writeFileSync(join(root, "node_modules/bun/bin/bun.exe"), BUN_PLACEHOLDER);
    chmodSync(join(root, "node_modules/bun/bin/bun.exe"), 0o755);
    mkdirSync(join(root, "node_modules/.bin"));
    symlinkSync("../trailblaze-ts/src/cli/launcher.sh", join(root, "node_modules/.bin/trailblaze"));
    const result = start(join(root, "node_modules/.bin/trailblaze"), ["--help"], nodeOnlyPath());
    expect(result.code).toBe(2);
    expect(result.err).toStartWith(
      "error: trailblaze needs Bun, and the bun package it installed is not set up: its install script did not run\n" +
        `(npm install --ignore-scripts, or npm 11 skipping install scripts it was not told to allow), so ${join(root, "node_modules/bun/bin/bun.exe")} is still its placeholder.\n`,
    );
  });
});
