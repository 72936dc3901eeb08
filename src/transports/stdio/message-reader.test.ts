import { expect, test } from "bun:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MessageReader } from "./message-reader.ts";

function reader(limit: number) {
  const seen = { messages: [] as JSONRPCMessage[], notJson: [] as string[], tooLarge: 0 };
  const r = new MessageReader(limit, {
    onMessage: (m) => seen.messages.push(m),
    onNotJson: (p) => seen.notJson.push(p),
    onTooLarge: () => seen.tooLarge++,
  });
  return { r, seen };
}

test("messages split across chunks; blank lines ignored; other lines reported with a preview", () => {
  const { r, seen } = reader(1000);
  r.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\n\n{"jsonrpc":"2.0",'));
  r.push(Buffer.from(`"method":"b"}\r\nhello\n${"z".repeat(300)}\n`));
  expect(seen.messages).toEqual([
    { jsonrpc: "2.0", method: "a" },
    { jsonrpc: "2.0", method: "b" },
  ]);
  expect(seen.notJson).toEqual(["hello", `${"z".repeat(200)}…`]);
});

test("a message over the limit is reported once, before its newline, and nothing after it is read", () => {
  const { r, seen } = reader(10);
  r.push(Buffer.from("x".repeat(11)));
  expect(seen.tooLarge).toBe(1);
  r.push(Buffer.from('\n{"jsonrpc":"2.0","method":"late"}\n'));
  r.end();
  expect(seen).toEqual({ messages: [], notJson: [], tooLarge: 1 });
});

test("an unterminated last line still counts when the stream ends", () => {
  const { r, seen } = reader(1000);
  r.push(Buffer.from('{"jsonrpc":"2.0","method":"last"}'));
  expect(seen.messages).toEqual([]);
  r.end();
  expect(seen.messages).toEqual([{ jsonrpc: "2.0", method: "last" }]);
});

test("a skipped line is masked before it is cut to its preview: a secret longer than the preview shows none of its head", () => {
  const secret = `s3cret-${"k".repeat(400)}`;
  const seen: string[] = [];
  const r = new MessageReader(10_000, {
    onMessage: () => {},
    onNotJson: (p) => seen.push(p),
    onTooLarge: () => {},
    mask: (line) => line.replaceAll(secret, "***"),
  });
  r.push(Buffer.from(`token ${secret} printed\n`));
  expect(seen).toEqual(["token *** printed"]);
});
