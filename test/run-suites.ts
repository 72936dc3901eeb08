// What `npm test` runs after lint: two passes of `bun test` and the typecheck, side by side on the
// machine's cores.
//
// - sources: every test file with the CLI as it is in src/, less the command tests;
// - precompiled: the command tests (COMMAND_TESTS) against the precompiled CLI that users run from
//   their second command on (their first runs the sources and leaves the bundle:
//   test/precompiled-cli.test.ts checks that both answer the same);
// - typecheck: `tsc --noEmit -p .`, alongside rather than before the passes: it keeps one core busy
//   for ~25 s, which left the other idle when it ran first.
//
// Each command test runs once, against the CLI users run; the rest of the suite runs from source.
// The first pass's output is shown as it comes; each other's is held until the one before it ends and
// then shown, so each reads whole, with its own summary. The exit status is the first failing one's.
// Both passes get one temporary folder (TMPDIR) for what the tests write there, removed at the end.
//
//   bun test/run-suites.ts                  both passes and the typecheck
//   bun test/run-suites.ts sources          one pass (also: precompiled), no typecheck
//   bun test/run-suites.ts precompiled test/exit-codes.test.ts    a pass's files, narrowed

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The tests of the CLI's commands: they run against the precompiled CLI (test/support/cli.ts). */
export const COMMAND_TESTS = [
  "test/agent-caps.test.ts",
  "test/agent-guard.test.ts",
  "test/agent-run.test.ts",
  "test/agent-unverified.test.ts",
  "test/authoring-forms.test.ts",
  "test/boundary-env.test.ts",
  "test/boundary-floods.test.ts",
  "test/boundary-guest-budget.test.ts",
  "test/boundary-map-page.test.ts",
  "test/boundary-paths.test.ts",
  "test/boundary-reports.test.ts",
  "test/boundary-secrets-property.test.ts",
  "test/boundary-secrets.test.ts",
  "test/bundle-check.test.ts",
  "test/check.test.ts",
  "test/cli-router.test.ts",
  "test/devices-driver.test.ts",
  "test/exit-codes.test.ts",
  "test/faults-abandoned-call.test.ts",
  "test/host-session.test.ts",
  "test/listing-cache.test.ts",
  "test/llm-config-cli.test.ts",
  "test/map-graph-page.test.ts",
  "test/mcp-record.test.ts",
  "test/output-root.test.ts",
  "test/per-file-tools.test.ts",
  "test/readme-examples.test.ts",
  "test/report-browser.test.ts",
  "test/report-screenshots.test.ts",
  "test/report-unverified-browser.test.ts",
  "test/reporters-cli.test.ts",
  "test/run-device-platforms.test.ts",
  "test/run-threads.test.ts",
  "test/run-trails.test.ts",
  "test/screen-cli.test.ts",
  "test/scripting-init-tool.test.ts",
  "test/step-messages.test.ts",
  "test/target-choice.test.ts",
  "test/types-command.test.ts",
  "test/upstream-root.test.ts",
  "test/upstream-sample.test.ts",
  "test/web-trail.test.ts",
];

/** bun test's own per-test timeout for every pass (ms): generous, for a loaded 2-core machine. */
const TIMEOUT_MS = 30_000;

type PassName = "sources" | "precompiled";

const REPO = resolve(import.meta.dir, "..");
const TYPECHECK = [join(REPO, "node_modules/.bin/tsc"), "--noEmit", "-p", REPO];

/** The `bun test` arguments and environment of a pass; `files` narrows it. */
function passOf(name: PassName, files: string[]): { args: string[]; env: Record<string, string> } {
  const common = ["test", "--timeout", String(TIMEOUT_MS)];
  if (name === "precompiled")
    return { args: [...common, ...(files.length > 0 ? files : COMMAND_TESTS)], env: { TRAILBLAZE_TEST_CLI: "precompiled" } };
  return { args: [...common, ...COMMAND_TESTS.map((file) => `--path-ignore-patterns=${file}`), ...files], env: {} };
}

interface Running {
  /** Printed before its output when it is not a pass (a pass's output names it). */
  title?: string;
  child: ReturnType<typeof Bun.spawn>;
  /** Output not shown yet (it is held). */
  held: Uint8Array[];
  /** Shown as it comes. */
  live: boolean;
  /** Resolves when its output has ended. */
  drained: Promise<void>;
}

function startPass(name: PassName, files: string[], live: boolean, tmp: string): Running {
  const { args, env } = passOf(name, files);
  return start([process.execPath, ...args], { ...process.env, ...env, TMPDIR: tmp }, live);
}

function start(argv: string[], env: Record<string, string | undefined>, live: boolean, title?: string): Running {
  // One stream, in the order it was written: stderr (bun test's results) and stdout merged.
  const child = Bun.spawn(["sh", "-c", 'exec "$0" "$@" 2>&1', ...argv], { env, stdin: "ignore", stdout: "pipe" });
  const running: Running = { ...(title ? { title } : {}), child, held: [], live, drained: Promise.resolve() };
  running.drained = (async () => {
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
      if (running.live) process.stdout.write(chunk);
      else running.held.push(chunk);
    }
  })();
  return running;
}

/** Shows a held job's output so far and the rest as it comes. */
function release(running: Running): void {
  if (running.title) process.stdout.write(`\n$ ${running.title}\n`);
  for (const chunk of running.held.splice(0)) process.stdout.write(chunk);
  running.live = true;
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const only = first === "sources" || first === "precompiled" ? first : undefined;
  if (first !== undefined && only === undefined) {
    process.stderr.write(`run-suites: unknown pass "${first}"; say sources or precompiled, or nothing for both\n`);
    return 2;
  }
  const names: PassName[] = only ? [only] : ["sources", "precompiled"];
  // Two passes, not more: on 2 cores, four shards side by side took as long and timed tests out, and
  // a third pass of the files that mostly wait (Chromium, signals) gained nothing (612 s against 617).
  const tmp = mkdtempSync(join(tmpdir(), "trailblaze-suite-"));
  const jobs = names.map((name, i) => startPass(name, rest, i === 0, tmp));
  if (only === undefined) jobs.push(start(TYPECHECK, process.env, false, "tsc --noEmit -p ."));
  // An interrupt reaches bun test through the terminal's process group: this process waits for each job
  // to stop and shows what they wrote. A SIGTERM to this process alone is passed on.
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => {
    for (const job of jobs) job.child.kill("SIGTERM");
  });
  let status = 0;
  for (const job of jobs) {
    release(job);
    const code = await job.child.exited;
    await job.drained;
    if (code !== 0 && status === 0) status = code;
  }
  rmSync(tmp, { recursive: true, force: true });
  return status;
}

// The exit code is set, not forced: output still on its way to a pipe (`npm test | tee`) is written first.
if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
