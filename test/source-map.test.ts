// Guest stack frames on-device name the author's files, as the host's do (through the on-device
// bundle's source map; the host runs Bun's own map of the precompiled server).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";

const WORKSPACE = join(REPO, "fixtures/source-map");

describe("a server whose start-up throws in a second module", () => {
  test("on-device: the frames name tools/settings.ts:5:30 and tools/broken.ts:7:1", async () => {
    const run = await cli(["tools", "--agent", "on-device"], { cwd: WORKSPACE });
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n");
    expect(lines[0]).toBe(
      'error: QuickJS server "tools/broken.ts" threw while evaluating its bundle: RangeError: port must be positive, got "-1"',
    );
    expect(lines[1]).toMatch(/^ {4}at \S+ \(tools\/settings\.ts:5:30\)$/);
    expect(lines[2]).toBe("    at <anonymous> (tools/broken.ts:7:1)");
  });

  test("host: the same positions, and the function's own name", async () => {
    const run = await cli(["tools", "--agent", "host"], { cwd: WORKSPACE });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`at readPort (${join(WORKSPACE, "tools/settings.ts")}:5:30)`);
    // The top level's own frame: "at <anonymous> (file:7:1)" in the bytecode form a server started often gets (src/bundle/bytecode.ts).
    expect(run.stderr).toContain(`${join(WORKSPACE, "tools/broken.ts")}:7:1`);
  });
});
