// The example tools of docs/writing-tools.md (fixtures/scripting/examples) give the same results in
// both agent modes, in sessions started in-process; readme-examples.test.ts runs them through the CLI.
// Apart from that file so the precompiled pass of npm test, which re-runs the CLI's tests, does not
// run this again: no CLI is involved.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import type { ToolResult } from "../src/core/tool-result.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const EXAMPLES = join(REPO, "fixtures/scripting/examples");
const logs = tempDir("readme-logs");

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

  async function calls(
    agent: "host" | "on-device",
    flags: SessionFlags,
    steps: [string, Record<string, unknown>][],
  ): Promise<ToolResult[]> {
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
      ...["SAVE10", "EXPIRED", "OFFLINE", "BOOM", "NOPE"].map((code): [string, Record<string, unknown>] => [
        "myapp_redeemCoupon",
        { code },
      ]),
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
});
