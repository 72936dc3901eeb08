// One exit-code rule across commands: the failure's error class decides, whichever command met it.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";
import { processesMentioning } from "./support/faults.ts";

const FAULTS = join(REPO, "fixtures/faults");
const TRAIL = join(REPO, "fixtures/exit-codes/trails/any.trail.yaml");

describe("a server that crashes at start", () => {
  test("is exit 1 for run, tools and call alike, though no step ran", async () => {
    const run = await cli(["run", TRAIL, "--target", "crashInit"], { cwd: FAULTS });
    const tools = await cli(["tools", "--target", "crashInit"], { cwd: FAULTS });
    const call = await cli(["call", "assertEquals", "--target", "crashInit", "--args", '{"actual":1,"expected":1}'], { cwd: FAULTS });
    expect([run.code, tools.code, call.code]).toEqual([1, 1, 1]);
    expect(tools.stderr).toContain("during startup (initialize/tools/list)");
  });
});

describe("a server that cannot be bundled for on-device", () => {
  test("is exit 1 for run, tools and call alike, and the message names the import and the fix", async () => {
    const flags = ["--target", "crashCall", "--agent", "on-device", "--no-logging"];
    const run = await cli(["run", TRAIL, ...flags], { cwd: FAULTS });
    const tools = await cli(["tools", ...flags], { cwd: FAULTS });
    const call = await cli(["call", "assertEquals", ...flags, "--args", '{"actual":1,"expected":1}'], { cwd: FAULTS });
    expect([run.code, tools.code, call.code]).toEqual([1, 1, 1]);
    expect(run.stdout).toContain("0 passed, 0 failed, 1 error");
    expect(tools.stderr).toContain('servers/crash-in-call.ts:3:32: imports "node:fs"');
    expect(tools.stderr).toContain("add `requiresHost: true` to trailblaze-config/targets/crashCall.yaml:3:5 mcp_servers[0]");
  });
});

describe("a configuration problem", () => {
  test("is exit 2 for run, tools and call alike", async () => {
    const run = await cli(["run", TRAIL, "--target", "noSuchTarget"], { cwd: FAULTS });
    const tools = await cli(["tools", "--target", "noSuchTarget"], { cwd: FAULTS });
    const call = await cli(["call", "assertEquals", "--target", "noSuchTarget"], { cwd: FAULTS });
    expect([run.code, tools.code, call.code]).toEqual([2, 2, 2]);
  });
});

describe("a file that does not exist", () => {
  test("is exit 2 for bundle and check-bundle (a usage error, not a failed build)", async () => {
    const bundle = await cli(["bundle", "missing.ts"], { cwd: FAULTS });
    const check = await cli(["check-bundle", "missing.ts"], { cwd: FAULTS });
    expect([bundle.code, check.code]).toEqual([2, 2]);
    expect(bundle.stderr).toBe(`error: bundle: missing.ts: file not found (resolved against ${FAULTS})\n`);
  });
});

describe("a server that never connects its MCP transport", () => {
  const NEVER = join(REPO, "fixtures/never-connects");
  test.each(["ends", "stays"])(
    "(%s running) is exit 2 with either agent, for run and tools alike: it never answered the handshake",
    async (target) => {
      const codes: Record<string, number[]> = {};
      for (const agent of ["host", "on-device"]) {
        const flags = ["--target", target, "--agent", agent, "--no-logging"];
        const options = { cwd: NEVER, env: { TRAILBLAZE_HANDSHAKE_TIMEOUT_MS: "1500" } };
        const run = await cli(["run", TRAIL, ...flags], options);
        const tools = await cli(["tools", ...flags], options);
        codes[agent] = [run.code, tools.code];
        expect(tools.stderr).toContain("server.connect(new StdioServerTransport())");
      }
      expect(codes).toEqual({ host: [2, 2], "on-device": [2, 2] });
      expect(processesMentioning("-unconnected.ts")).toEqual([]);
    },
  );
});
