import { describe, expect, test } from "bun:test";
import { buildContext, type TrailblazeContext } from "../core/context.ts";
import { success } from "../core/tool-result.ts";
import { type RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import { Dispatcher, type CallRecord } from "./dispatcher.ts";

const DEVICE = { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" } as const;

/** A registry of one built-in that answers with the envelope it was sent. */
function envelopeEcho(): { registry: ToolRegistry; seen: TrailblazeContext[] } {
  const registry = new ToolRegistry();
  const seen: TrailblazeContext[] = [];
  const tool: RegisteredTool = {
    name: "echoContext",
    description: "answers with its envelope",
    inputSchema: { type: "object" },
    rawMeta: {},
    meta: readToolMeta({}).meta,
    source: "builtin",
    transport: "builtin",
    invoke: async ({ context }) => {
      seen.push(context);
      return success("ok");
    },
  };
  registry.register(tool);
  return { registry, seen };
}

describe("Dispatcher: the envelope's invocation id", () => {
  test("each call gets a new one, in its envelope and in its CallRecord; the session's id is the same throughout", async () => {
    const { registry, seen } = envelopeEcho();
    const records: CallRecord[] = [];
    const dispatcher = new Dispatcher(registry, {
      context: (invocationId) => buildContext({ sessionId: "s-1", invocationId }, DEVICE, {}),
      onCall: (record) => records.push(record),
    });
    await Promise.all([dispatcher.dispatch("echoContext"), dispatcher.dispatch("echoContext")]);
    await dispatcher.dispatch("echoContext");
    const ids = seen.map((context) => context.invocationId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
    expect(records.map((record) => record.invocationId).sort()).toEqual([...ids].sort());
    expect(seen.map((context) => context.sessionId)).toEqual(["s-1", "s-1", "s-1"]);
  });

  test("the ids come from `invocationId()` when given, one per call, a call that fails included", async () => {
    const { registry, seen } = envelopeEcho();
    let n = 0;
    const records: CallRecord[] = [];
    const dispatcher = new Dispatcher(registry, {
      context: (invocationId) => buildContext({ sessionId: "s-1", invocationId }, DEVICE, {}),
      invocationId: () => `call-${++n}`,
      onCall: (record) => records.push(record),
    });
    await dispatcher.dispatch("echoContext");
    await expect(dispatcher.dispatch("nope")).rejects.toThrow('Unknown tool "nope"');
    await dispatcher.dispatch("echoContext");
    // An unknown tool is refused before any id is taken.
    expect(seen.map((context) => context.invocationId)).toEqual(["call-1", "call-2"]);
    expect(records.map((record) => [record.tool, record.invocationId])).toEqual([
      ["echoContext", "call-1"],
      ["echoContext", "call-2"],
    ]);
  });
});
