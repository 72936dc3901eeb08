import { describe, expect, test } from "bun:test";
import { leastJsonBytes } from "./stdio-server-transport.ts";

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** A random JSON-ish value: strings with quotes, escapes, unicode and surrogates; members JSON.stringify leaves out. */
function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 5 : 8));
  const text = () =>
    Array.from(
      { length: Math.floor(random() * 40) },
      () => ['"', "\\", "\n", "\u0001", "é", "漢", "😀", "a", "\ud800"][Math.floor(random() * 9)],
    ).join("");
  switch (pick) {
    case 0:
      return text();
    case 1:
      return random() * 1e6 - 5e5;
    case 2:
      return random() < 0.5;
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth + 1));
    case 6:
      return { toJSON: () => text(), other: text() };
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [text(), randomValue(random, depth + 1)]));
  }
}

describe("leastJsonBytes: a lower bound of a message's size as JSON, made without JSON.stringify", () => {
  test("never more than the UTF-8 bytes JSON.stringify makes, over 2000 random values", () => {
    let seed = 48;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const value = { jsonrpc: "2.0", id: i, result: randomValue(random) };
      expect(leastJsonBytes(value)).toBeLessThanOrEqual(bytesOf(value));
    }
  });

  test("a big text answer is counted nearly whole", () => {
    const message = { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "x".repeat(100_000) }] } };
    // All but the commas between members.
    expect(leastJsonBytes(message)).toBe(bytesOf(message) - 3);
  });

  test("a cycle (which JSON.stringify refuses) is counted once and ends", () => {
    const node: Record<string, unknown> = { name: "loop" };
    node.self = node;
    expect(leastJsonBytes({ result: node })).toBe(2 + 9 + 2 + 7 + 6 + 7);
  });
});
