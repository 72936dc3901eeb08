// One source, two modes: every portable tool of fixtures/scripting runs as a bun subprocess (host
// agent) and bundled into QuickJS (on-device agent), and both must produce the same mapped result
// — variant, message, content, structuredContent, memory changes — call after call.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import type { ToolResult } from "../src/core/tool-result.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { processAlive } from "./support/process-alive.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const SHOP = join(REPO, "fixtures/scripting");
const logs = tempDir("scripting-parity-logs");
const opened: Session[] = [];

type Agent = "host" | "on-device";

async function startSession(agent: Agent, flags: SessionFlags = {}): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: SHOP }), { cwd: SHOP });
  const spec = resolveSessionSpec(workspace, { logs, ...flags, agent }, { cwd: SHOP, env: { ...process.env, PATH: TEST_PATH } });
  const session = await Session.start(spec, {});
  opened.push(session);
  return session;
}

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

interface Step {
  tool: string;
  args?: Record<string, unknown>;
}

interface Run {
  results: ToolResult[];
  memory: Record<string, unknown>;
}

/** Runs the steps in order in a fresh session, applying memory changes as a trail would. */
async function runSteps(agent: Agent, steps: Step[], flags: SessionFlags = {}): Promise<Run> {
  const session = await startSession(agent, flags);
  const results: ToolResult[] = [];
  for (const step of steps) {
    expect(session.registry.get(step.tool)?.transport).toBe(agent === "host" ? "stdio" : "quickjs");
    const result = await session.call(step.tool, step.args ?? {});
    results.push(result);
  }
  const memory = session.memory.snapshot();
  const pids = session.pids();
  await session.close();
  expect(pids.filter(processAlive)).toEqual([]);
  return { results, memory };
}

/** Both modes, compared with each other; returns the (common) host run for exact assertions. */
async function parity(steps: Step[], flags: SessionFlags = {}): Promise<Run> {
  const [host, device] = await Promise.all([runSteps("host", steps, flags), runSteps("on-device", steps, flags)]);
  expect(device).toEqual(host);
  return host;
}

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("portable data generators", () => {
  test("customers and orders are the same per seed in both modes; bad input fails the same way", async () => {
    const { results, memory } = await parity([
      { tool: "shop_generateCustomer", args: { seed: 7 } },
      { tool: "shop_generateOrder", args: { seed: 3, maxItems: 5, currency: "EUR" } },
      { tool: "shop_generateOrder", args: { seed: 3, maxItems: 0 } },
    ]);
    const [customer, order, invalid] = results;
    expect(customer).toEqual({
      variant: "Success",
      message: "generated customer Grace Allen <grace.allen.6512@example.com>",
      content: text("generated customer Grace Allen <grace.allen.6512@example.com>"),
      structuredContent: {
        firstName: "Grace",
        lastName: "Allen",
        email: "grace.allen.6512@example.com",
        address: "934 Market St, San Francisco, CA",
      },
      memoryDelta: {
        email: "grace.allen.6512@example.com",
        customerName: "Grace Allen",
        address: "934 Market St, San Francisco, CA",
      },
    });
    expect(order).toMatchObject({ variant: "Success", message: "order of 2 line(s), total 126.00 EUR" });
    expect(order?.structuredContent).toEqual({
      lines: [
        { sku: "CAP-003", name: "Dad cap", priceCents: 2200, quantity: 3 },
        { sku: "BAG-004", name: "Tote bag", priceCents: 3000, quantity: 2 },
      ],
      totalCents: 12600,
      currency: "EUR",
      createdAt: "2026-01-04T00:00:00.000Z",
    });
    const validation =
      "MCP error -32602: Input validation error: Invalid arguments for tool shop_generateOrder: Too small: expected number to be >=1 at maxItems";
    expect(invalid).toEqual({ variant: "ExceptionThrown", message: validation, content: text(validation) });
    expect(memory).toEqual({
      email: "grace.allen.6512@example.com",
      customerName: "Grace Allen",
      address: "934 Market St, San Francisco, CA",
    });
  });
});

describe("tier-2 tools read the device and memory and write memory back", () => {
  test("the cart lives in session memory across calls (standard handler, declared shape, typed front)", async () => {
    const { results, memory } = await parity(
      [
        { tool: "shop_addToCart", args: { sku: "TEE-001", quantity: 2 } },
        { tool: "shop_addToCart", args: { sku: "MUG-002" } },
        { tool: "shop_addToCart", args: { sku: "TEE-001" } },
        { tool: "shop_locateCheckoutButton" },
        { tool: "shop_clearCart" },
        { tool: "shop_clearCart" },
      ],
      { memory: ["customerName=Grace Allen"] },
    );
    const cart = [
      { sku: "TEE-001", quantity: 3 },
      { sku: "MUG-002", quantity: 1 },
    ];
    expect(results.map((r) => [r.variant, r.message])).toEqual([
      ["Success", "cart has 2 item(s) on ANDROID"],
      ["Success", "cart has 3 item(s) on ANDROID"],
      ["Success", "cart has 4 item(s) on ANDROID"],
      ["Success", "checkout button at 540,2274 (android-ondevice-accessibility)"],
      ["Success", "removed 2 line(s) from the cart"],
      ["ExceptionThrown", "the cart is already empty"],
    ]);
    expect(results[2]).toMatchObject({ structuredContent: { cart }, memoryDelta: { cart, cartCount: 4 } });
    expect(results[3]).toMatchObject({ structuredContent: { x: 540, y: 2274 }, memoryDelta: { checkoutX: 540, checkoutY: 2274 } });
    expect(results[4]).toEqual({
      variant: "Success",
      message: "removed 2 line(s) from the cart",
      content: text("removed 2 line(s) from the cart"),
      memoryDeletions: ["cart", "cartCount"],
    });
    expect(memory).toEqual({ customerName: "Grace Allen", checkoutX: 540, checkoutY: 2274 });
  });

  test("the device in the context follows the session's driver and screen", async () => {
    const { results } = await parity([{ tool: "shop_locateCheckoutButton", args: { bottomInsetDp: 10 } }], {
      driver: "ios-host",
      screen: "800x600",
    });
    expect(results[0]).toMatchObject({ message: "checkout button at 400,570 (ios-host)", structuredContent: { x: 400, y: 570 } });
  });

  test("memory a tool cannot use is ignored the same way in both modes", async () => {
    const { results } = await parity([{ tool: "shop_addToCart", args: { sku: "CAP-003" } }], { memory: ["cart=not a list"] });
    expect(results[0]).toMatchObject({ variant: "Success", memoryDelta: { cart: [{ sku: "CAP-003", quantity: 1 }], cartCount: 1 } });
  });
});

describe("every result variant", () => {
  test("checkout answers Success, MissingRequiredArgs, a named variant, ExceptionThrown (isError and throw), FatalError", async () => {
    const address = "934 Market St, San Francisco, CA";
    const { results, memory } = await parity(
      [
        { tool: "shop_placeOrder", args: { card: "4242424242424242" } },
        { tool: "shop_placeOrder", args: { card: "4000000000000002", shippingAddress: address } },
        { tool: "shop_placeOrder", args: { card: "4000000000000069", shippingAddress: address } },
        { tool: "shop_placeOrder", args: { card: "4000000000000101", shippingAddress: address } },
        { tool: "shop_placeOrder", args: { card: "4000000000000119", shippingAddress: address } },
        { tool: "shop_addToCart", args: { sku: "BAG-004" } },
        { tool: "shop_placeOrder", args: { card: "4242424242424242", shippingAddress: address } },
      ],
      { memory: ["cartCount=9"] },
    );
    const message = (t: string) => ({ message: t, content: text(t) });
    expect(results).toEqual([
      { variant: "MissingRequiredArgs", ...message("shippingAddress is required: pass the address the order ships to") },
      {
        variant: "PaymentDeclinedError",
        ...message("card ending 0002 was declined"),
        structuredContent: { declineCode: "generic_decline" },
      },
      { variant: "ExceptionThrown", ...message("card ending 0069 has expired") },
      { variant: "ExceptionThrown", ...message("gateway client crashed: unexpected token in response") },
      { variant: "FatalError", ...message("the payment gateway is unreachable; nothing else in this trail can pass") },
      expect.objectContaining({ variant: "Success" }),
      {
        variant: "Success",
        ...message("order ORD-4242-032 placed"),
        structuredContent: { orderId: "ORD-4242-032", status: "confirmed" },
        memoryDelta: { orderId: "ORD-4242-032" },
        memoryDeletions: ["cart", "cartCount"],
      },
    ]);
    expect(memory).toEqual({ orderId: "ORD-4242-032" });
  });
});

describe("registration is the same in both modes, except host-only tools", () => {
  test("same names, schemas (context key hidden) and _meta; requiresHost tools are skipped on-device", async () => {
    const [host, device] = await Promise.all([startSession("host"), startSession("on-device")]);
    const shop = (session: Session) =>
      session.registry
        .list()
        .filter((tool) => tool.name.startsWith("shop_"))
        .map(({ name, description, inputSchema, rawMeta, meta }) => ({ name, description, inputSchema, rawMeta, meta }));
    const hostOnly = ["shop_seedAccount", "shop_fetchFeatureFlags"];
    expect(shop(device)).toEqual(shop(host).filter((tool) => !hostOnly.includes(tool.name)));
    expect(shop(host).map((tool) => tool.name)).toEqual([
      "shop_generateCustomer",
      "shop_generateOrder",
      "shop_addToCart",
      "shop_locateCheckoutButton",
      "shop_clearCart",
      "shop_placeOrder",
      ...hostOnly,
    ]);
    // Built-ins gated to other platforms and drivers (web_*, compose_*) are skipped in both modes alike.
    expect(
      device.registry
        .skipped()
        .filter((s) => s.source !== "builtin")
        .map((s) => [s.name, s.reason, s.detail]),
    ).toEqual(hostOnly.map((name) => [name, "trailblaze/requiresHost", "host-only tool, session agent is on-device"]));
    const locate = host.registry.get("shop_locateCheckoutButton")!;
    expect(Object.keys(locate.inputSchema.properties as object)).toEqual(["bottomInsetDp"]);
    expect(locate.rawMeta).toEqual({ "trailblaze/toolset": "shop_cart", "trailblaze/requiresContext": true });
    await Promise.all([host.close(), device.close()]);
  });
});
