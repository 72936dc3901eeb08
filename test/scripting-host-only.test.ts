// Host-only tools (`trailblaze/requiresHost`) calling a real HTTP server with `fetch`: the test
// starts Bun.serve on 127.0.0.1 and hands its URL to the tool server through the environment.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { ToolNotFoundError } from "../src/errors.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const SHOP = join(REPO, "fixtures/scripting");
const logs = tempDir("scripting-host-logs");
const opened: Session[] = [];
const received: { method: string; path: string; body: unknown }[] = [];
let backend: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  backend = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.json() : undefined;
      received.push({ method: request.method, path: url.pathname, body });
      if (url.pathname === "/accounts" && request.method === "POST") {
        const { email } = body as { email: string };
        if (email.endsWith("@taken.example")) return Response.json({ error: "email already registered" }, { status: 409 });
        return Response.json({ id: `acct_${received.length}` }, { status: 201 });
      }
      if (url.pathname === "/flags") return Response.json({ newCheckout: true, darkMode: false });
      return new Response("not found", { status: 404 });
    },
  });
});

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await backend.stop(true);
});

async function startSession(flags: SessionFlags, env: Record<string, string | undefined>): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: SHOP }), { cwd: SHOP });
  const spec = resolveSessionSpec(workspace, { logs, ...flags }, { cwd: SHOP, env: { ...process.env, PATH: TEST_PATH, ...env } });
  const session = await Session.start(spec, {});
  opened.push(session);
  return session;
}

describe("host agent", () => {
  test("the tools reach the local server with fetch and remember what it answered", async () => {
    const session = await startSession({ agent: "host" }, { SHOP_API_BASE: `http://127.0.0.1:${backend.port}/` });
    received.length = 0;
    const seeded = await session.dispatcher.dispatch("shop_seedAccount", { email: "grace@example.com", name: "Grace" });
    expect(seeded).toEqual({
      variant: "Success",
      message: "created account acct_1 for grace@example.com",
      content: [{ type: "text", text: "created account acct_1 for grace@example.com" }],
      structuredContent: { accountId: "acct_1", email: "grace@example.com" },
      memoryDelta: { accountId: "acct_1" },
    });
    const flags = await session.call("shop_fetchFeatureFlags");
    expect(flags).toMatchObject({
      variant: "Success",
      message: "2 feature flag(s)",
      structuredContent: { flags: { newCheckout: true, darkMode: false } },
      memoryDelta: { "flag.newCheckout": true, "flag.darkMode": false },
    });
    expect(session.memory.snapshot()).toEqual({ accountId: "acct_1", "flag.newCheckout": true, "flag.darkMode": false });
    expect(received).toEqual([
      { method: "POST", path: "/accounts", body: { email: "grace@example.com", name: "Grace" } },
      { method: "GET", path: "/flags", body: undefined },
    ]);
    const refused = await session.dispatcher.dispatch("shop_seedAccount", { email: "ada@taken.example", name: "Ada" });
    expect(refused).toMatchObject({
      variant: "ExceptionThrown",
      message: "backend refused the account (HTTP 409): email already registered",
    });
    await session.close();
  });

  test("without SHOP_API_BASE the tool says how to configure it (FatalError)", async () => {
    const session = await startSession({ agent: "host" }, { SHOP_API_BASE: undefined });
    expect(await session.dispatcher.dispatch("shop_fetchFeatureFlags")).toMatchObject({
      variant: "FatalError",
      message: "SHOP_API_BASE is not set: point it at the shop test backend, e.g. http://127.0.0.1:8080",
    });
    await session.close();
  });
});

describe("on-device agent", () => {
  test("host-only tools are not registered, so nothing tries fetch inside QuickJS", async () => {
    const session = await startSession({ agent: "on-device" }, { SHOP_API_BASE: `http://127.0.0.1:${backend.port}` });
    expect(session.registry.has("shop_seedAccount")).toBe(false);
    expect(session.registry.findSkipped("shop_seedAccount")).toMatchObject({ reason: "trailblaze/requiresHost" });
    expect(session.registry.has("shop_generateCustomer")).toBe(true);
    await expect(session.dispatcher.dispatch("shop_seedAccount", { email: "a@b.c", name: "A" })).rejects.toBeInstanceOf(ToolNotFoundError);
    await session.close();
  });
});
