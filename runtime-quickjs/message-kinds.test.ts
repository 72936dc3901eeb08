import { describe, expect, test } from "bun:test";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { answeredId, isClientRequest, parseGuestMessage, resultResponse } from "./message-kinds.ts";

/** The parse or its error message, serialized with its key order. */
function outcome(parse: () => unknown): string {
  try {
    return JSON.stringify({ value: parse() });
  } catch (error) {
    return JSON.stringify({ error: (error as Error).message });
  }
}

/** What guests send: results of every shape, near misses, other messages. */
const MESSAGES: string[] = [
  '{"result":{"content":[{"type":"text","text":"echo: hello"}]},"jsonrpc":"2.0","id":12}',
  '{"jsonrpc":"2.0","id":"a","result":{}}',
  '{"result":{"content":[],"isError":true,"structuredContent":{"b":1,"a":2}},"jsonrpc":"2.0","id":0}',
  '{"result":{"z":1,"_meta":{"other":1,"progressToken":"t","trailblaze":{"memoryDelta":{"k":"v"}}},"a":2},"jsonrpc":"2.0","id":3}',
  '{"result":{"_meta":{"progressToken":7}},"jsonrpc":"2.0","id":3}',
  '{"result":{"_meta":{"progressToken":1.5}},"jsonrpc":"2.0","id":3}',
  '{"result":{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}},"jsonrpc":"2.0","id":3}',
  '{"result":{"_meta":null},"jsonrpc":"2.0","id":3}',
  '{"result":{"_meta":[]},"jsonrpc":"2.0","id":3}',
  '{"result":{"__proto__":{"x":1}},"jsonrpc":"2.0","id":3}',
  '{"__proto__":{"x":1},"result":{},"jsonrpc":"2.0","id":3}',
  '{"result":[],"jsonrpc":"2.0","id":3}',
  '{"result":null,"jsonrpc":"2.0","id":3}',
  '{"result":"text","jsonrpc":"2.0","id":3}',
  '{"result":{},"jsonrpc":"2.0","id":1.5}',
  '{"result":{},"jsonrpc":"2.0","id":9007199254740993}',
  '{"result":{},"jsonrpc":"2.0","id":null}',
  '{"result":{},"jsonrpc":"2.0"}',
  '{"result":{},"jsonrpc":"1.0","id":1}',
  '{"result":{},"id":1}',
  '{"result":{},"jsonrpc":"2.0","id":1,"extra":true}',
  '{"result":{},"error":{"code":1,"message":"m"},"jsonrpc":"2.0","id":1}',
  '{"error":{"code":-32603,"message":"boom","data":{"x":1}},"jsonrpc":"2.0","id":4}',
  '{"error":{"code":-32603,"message":"no id"},"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":5,"method":"trailblaze/execute","params":{"name":"x","arguments":{}}}',
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}',
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}',
  "[]",
  "null",
  "5",
];

describe("a guest's message is read as JSONRPCMessageSchema reads it", () => {
  test("the same value (key order included) or the same error, for every shape", () => {
    for (const json of MESSAGES) {
      expect({ json, outcome: outcome(() => parseGuestMessage(json)) }).toEqual({
        json,
        outcome: outcome(() => JSONRPCMessageSchema.parse(JSON.parse(json))),
      });
    }
  });

  test("plain results take the fast path; anything it is not sure of goes to zod", () => {
    const answered = MESSAGES.filter((json) => resultResponse(JSON.parse(json)) !== undefined);
    expect(answered).toEqual(MESSAGES.slice(0, 5));
  });

  test("a result's members are the guest's own values, not copies (as zod's loose objects give them)", () => {
    const value = JSON.parse(MESSAGES[2]!);
    const parsed = resultResponse(value) as unknown as { result: { structuredContent: unknown } };
    expect(parsed.result.structuredContent).toBe(value.result.structuredContent);
  });

  test("not JSON fails as JSON.parse fails", () => {
    expect(() => parseGuestMessage("{not json")).toThrow(SyntaxError);
  });
});

describe("which request a message answers, and which messages are requests", () => {
  const parsed = (json: string) => JSONRPCMessageSchema.parse(JSON.parse(json)) as JSONRPCMessage;
  test("a result or an error answers its id; a request or notification answers none", () => {
    expect(MESSAGES.slice(0, 5).map((json) => answeredId(parsed(json)))).toEqual([12, "a", 0, 3, 3]);
    expect(answeredId(parsed(MESSAGES[22]!))).toBe(4);
    expect(answeredId(parsed(MESSAGES[23]!))).toBeUndefined();
    expect(answeredId(parsed(MESSAGES[24]!))).toBeUndefined();
    expect(answeredId(parsed(MESSAGES[25]!))).toBeUndefined();
  });

  test("a client's request has a method and an id; a notification or response is none", () => {
    expect(isClientRequest(parsed(MESSAGES[24]!))).toBe(true);
    expect(isClientRequest(parsed(MESSAGES[25]!))).toBe(false);
    expect(isClientRequest(parsed(MESSAGES[0]!))).toBe(false);
  });
});
