// Per-file tools (`tools:` in a target, `export const name = trailblaze.tool(…)` under tools/):
// served by generated servers in QuickJS (the default runtime, with either agent) and as a bun
// subprocess (`runtime: subprocess`), with schemas from the input type, the spec or a sidecar,
// and `ctx.tools` giving the same results with the host and the on-device agent.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";
import { serve } from "./support/mcp-serve.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

// Inside the repository, so the tools resolve its node_modules (@trailblaze/scripting).
const dir = workspaceCopy(join(REPO, "fixtures/per-file"), "per-file-tools");
const TARGET = join(dir, "trailblaze-config/targets/shop.yaml");

interface Listed {
  tools: { name: string; source: string; transport: string; description?: string; inputSchema?: unknown }[];
  skipped: { name: string; source: string; reason: string; detail: string }[];
}

async function tools(...args: string[]): Promise<Listed> {
  const run = await cli(["tools", "--json", ...args], { cwd: dir });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Listed;
}

interface Report {
  summary: { passed: number; failed: number };
  trails: { status: string; steps: { tools: { name: string; result: unknown }[] }[] }[];
}

async function runTrails(agent: "host" | "on-device"): Promise<Report> {
  const run = await cli(["run", "trails", "--reporter", "json", "--agent", agent], { cwd: dir });
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

describe("per-file tools", () => {
  test("are listed with descriptions and schemas from the doc comment and input type, the spec, or the sidecar", async () => {
    const listed = await tools();
    const byName = new Map(listed.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("shop_greet")).toMatchObject({
      source: "per-file tools (QuickJS)",
      transport: "quickjs",
      description: "Greets someone and remembers whom.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "Who to greet." },
          loud: { type: "boolean", description: "Shout the greeting." },
        },
        required: ["name"],
      },
    });
    expect(byName.get("shop_countItems")).toMatchObject({
      description: "Counts the items of a cart",
      inputSchema: { type: "object", properties: { items: { type: "array", items: { type: "string" } } }, required: ["items"] },
    });
    expect(byName.get("shop_writeNote")).toMatchObject({
      source: "per-file tools (subprocess)",
      transport: "stdio",
      description: "Writes a note into the system temp folder and says where.",
      inputSchema: { type: "object", properties: { text: { type: "string" }, file: { type: "string" } }, required: ["text"] },
    });
  });

  test("a tool calling others through ctx.tools gives identical results with the host and the on-device agent; memory changes apply once", async () => {
    const [host, device] = await Promise.all([runTrails("host"), runTrails("on-device")]);
    expect(host.summary).toMatchObject({ passed: 1, failed: 0 });
    const calls = (report: Report) => report.trails[0]!.steps.flatMap((step) => step.tools.map(({ name, result }) => ({ name, result })));
    expect(calls(device)).toEqual(calls(host));
    expect(calls(host)[0]).toEqual({
      name: "shop_checkout",
      result: expect.objectContaining({
        status: "success",
        structuredContent: {
          greeting: "hello Ada from com.example.shop",
          count: "2 item(s)",
          assertion: '"2 item(s)" equals "2 item(s)"',
          platform: "android",
        },
      }),
    });
  });

  test("runtime: subprocess runs as a bun subprocess with the host agent; on-device it is skipped by name, and a call says why", async () => {
    const file = `trailblaze-per-file-${process.pid}.txt`;
    const called = await cli(["call", "shop_writeNote", "--json", "--args", JSON.stringify({ text: "hi", file })], { cwd: dir });
    expect(called.code).toBe(0);
    expect(readFileSync(join(tmpdir(), file), "utf8")).toBe("hi (android)");
    rmSync(join(tmpdir(), file));
    const onDevice = await tools("--agent", "on-device");
    expect(onDevice.tools.map((tool) => tool.name)).toContain("shop_greet");
    expect(onDevice.skipped.filter((s) => s.source !== "builtin")).toEqual([
      {
        name: "shop_writeNote",
        source: "per-file tools (subprocess)",
        reason: "trailblaze/requiresHost",
        detail: "a per-file tool that runs as a host subprocess (runtime: subprocess, or requiresHost: true in its spec)",
      },
    ]);
    const refused = await cli(["call", "shop_writeNote", "--agent", "on-device", "--args", '{"text":"hi"}'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'error: call: shop_writeNote is host-only (_meta["trailblaze/requiresHost"] of per-file tools (subprocess)) and not registered in this on-device session; call it with --agent host',
    );
    const served = await serve(["--agent", "on-device", "--no-logging"], { cwd: dir });
    try {
      expect(await served.client.callTool({ name: "shop_writeNote", arguments: { text: "hi" } })).toMatchObject({
        isError: true,
        content: [
          {
            type: "text",
            text: expect.stringContaining(
              'Tool "shop_writeNote" (per-file tools (subprocess)) is not available in this session: excluded by _meta["trailblaze/requiresHost"]',
            ),
          },
        ],
      });
    } finally {
      await served.close();
    }
  });

  test("a tool that imports node:fs: requiresHost in its spec runs it on the host and skips it on-device; unmarked, the host still runs it, and on-device only it fails, saying what to change", async () => {
    const original = readFileSync(TARGET, "utf8");
    const file = join(dir, "tools/shop_hostname.ts");
    const source = (spec: string) =>
      `import { trailblaze } from "@trailblaze/scripting";\nimport { existsSync } from "node:fs";\n\n` +
      `export const shop_hostname = trailblaze.tool(${spec}async () => (existsSync("/") ? "root exists" : "no root"));\n`;
    writeFileSync(TARGET, original.replace("tools:\n", "tools:\n  - shop_hostname\n"));
    try {
      writeFileSync(file, source('{ description: "Looks at the host file system.", requiresHost: true }, '));
      const marked = await cli(["call", "shop_hostname"], { cwd: dir });
      expect(marked.stdout).toContain("root exists");
      expect(marked.code).toBe(0);
      const onDevice = await tools("--agent", "on-device");
      expect(onDevice.tools.map((tool) => tool.name)).toContain("shop_greet");
      expect(onDevice.skipped.find((s) => s.name === "shop_hostname")).toMatchObject({ reason: "trailblaze/requiresHost" });

      writeFileSync(file, source(""));
      const host = await cli(["call", "shop_hostname"], { cwd: dir });
      expect(host.code).toBe(0);
      expect(host.stdout).toContain("root exists");
      expect(host.stderr).toContain("This host session runs them as a bun subprocess instead");
      // On-device the other per-file tools still run; the one that needs the host fails when called, saying why.
      const device = await cli(["call", "shop_greet", "--agent", "on-device", "--args", '{"name":"Ada"}'], { cwd: dir });
      expect(device.code).toBe(0);
      expect(device.stdout).toContain("hello Ada");
      expect(device.stderr).toContain(
        'note: shop_hostname cannot run on-device: tools/shop_hostname.ts:2:28: imports "node:fs", a Node built-in that does not exist on-device. ' +
          "Calling it in this session fails with that reason; the other per-file tools run as usual.\n" +
          "Mark the tool that needs the host `requiresHost: true` in its trailblaze.tool spec",
      );
      expect(device.stderr).not.toContain(".cache/trailblaze-tools");
      const refused = await cli(["call", "shop_hostname", "--agent", "on-device"], { cwd: dir });
      expect(refused.code).toBe(1);
      expect(refused.stdout + refused.stderr).toContain(
        'shop_hostname cannot run on-device: tools/shop_hostname.ts:2:28: imports "node:fs"',
      );
    } finally {
      writeFileSync(TARGET, original);
      rmSync(file, { force: true });
    }
  });

  test("arguments are checked against the schema; a thrown error is the step's message", async () => {
    const wrong = await cli(["call", "shop_greet", "--args", JSON.stringify({ loud: "yes" })], { cwd: dir });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout + wrong.stderr).toContain("shop_greet: invalid arguments");
    const thrown = await cli(["call", "shop_countItems", "--args", JSON.stringify({ items: [] })], { cwd: dir });
    expect(thrown.code).toBe(1);
    expect(thrown.stdout + thrown.stderr).toContain("the cart is empty");
  });

  test("the tool files and their tests type-check in their own workspace's tsconfig", () => {
    const tsc = Bun.spawnSync([join(REPO, "node_modules/.bin/tsc"), "--noEmit", "-p", join(REPO, "fixtures/per-file")], { stderr: "pipe" });
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
    expect(tsc.exitCode).toBe(0);
  });

  test("a name no file declares, and an input type with no schema, are errors at the target's line with the fix", async () => {
    const original = readFileSync(TARGET, "utf8");
    try {
      writeFileSync(TARGET, original.replace("  - shop_countItems\n", "  - shop_countItem\n"));
      const missing = await cli(["tools"], { cwd: dir });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("trailblaze-config/targets/shop.yaml:9:5 tools: tool shop_countItem not found under");
      expect(missing.stderr).toContain('did you mean "shop_countItems"?');
      expect(missing.stderr).toContain("write it as `export const shop_countItem = trailblaze.tool(…)`");
    } finally {
      writeFileSync(TARGET, original);
    }
    const odd = join(dir, "tools/shop_odd.ts");
    writeFileSync(
      odd,
      'import { trailblaze } from "@trailblaze/scripting";\nexport const shop_odd = trailblaze.tool<NotDeclaredAnywhere>(async () => "ok");\n',
    );
    writeFileSync(TARGET, original.replace("tools:\n", "tools:\n  - shop_odd\n"));
    try {
      const underivable = await cli(["tools"], { cwd: dir });
      expect(underivable.code).toBe(2);
      expect(underivable.stderr).toContain("tools: tool shop_odd: its input type in tools/shop_odd.ts cannot be turned into a JSON Schema");
      expect(underivable.stderr).toContain("give inputSchema in its trailblaze.tool spec or a shop_odd.yaml sidecar");
      expect(existsSync(join(dir, "tools", ".trailblaze-schema-"))).toBe(false);
    } finally {
      writeFileSync(TARGET, original);
      rmSync(odd);
    }
  });
});
