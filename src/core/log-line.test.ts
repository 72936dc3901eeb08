import { expect, test } from "bun:test";
import { maskedJsonLine, maskHead, maskLine } from "./log-line.ts";

const SECRET = "SECRET42";
const mask = (text: string) => text.replaceAll(SECRET, "***");

test("a whole line is masked, then cut: the cut never meets a secret", () => {
  expect(maskHead(`abcdef${SECRET}`, true, mask, 8, 4)).toEqual({ text: "abcdef**", cutBytes: 1 });
  expect(maskHead("short", true, mask, 8, 4)).toEqual({ text: "short", cutBytes: 0 });
});

test("the head of a longer line loses its last `window` characters, where a secret may straddle", () => {
  // The head ends in "SECR": a prefix that masking cannot see.
  expect(maskHead(`abcdefghSECR`, false, mask, 10, 7)).toEqual({ text: "abcde", cutBytes: 7 });
  expect(maskHead(`ab${SECRET}cdefghijklmn`, false, mask, 10, 7)).toEqual({ text: "ab***cdefg", cutBytes: 7 });
});

test("maskLine masks only a bounded head of a huge line, and counts the rest in bytes", () => {
  let masked = 0;
  const counting = (text: string) => ((masked += text.length), mask(text));
  const line = `${"x".repeat(20)}${SECRET}${"é".repeat(1000)}`;
  const cut = maskLine(line, counting, 22, 8);
  // Masked, the 30-character head is 25 long; its last 8 go (a secret may straddle its end), 17 stay.
  expect(cut.text).toBe("x".repeat(17));
  expect(masked).toBe(30);
  expect(cut.cutBytes).toBe(Buffer.byteLength("xxx***éé") + Buffer.byteLength("é".repeat(998)));
});

test("a JSON line too long keeps its short fields and the masked head of each long one", () => {
  const record = { at: "2026-01-01T00:00:00.000Z", tool: "t", data: `${"q".repeat(5000)}${SECRET}${"r".repeat(5000)}`, small: { a: 1 } };
  const line = maskedJsonLine(record, mask, 8000);
  expect(line.length).toBeLessThanOrEqual(8000);
  const parsed = JSON.parse(line) as Record<string, unknown>;
  expect(parsed).toMatchObject({ at: record.at, tool: "t", small: { a: 1 } });
  // The head of the masked JSON of `data` (its opening quote included), then what was not kept.
  expect(parsed.data).toMatch(/^"q{3996} … \[\d+ more bytes\]$/);
  // Cut right after a secret: masked first, so only `***` could be cut, never the secret's start.
  const around = maskedJsonLine({ data: `${"q".repeat(3994)}${SECRET}${"r".repeat(5000)}` }, mask, 8000);
  expect(around).toMatch(/^\{"data":"\\"q{3994}\*\* … \[\d+ more bytes\]"\}$/);
  expect(maskedJsonLine({ a: SECRET }, mask)).toBe('{"a":"***"}');
});
