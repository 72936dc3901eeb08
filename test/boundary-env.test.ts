// What a host tool server is handed of the CLI's environment: an allow-list (the SDK's, and TMPDIR),
// the TRAILBLAZE_* contract and what its entry's env: names; never an unrelated credential, nor the
// variable a --secret was read from unless env: names it. Real sessions through the CLI, with
// fixtures/boundary-env's probe, run as a script: server and as a command: server.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseTargetConfig } from "../src/config/target-config.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const WORKSPACE = join(REPO, "fixtures/boundary-env");
const TRAIL = "trails/report-env.trail.yaml";
const FAKE_KEY = "fake-api-key-7f3a9c";
const TOKEN = "token-from-the-environment-51d2";

/** What the CLI's environment holds besides the usual: an unrelated credential, a --secret's source, a variable env: names. */
const CLI_ENV = { FAKE_API_KEY: FAKE_KEY, API_TOKEN: TOKEN, BOUNDARY_NAMED: "named-value", TRAILBLAZE_NAMING_WARNINGS: "off" };

/**
 * Names a server may see: the SDK's allow-list, TMPDIR, NODE_PATH for a script, the contract, what
 * env: names, and what bun sets in its own process for `bun run --no-orphans` (how scripts run).
 */
const ALLOWED =
  /^(HOME|LOGNAME|PATH|SHELL|TERM|USER|TMPDIR|NODE_PATH|TRAILBLAZE_[A-Z_]+|BOUNDARY_NAMED|BOUNDARY_LITERAL|API_TOKEN|BUN_FEATURE_FLAG_NO_ORPHANS)$/;

interface Seen {
  code: number;
  stdout: string;
  stderr: string;
  env: Record<string, string>;
  callLog: string;
}

/** Runs the probe's trail on `target` with `--secret API_TOKEN`, and reads what the probe saw from calls.jsonl. */
async function probe(target: string, id: string, env: Record<string, string | undefined> = CLI_ENV, more: string[] = []): Promise<Seen> {
  const logs = tempDir("boundary-env-logs");
  const run = await cli(["run", TRAIL, "--target", target, "--secret", "API_TOKEN", ...more, "--session-id", id, "--logs", logs], {
    cwd: WORKSPACE,
    env,
  });
  let callLog = "";
  try {
    callLog = readFileSync(join(logs, id, "calls.jsonl"), "utf8");
  } catch {
    // No call was made: run.stderr says why.
  }
  const line = callLog.split("\n").find((text) => text.includes('"boundary_reportEnv"'));
  const structured =
    line === undefined ? undefined : (JSON.parse(line) as { structuredContent?: { env: Record<string, string> } }).structuredContent;
  return { code: run.code, stdout: run.stdout, stderr: run.stderr, env: structured?.env ?? {}, callLog };
}

describe("a host server's environment", () => {
  for (const [kind, target] of [
    ["script", "scriptEnv"],
    ["command", "commandEnv"],
  ] as const) {
    test(`${kind}: neither an unrelated credential nor the --secret's source variable; the allow-list, the contract and env:`, async () => {
      const seen = await probe(target, `env-${kind}`);
      expect(seen.stderr).toBe("");
      expect(seen.code).toBe(0);
      expect(seen.env.FAKE_API_KEY).toBeUndefined();
      expect(seen.env.API_TOKEN).toBeUndefined();
      expect(seen.env.PATH).toBe(TEST_PATH);
      if (process.env.HOME !== undefined) expect(seen.env.HOME).toBe(process.env.HOME);
      expect(seen.env).toMatchObject({
        TRAILBLAZE_DEVICE_PLATFORM: "ANDROID",
        TRAILBLAZE_DEVICE_DRIVER: "android-ondevice-accessibility",
        TRAILBLAZE_SESSION_ID: `env-${kind}`,
        BOUNDARY_NAMED: "named-value",
        BOUNDARY_LITERAL: "plain",
      });
      if (kind === "script") expect(seen.env.TRAILBLAZE_TOOLSET_FILE).toBe(join(WORKSPACE, "tools/env-probe.ts"));
      else expect(seen.env.TRAILBLAZE_TOOLSET_FILE).toBeUndefined();
      expect(Object.keys(seen.env).filter((name) => !ALLOWED.test(name))).toEqual([]);
      // What the tool returned is in the call log: the credential it never had is not.
      expect(seen.callLog).not.toContain(FAKE_KEY);
      expect(seen.callLog).not.toContain("FAKE_API_KEY");
      expect(seen.callLog).not.toContain(TOKEN);
    });
  }

  test("a --secret's source variable reaches a server whose env: names it, masked in the call log", async () => {
    const seen = await probe("namedSecret", "env-named-secret");
    expect(seen.code).toBe(0);
    expect(seen.env.API_TOKEN).toBe("***");
    expect(seen.env.FAKE_API_KEY).toBeUndefined();
    expect(seen.callLog).not.toContain(TOKEN);
  });

  test("a variable of the allow-list a --secret is read from is not inherited either", async () => {
    const seen = await probe("scriptEnv", "env-secret-term", { ...CLI_ENV, TERM: "term-that-is-a-secret" }, ["--secret", "TERM"]);
    expect(seen.code).toBe(0);
    expect(seen.env.PATH).toBe(TEST_PATH);
    expect(seen.env.TERM).toBeUndefined();
    expect(seen.callLog).not.toContain("term-that-is-a-secret");
  });

  test("a variable env: names that is not set is an error located at the entry, before the server starts", async () => {
    const seen = await probe("scriptEnv", "env-unset", { ...CLI_ENV, BOUNDARY_NAMED: undefined });
    expect(seen.code).toBe(2);
    expect(seen.stdout).toContain(
      "trailblaze-config/targets/scriptEnv.yaml:4:5 mcp_servers[0].env.BOUNDARY_NAMED: ${BOUNDARY_NAMED} is not set in the environment; set it, or give a default: ${BOUNDARY_NAMED:-value}",
    );
    expect(seen.callLog).toBe("");
  });

  test("TRAILBLAZE_RUNTIME, which the CLI reads itself, still chooses the runtime; the server is not handed it", async () => {
    const seen = await probe("scriptEnv", "env-node", { ...CLI_ENV, TRAILBLAZE_RUNTIME: "node", TRAILBLAZE_PRECOMPILE: "0" });
    expect(seen.code).toBe(0);
    expect(seen.env.TRAILBLAZE_RUNTIME).toBeUndefined();
    expect(seen.env.TRAILBLAZE_PRECOMPILE).toBeUndefined();
    expect(seen.env.NODE_PATH).toContain("node_modules");
    expect(seen.env.FAKE_API_KEY).toBeUndefined();
  });
});

describe("env: in a target file", () => {
  test("a script entry may carry env:; a name the environment cannot hold is refused where it is written", () => {
    const ok = parseTargetConfig("t.yaml", "id: app\nmcp_servers:\n  - script: a.ts\n    env: { A: x, B: 1 }\n");
    expect(ok.mcpServers[0]).toMatchObject({ kind: "script", env: { A: "x", B: "1" } });
    expect(() => parseTargetConfig("t.yaml", 'id: app\nmcp_servers:\n  - command: node\n    env: { "A=B": x }\n')).toThrow(
      't.yaml:4:12 mcp_servers[0].env: "A=B" is not an environment variable name (it must be non-empty, without = or NUL), e.g. API_BASE',
    );
  });
});
