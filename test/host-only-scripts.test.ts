// `requiresHost: true` on an mcp_servers entry: on-device sessions skip the whole script without
// bundling it (and say so), the host runs it; unmarked, `check --agent on-device` reports the
// script with the fix, and the fix works.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { copyFixture } from "./support/workspace-copy.ts";

// Inside the repository, so the servers resolve its node_modules.
mkdirSync(join(REPO, ".cache"), { recursive: true });
const dir = mkdtempSync(join(REPO, ".cache", "host-only-"));
copyFixture(join(REPO, "fixtures/host-only"), dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TARGET = join(dir, "trailblaze-config/targets/notes.yaml");
const HOST_ONLY = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';

describe("a requiresHost: true script", () => {
  test("on-device: tools lists it as skipped; the portable tool works; run passes", async () => {
    const tools = await cli(["tools", "--agent", "on-device", "--json"], { cwd: dir });
    expect(tools.code).toBe(0);
    const listed = JSON.parse(tools.stdout) as {
      tools: { name: string }[];
      skipped: { name: string; source: string; reason: string; detail: string }[];
    };
    expect(listed.tools.map((t) => t.name)).toContain("notes_title");
    expect(listed.tools.map((t) => t.name)).not.toContain("notes_readFixture");
    expect(listed.skipped.filter((s) => s.source !== "builtin")).toEqual([
      {
        name: "*",
        source: "tools/files.ts",
        reason: "requiresHost",
        detail: "host-only script (requiresHost: true); skipped without bundling in this on-device session",
      },
    ]);
    const run = await cli(["run", "trails", "--agent", "on-device", "--logs", tempDir("host-only-logs")], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
  });

  test("host: its tool runs", async () => {
    const call = await cli(["call", "notes_readFixture", "--json"], { cwd: dir });
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({
      tool: "notes_readFixture",
      result: { status: "success", message: "read from the host's disk" },
    });
  });

  test("unmarked: check --agent on-device reports it with the fix, and the fix works", async () => {
    const marked = readFileSync(TARGET, "utf8");
    writeFileSync(TARGET, marked.replace("    requiresHost: true\n", ""));
    try {
      const broken = await cli(["check", "--agent", "on-device", "--json"], { cwd: dir });
      expect(broken.code).toBe(1);
      const bundle = (JSON.parse(broken.stdout) as { findings: { kind: string; message: string }[] }).findings.filter(
        (f) => f.kind === "bundle",
      );
      expect(bundle.map((f) => f.message)).toEqual([
        "Cannot bundle tools/files.ts for on-device:\n" +
          `  tools/files.ts:2:30: imports "node:fs", a Node built-in that does not exist on-device; ${HOST_ONLY}\n` +
          `  tools/files.ts:3:22: imports "node:path", a Node built-in that does not exist on-device; ${HOST_ONLY}\n` +
          "Or, if the whole script needs the host, add `requiresHost: true` to trailblaze-config/targets/notes.yaml:5:5 mcp_servers[1]: on-device sessions then skip it without bundling it.",
      ]);
    } finally {
      writeFileSync(TARGET, marked);
    }
    const fixed = await cli(["check", "--agent", "on-device"], { cwd: dir });
    expect(fixed.stdout).toEndWith("✓ no problems found\n");
    expect(fixed.code).toBe(0);
  });
});
