// Floods at the boundary of what a session writes, through the CLI as users run it: a host tool
// that prints a secret right where a long stderr line is cut, host tools that flood stderr and MCP
// log messages, an on-device tool that floods its console. Every log file stops at its cap with a
// note of the cut, no line is cut before it is masked, and the CLI's memory stays near its usual.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_LOG_MAX_BYTES } from "../src/core/capped-log-file.ts";
import { cliUnderTestEnv, REPO, TEST_PATH, tempDir } from "./support/cli.ts";
import { eventually } from "./support/eventually.ts";
import { processesMentioning } from "./support/faults.ts";

const WORKSPACE = join(REPO, "fixtures/boundary-floods");
const MiB = 1024 * 1024;
/** A generous bound on the CLI's peak memory under a flood (its usual is ~300 MB). */
const MAX_RSS = 600 * 1000 * 1000;
/** What a note of a cut adds to a capped file. */
const NOTE = 1024;
const SECRET = "Zq7-s3cr3t-token-Hv2";
const STDERR_LOG = "subprocess_stderr_tools_host-floods.log";
const SERVER_LOG = "server_log_tools_host-floods.jsonl";
const CONSOLE_LOG = "quickjs_console_tools_console-floods.log";
const PROCESS_TIMEOUT_MS = 60_000;

interface Launched {
  code: number;
  output: string;
  /** Peak resident memory of the CLI process, in bytes. */
  maxRss: number;
  /** The session's logs folder. */
  logs: string;
}

/** Runs the CLI under test (sources or precompiled) in the fixture workspace, as a process, with a fresh logs folder. */
async function launch(argv: string[], env: Record<string, string> = {}): Promise<Launched> {
  const logsRoot = tempDir("floods-logs");
  const child = Bun.spawn([process.execPath, "--no-install", join(REPO, "src/cli/main.ts"), ...argv, "--logs", logsRoot], {
    cwd: WORKSPACE,
    env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", ...(await cliUnderTestEnv()), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  // The child's own peak, read from /proc while it runs (VmHWM only grows): the rusage Bun gives for a
  // child reports the largest of every child the test process has had, not this one's.
  let maxRss = 0;
  const watch = setInterval(() => (maxRss = Math.max(maxRss, peakRss(child.pid))), 20);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]).finally(() => clearInterval(watch));
  const sessions = readdirSync(logsRoot);
  expect(sessions.length).toBe(1);
  // No server outlives the CLI.
  expect(await eventually(() => processesMentioning("boundary-floods/tools").length === 0)).toBe(true);
  return { code, output: stdout + stderr, maxRss, logs: join(logsRoot, sessions[0]!) };
}

/** The peak resident memory of process `pid` so far, in bytes (0 once it is gone). */
function peakRss(pid: number): number {
  try {
    const kB = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kB === undefined ? 0 : Number(kB) * 1024;
  } catch {
    return 0;
  }
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

test(
  "a secret right after 1 MiB - 6 bytes of a stderr line leaves no prefix of it in the stderr log or the failure's tail",
  async () => {
    const run = await launch(["run", "trails/leak.trail.yaml", "--secret", `apiToken=${SECRET}`]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("MCP server tools/host-floods.ts exited with code 1");
    // The tail shows the short line's end, masked.
    expect(run.output).toContain(`${"y".repeat(20)}***`);
    const log = readFileSync(join(run.logs, STDERR_LOG), "utf8");
    const prefixes = [...SECRET].map((_, i) => SECRET.slice(0, i + 1)).filter((prefix) => prefix.length > 2);
    for (const prefix of prefixes) {
      expect({ prefix, inLog: log.includes(prefix), inOutput: run.output.includes(prefix) }).toEqual({
        prefix,
        inLog: false,
        inOutput: false,
      });
    }
    // The long line is masked whole, then kept (it is under 1 MiB once masked).
    expect(log).toStartWith(`${"x".repeat(MiB - 6)}***\n`);
  },
  PROCESS_TIMEOUT_MS,
);

describe("host tools that flood stderr (64 MiB, the last 16 MiB one endless line) and MCP log messages (64 MiB)", () => {
  let run: Launched;
  beforeAll(async () => {
    run = await launch(["run", "trails/host-floods.trail.yaml"]);
  }, PROCESS_TIMEOUT_MS);

  test("the trail passes, the CLI's memory stays bounded, and the session writes at most a cap per flooded file", () => {
    expect(run.code).toBe(0);
    expect(run.maxRss).toBeGreaterThan(20 * 1000 * 1000); // measured at all
    expect(run.maxRss).toBeLessThan(MAX_RSS);
    expect(folderBytes(run.logs)).toBeLessThan(2 * (DEFAULT_LOG_MAX_BYTES + NOTE) + 64 * 1024);
  });

  test("the stderr log stops at the cap, with a note of what it did not write", () => {
    const file = join(run.logs, STDERR_LOG);
    expect(statSync(file).size).toBeLessThan(DEFAULT_LOG_MAX_BYTES + NOTE);
    const last = readFileSync(file, "utf8").trimEnd().split("\n").at(-1);
    expect(last).toMatch(
      /^\[trailblaze\] … stderr log cut at 32 MiB: \d+ more bytes \(\d+ lines\) not written \(TRAILBLAZE_LOG_MAX_BYTES\)$/,
    );
  });

  test("the server log stops at the cap, each line JSON, the last the note of the cut", () => {
    const file = join(run.logs, SERVER_LOG);
    expect(statSync(file).size).toBeLessThan(DEFAULT_LOG_MAX_BYTES + NOTE);
    const lines = readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ server: "tools/host-floods.ts", level: "info", logger: "floods" });
    expect(lines.at(-1)).toMatchObject({
      server: "tools/host-floods.ts",
      trailblaze: expect.stringMatching(
        /^… server log cut at 32 MiB: \d+ more bytes \(\d+ lines\) not written \(TRAILBLAZE_LOG_MAX_BYTES\)$/,
      ),
    });
  });
});

test(
  "an on-device tool that logs 256 console lines of 1 MiB: the console log stops at TRAILBLAZE_LOG_MAX_BYTES with its note, and memory stays bounded",
  async () => {
    const run = await launch(["run", "trails/console-flood.trail.yaml", "--agent", "on-device"], { TRAILBLAZE_LOG_MAX_BYTES: "8MiB" });
    expect(run.code).toBe(0);
    expect(run.maxRss).toBeGreaterThan(20 * 1000 * 1000); // measured at all
    expect(run.maxRss).toBeLessThan(MAX_RSS);
    const file = join(run.logs, CONSOLE_LOG);
    expect(statSync(file).size).toBeLessThan(8 * MiB + NOTE);
    expect(folderBytes(run.logs)).toBeLessThan(8 * MiB + 64 * 1024);
    const last = readFileSync(file, "utf8").trimEnd().split("\n").at(-1);
    expect(last).toMatch(
      /^\[trailblaze\] … console log cut at 8 MiB: \d+ more bytes \(\d+ lines\) not written \(TRAILBLAZE_LOG_MAX_BYTES\)$/,
    );
  },
  PROCESS_TIMEOUT_MS,
);
