import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { callLogger, type LogNotification, noopLogger } from "./logger.ts";

let stderr: string[] = [];
const consoleError = console.error;
beforeEach(() => {
  stderr = [];
  console.error = (...args: unknown[]) => void stderr.push(args.map(String).join(" "));
});
afterEach(() => {
  console.error = consoleError;
});

describe("callLogger", () => {
  test("each line goes to stderr as `[tool] [level] message {fields}` and to the client as an MCP log message", async () => {
    const sent: LogNotification[] = [];
    const logger = callLogger("shop_checkout", async (notification) => void sent.push(notification));
    logger.debug("starting");
    logger.info("cart read", { items: 2 });
    logger.warn("slow backend", { ms: 900 });
    logger.error("declined");
    expect(stderr).toEqual([
      "[shop_checkout] [debug] starting",
      '[shop_checkout] [info] cart read {"items":2}',
      '[shop_checkout] [warn] slow backend {"ms":900}',
      "[shop_checkout] [error] declined",
    ]);
    expect(sent).toEqual([
      { method: "notifications/message", params: { level: "debug", logger: "shop_checkout", data: "starting" } },
      {
        method: "notifications/message",
        params: { level: "info", logger: "shop_checkout", data: { message: "cart read", fields: { items: 2 } } },
      },
      {
        method: "notifications/message",
        params: { level: "warning", logger: "shop_checkout", data: { message: "slow backend", fields: { ms: 900 } } },
      },
      { method: "notifications/message", params: { level: "error", logger: "shop_checkout", data: "declined" } },
    ]);
  });

  test("a client that cannot take the message (rejects, or throws) leaves the tool running and the line on stderr", async () => {
    const rejecting = callLogger("t", () => Promise.reject(new Error("Not connected")));
    const throwing = callLogger("t", () => {
      throw new Error("Server does not support logging");
    });
    expect(() => rejecting.info("one")).not.toThrow();
    expect(() => throwing.info("two")).not.toThrow();
    // The rejection is handled: nothing is left unhandled after a turn of the loop.
    await Promise.resolve();
    expect(stderr).toEqual(["[t] [info] one", "[t] [info] two"]);
  });

  test("fields that are not JSON are shown as text, not thrown", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    callLogger("t").info("odd", cyclic);
    callLogger("t").info("big", { n: 1n });
    expect(stderr).toEqual(["[t] [info] odd [object Object]", "[t] [info] big [object Object]"]);
  });

  test("without a client it writes stderr only; noopLogger writes nothing", () => {
    callLogger("t").warn("alone");
    noopLogger.error("dropped", { x: 1 });
    expect(stderr).toEqual(["[t] [warn] alone"]);
  });
});
