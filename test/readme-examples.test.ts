// docs/writing-tools.md is executable: every code block is a file under fixtures/scripting/examples
// or fixtures/per-file (byte for byte), every `$ npx trailblaze …` transcript is replayed with its
// output compared, and every example tool runs in both agent modes with the same results.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { isSuccess, type ToolResult } from "../src/core/tool-result.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const EXAMPLES = join(REPO, "fixtures/scripting/examples");
const logs = tempDir("readme-logs");

function section(): string {
  return readFileSync(join(REPO, "docs/writing-tools.md"), "utf8");
}

interface Block {
  lang: string;
  body: string;
  /** From a `<!-- file: path -->` line right above the fence. */
  file?: string;
}

function blocks(text: string): Block[] {
  const found: Block[] = [];
  for (const match of text.matchAll(/(?:<!-- file: (\S+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)) {
    found.push({ lang: match[2]!, body: `${match[3]!}\n`, ...(match[1] ? { file: match[1] } : {}) });
  }
  return found;
}

/** Splits a shell command line: words, '…' and "…" quoting (enough for the docs). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Timings and the generated logs folder vary between runs. */
function normalize(output: string): string {
  return output
    .replace(/\(\d+(\.\d+)? m?s\)/g, "(TIME)")
    .replace(/ in \d+(\.\d+)? m?s\b/g, " in TIME")
    .replace(/ logs \S+/g, " logs DIR");
}

describe("docs/writing-tools.md", () => {
  test("every ts/yaml block is a file under fixtures/scripting/examples or fixtures/per-file, byte for byte", () => {
    const code = blocks(section()).filter((b) => b.lang === "ts" || b.lang === "yaml");
    expect(code.length).toBe(12);
    for (const block of code) {
      expect(block.file).toMatch(/^fixtures\/(scripting\/examples|per-file)\//);
      expect({ file: block.file, body: block.body }).toEqual({ file: block.file, body: readFileSync(join(REPO, block.file!), "utf8") });
    }
    expect(blocks(section()).every((b) => ["ts", "yaml", "sh"].includes(b.lang))).toBe(true);
  });

  test("every `$ npx trailblaze` transcript prints what the page shows", async () => {
    const transcripts = blocks(section())
      .filter((b) => b.lang === "sh" && b.body.startsWith("$ "))
      .flatMap((b) => b.body.split(/^\$ /m).filter(Boolean))
      .map((chunk) => {
        const [command, ...output] = chunk.split("\n");
        return { command: command!, output: output.join("\n") };
      });
    expect(transcripts.length).toBe(5);
    for (const { command, output } of transcripts) {
      const [npx, trailblaze, ...argv] = shellWords(command);
      expect([npx, trailblaze]).toEqual(["npx", "trailblaze"]);
      const run = await cli([...argv, "--logs", logs], { cwd: EXAMPLES });
      expect({ command, stdout: normalize(run.stdout), stderr: run.stderr }).toEqual({ command, stdout: normalize(output), stderr: "" });
    }
  });

  test("each init-tool command creates the files the page names", async () => {
    const commands = blocks(section()).filter((b) => b.lang === "sh" && b.body.includes("init-tool")).map((b) => b.body.trim());
    expect(commands).toEqual(["npx trailblaze init-tool applyCoupon --target myapp", "npx trailblaze init-tool applyCoupon --target myapp --server"]);
    const named = {
      perFile: ["tools/myapp/myapp_applyCoupon.ts", "tools/myapp/myapp_applyCoupon.test.ts"],
      server: ["tools/myapp/applyCoupon.ts", "tools/myapp/applyCoupon.test.ts", "trailblaze-config/toolsets/myapp_applyCoupon.yaml"],
    };
    for (const [command, files, listed] of [
      [commands[0]!, named.perFile, "tools:\n  - myapp_applyCoupon\n"],
      [commands[1]!, named.server, "- script: ./tools/myapp/applyCoupon.ts"],
    ] as const) {
      const ws = join(tempDir("readme-init"), "ws");
      cpSync(EXAMPLES, ws, { recursive: true });
      symlinkSync(join(REPO, "node_modules"), join(ws, "node_modules"));
      const run = await cli(shellWords(command).slice(2), { cwd: ws });
      expect({ command, code: run.code, stderr: run.stderr }).toEqual({ command, code: 0, stderr: "" });
      for (const file of files) {
        expect(section()).toContain(`\`${file}\``);
        expect(existsSync(join(ws, file))).toBe(true);
      }
      expect(readFileSync(join(ws, "trailblaze-config/targets/myapp.yaml"), "utf8")).toContain(listed);
    }
  });
});

describe("the example tools", () => {
  const opened: Session[] = [];
  let backend: ReturnType<typeof Bun.serve>;
  const created: string[] = [];

  beforeAll(() => {
    backend = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const { email } = (await request.json()) as { email: string };
        created.push(email);
        return new URL(request.url).pathname === "/users" ? Response.json({ id: `u${created.length}` }) : new Response("", { status: 404 });
      },
    });
  });

  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await backend.stop(true);
  });

  async function start(agent: "host" | "on-device", flags: SessionFlags = {}): Promise<Session> {
    const workspace = await loadWorkspace(await findConfigDir({ cwd: EXAMPLES }), { cwd: EXAMPLES });
    const env = { ...process.env, PATH: TEST_PATH, MYAPP_API: `http://127.0.0.1:${backend.port}` };
    const spec = resolveSessionSpec(workspace, { logs, ...flags, agent }, { cwd: EXAMPLES, env });
    const session = await Session.start(spec, {});
    opened.push(session);
    return session;
  }

  async function calls(agent: "host" | "on-device", flags: SessionFlags, steps: [string, Record<string, unknown>][]): Promise<ToolResult[]> {
    const session = await start(agent, flags);
    const results: ToolResult[] = [];
    for (const [tool, args] of steps) {
      const result = await session.call(tool, args);
      results.push(result);
    }
    await session.close();
    return results;
  }

  test("portable examples give the same results in both modes", async () => {
    const steps: [string, Record<string, unknown>][] = [
      ["myapp_makeTestEmail", { name: " Grace  Hopper ", domain: "example.org" }],
      ["myapp_pickTestAccount", {}],
      ["myapp_describeDevice", { verbose: true }],
      ...["SAVE10", "EXPIRED", "OFFLINE", "BOOM", "NOPE"].map((code): [string, Record<string, unknown>] => ["myapp_redeemCoupon", { code }]),
      ["myapp_redeemCoupon", {}],
    ];
    const flags = { driver: "ios-host", screen: "1170x2532", memory: ["runId=7", "password=secret"] };
    const [host, device] = await Promise.all([calls("host", flags, steps), calls("on-device", flags, steps)]);
    expect(device).toEqual(host);
    expect(host.map((r) => [r.variant, r.message])).toEqual([
      ["Success", "grace.hopper+test@example.org"],
      ["Success", "using buyer+ios-7@example.com"],
      ["Success", "IOS via ios-host 1170x2532"],
      ["Success", "10% off applied"],
      ["CouponExpiredError", "EXPIRED ran out on 2019-12-31"],
      ["FatalError", "the store is offline; nothing else can pass"],
      ["ExceptionThrown", "coupon service crashed"],
      ["ExceptionThrown", "unknown coupon NOPE"],
      ["MissingRequiredArgs", "code is required, e.g. SAVE10"],
    ]);
    expect(host[1]).toMatchObject({ memoryDelta: { email: "buyer+ios-7@example.com" }, memoryDeletions: ["password"] });
    expect(host[3]).toMatchObject({ memoryDelta: { discount: 10 } });
  });

  test("the host-only example creates a user on a local backend; on-device it is not registered", async () => {
    const [result] = await calls("host", {}, [["myapp_createUser", { email: "ada@example.com" }]]);
    expect(result).toMatchObject({ variant: "Success", message: "created user u1", memoryDelta: { userId: "u1" } });
    expect(created).toEqual(["ada@example.com"]);
    const device = await start("on-device");
    expect(device.registry.findSkipped("myapp_createUser")).toMatchObject({ reason: "trailblaze/requiresHost" });
    await device.close();
  });

  test("the example trail passes in both modes", async () => {
    for (const agent of ["host", "on-device"]) {
      const run = await cli(["run", "trails/signup.trail.yaml", "--agent", agent, "--logs", logs], { cwd: EXAMPLES });
      expect({ agent, code: run.code, summary: run.stdout.trim().split("\n").at(-1) }).toEqual({
        agent,
        code: 0,
        summary: expect.stringMatching(/^1 passed, 0 failed \(1 trail\) in [\d.]+ m?s$/),
      });
    }
  });
});
