import { expect, test } from "bun:test";
import { LineSplitter } from "./line-splitter.ts";

test("joins partial lines across chunks and strips CRLF", () => {
  const s = new LineSplitter(100);
  expect(s.push(Buffer.from("hel"))).toEqual([]);
  expect(s.push(Buffer.from("lo\r\nwor"))).toEqual([{ text: "hello", droppedBytes: 0 }]);
  expect(s.push(Buffer.from("ld\n\nlast"))).toEqual([
    { text: "world", droppedBytes: 0 },
    { text: "", droppedBytes: 0 },
  ]);
  expect(s.flush()).toEqual({ text: "last", droppedBytes: 0 });
  expect(s.flush()).toBeUndefined();
});

test("keeps a multi-byte character split across chunks intact", () => {
  const s = new LineSplitter(100);
  const bytes = Buffer.from("héllo\n");
  expect(s.push(bytes.subarray(0, 2))).toEqual([]);
  expect(s.push(bytes.subarray(2))).toEqual([{ text: "héllo", droppedBytes: 0 }]);
});

test("keeps only the head of an overlong line and counts the rest", () => {
  const s = new LineSplitter(4);
  expect(s.push(Buffer.from("abcdefgh"))).toEqual([]);
  expect(s.push(Buffer.from("ij\nok\n"))).toEqual([
    { text: "abcd", droppedBytes: 6 },
    { text: "ok", droppedBytes: 0 },
  ]);
});
