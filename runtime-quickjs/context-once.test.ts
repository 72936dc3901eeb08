import { expect, test } from "bun:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { guestJson, takesContextOnce } from "./context-once.ts";
import { CONTEXT_ONCE } from "./guest/host-bridge.ts";

const context = { memory: { a: "1" }, device: { platform: "ANDROID" } };
const call = (args: unknown, meta: unknown): JSONRPCMessage =>
  ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: args, _meta: meta } }) as JSONRPCMessage;

test("a session's tools/call crosses with its context once, in _meta, and the mark", () => {
  const sent = JSON.parse(guestJson(call({ text: "hi", _trailblazeContext: context }, { trailblaze: context, progressToken: 3 })));
  expect(sent).toEqual({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hi" }, _meta: { trailblaze: context, progressToken: 3 } },
    [CONTEXT_ONCE]: true,
  });
});

test("anything else crosses as it is: two copies, the context not last, another method, no context", () => {
  for (const message of [
    call({ text: "hi", _trailblazeContext: { ...context } }, { trailblaze: context }),
    call({ _trailblazeContext: context, text: "hi" }, { trailblaze: context }),
    call({ text: "hi" }, { trailblaze: context }),
    call({ text: "hi", _trailblazeContext: context }, undefined),
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { trailblaze: context } } } as JSONRPCMessage,
    { jsonrpc: "2.0", id: 3, result: {} } as JSONRPCMessage,
  ]) {
    expect(guestJson(message)).toBe(JSON.stringify(message));
  }
});

test("only a bundle whose guest transport knows the mark is sent it", () => {
  expect(takesContextOnce(`var x = ${JSON.stringify(CONTEXT_ONCE)};`)).toBe(true);
  expect(takesContextOnce("var x = 1; // built before the mark")).toBe(false);
});
