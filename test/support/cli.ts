// Runs the CLI in-process (fast) or as a real `bun src/cli/main.ts` subprocess,
// capturing stdout, stderr and the exit code.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCli as runSourceCli } from "../../src/cli/cli.ts";
import { precompiledCliEntry } from "../../src/cli/precompiled-cli.ts";

export const REPO = resolve(import.meta.dir, "../..");
export const BIN_DIR = join(REPO, "node_modules/.bin");
/** PATH with the repo's bun first, as `bun trailblaze` (a package script) has it. */
export const TEST_PATH = `${BIN_DIR}:${process.env.PATH ?? ""}`;

/**
 * Which CLI the helpers below run: `sources` (cli.ts as it is) or `precompiled` (the bundle users
 * run from their second command on). `npm test` runs the command tests with the precompiled CLI
 * (test/run-suites.ts); a plain `bun test <file>` runs one with the sources.
 */
export const CLI_UNDER_TEST = process.env.TRAILBLAZE_TEST_CLI === "precompiled" ? "precompiled" : "sources";

let precompiled: Promise<typeof runSourceCli> | undefined;
async function runCli(...args: Parameters<typeof runSourceCli>): ReturnType<typeof runSourceCli> {
  if (CLI_UNDER_TEST === "sources") return runSourceCli(...args);
  precompiled ??= precompiledCliEntry().then(async (entry) => ((await import(entry)) as { runCli: typeof runSourceCli }).runCli);
  return (await precompiled)(...args);
}

/**
 * What npm, npx and bun put in the environment of the test run itself says nothing about how a
 * user starts the CLI: left out, so printed commands read `npx trailblaze` (invocation.ts).
 */
const HOW_STARTED = {
  npm_lifecycle_event: undefined,
  npm_command: undefined,
  npm_config_user_agent: undefined,
  TRAILBLAZE_LAUNCHED_AS: undefined,
};

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const temporaries: string[] = [];

/** Removes every folder tempDir made; test/support/preload.ts runs it after the last test. */
export function removeTempDirs(): void {
  for (const dir of temporaries.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary folder, removed after the test run (so repeated runs do not pile up in the temp folder). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  temporaries.push(dir);
  return dir;
}

/** `isTTY`: run as if stdout were a terminal (the list's colours, unless NO_COLOR is set); default false. */
export async function cli(
  argv: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; isTTY?: boolean },
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: options.cwd,
    env: { ...process.env, ...HOW_STARTED, PATH: TEST_PATH, ...options.env },
    isTTY: options.isTTY ?? false,
  });
  return { code, stdout, stderr };
}

/** The environment that makes `bun src/cli/main.ts` run the CLI under test: the sources, or the bundle main.ts finds for them (built here). */
export async function cliUnderTestEnv(): Promise<Record<string, string>> {
  return CLI_UNDER_TEST === "sources" ? { TRAILBLAZE_PRECOMPILE: "0" } : (await precompiledCliEntry(), {});
}

export async function cliProcess(argv: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliRun> {
  const mode = await cliUnderTestEnv();
  const env = { ...process.env, ...HOW_STARTED, PATH: TEST_PATH, NO_COLOR: "1", ...mode, ...options.env };
  // --no-install, as the bin starts it: resolving a workspace's imports never downloads a package.
  const child = Bun.spawn([process.execPath, "--no-install", join(REPO, "src/cli/main.ts"), ...argv], {
    cwd: options.cwd,
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) as Record<string, string>,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}
