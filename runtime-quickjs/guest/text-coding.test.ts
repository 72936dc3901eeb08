import { describe, expect, test } from "bun:test";
import { TextDecoder as GuestDecoder, TextEncoder as GuestEncoder } from "./text-coding.ts";

/** Bytes of every shape the UTF-8 decoder tells apart: each lead byte, truncated and overlong forms, surrogates, past U+10FFFF. */
const BYTE_SAMPLES: number[][] = [
  [],
  [0x41, 0x42],
  [0xef, 0xbb, 0xbf, 0x41],
  [0xef, 0xbb, 0xbf],
  [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf],
  [0xc3, 0xa9],
  [0xc3],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe2, 0x82, 0xac],
  [0xe2, 0x82],
  [0xe2, 0x41],
  [0xe0, 0x80, 0x80],
  [0xe0, 0xa0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0x9f, 0xbf],
  [0xf0, 0x9f, 0x98, 0x80],
  [0xf0, 0x8f, 0xbf, 0xbf],
  [0xf4, 0x8f, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80],
  [0xff, 0xfe, 0x80, 0xbf],
  [0xf0, 0x9f, 0x98],
  [0xf0, 0x9f, 0x41, 0x98, 0x80],
];

/** A seeded byte soup biased towards multi-byte leads, so broken sequences meet each other. */
function randomBytes(seed: number, length: number): Uint8Array {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 16;
  };
  const pool = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0xa0, 0x8f, 0x90];
  return Uint8Array.from({ length }, () => (next() % 3 === 0 ? next() & 0xff : pool[next() % pool.length]!));
}

const STRINGS = [
  "",
  "plain ascii",
  "héllo wörld",
  "€ and 😀",
  "\ud800",
  "a\udc00b",
  "\ud83d",
  "😀\ud83d",
  "\uffff\u0800\u07ff\u0080",
  "\0",
];

describe("guest TextEncoder matches the host's", () => {
  test("encode: the same bytes, lone surrogates as U+FFFD, a buffer of exactly that size", () => {
    for (const text of STRINGS) {
      const guest = new GuestEncoder().encode(text);
      expect([...guest]).toEqual([...new TextEncoder().encode(text)]);
      expect(guest.buffer.byteLength).toBe(guest.length);
    }
    expect([...new GuestEncoder().encode()]).toEqual([]);
    expect([...new GuestEncoder().encode(12 as unknown as string)]).toEqual([0x31, 0x32]);
    expect(new GuestEncoder().encoding).toBe("utf-8");
    expect(Object.prototype.toString.call(new GuestEncoder())).toBe("[object TextEncoder]");
  });

  test("encodeInto: whole code points while they fit, read in UTF-16 units", () => {
    for (const text of STRINGS) {
      for (const size of [0, 1, 2, 3, 4, 5, 16]) {
        const guest = new Uint8Array(size);
        const host = new Uint8Array(size);
        expect(new GuestEncoder().encodeInto(text, guest)).toEqual(new TextEncoder().encodeInto(text, host));
        expect([...guest]).toEqual([...host]);
      }
    }
    expect(() => new GuestEncoder().encodeInto("a", [] as unknown as Uint8Array)).toThrow(new TypeError("Expected Uint8Array"));
  });
});

describe("guest TextDecoder matches the host's", () => {
  test("decode: U+FFFD for each maximal invalid subpart, the BOM dropped unless ignoreBOM", () => {
    for (const bytes of BYTE_SAMPLES) {
      for (const options of [{}, { ignoreBOM: true }]) {
        const input = Uint8Array.from(bytes);
        expect({ bytes, options, text: new GuestDecoder("utf-8", options).decode(input) }).toEqual({
          bytes,
          options,
          text: new TextDecoder("utf-8", options).decode(input),
        });
      }
    }
    for (let seed = 1; seed <= 200; seed++) {
      const input = randomBytes(seed, 64);
      expect(new GuestDecoder().decode(input)).toBe(new TextDecoder().decode(input));
    }
  });

  test("stream: a sequence split anywhere decodes as the whole, the BOM only at the stream's start", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const input = seed === 1 ? Uint8Array.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0xf0, 0x9f, 0x98, 0x80]) : randomBytes(seed, 40);
      for (const cut of [1, 2, 3, 5]) {
        const guest = new GuestDecoder();
        const host = new TextDecoder();
        let guestText = "";
        let hostText = "";
        for (let at = 0; at < input.length; at += cut) {
          guestText += guest.decode(input.subarray(at, at + cut), { stream: true });
          hostText += host.decode(input.subarray(at, at + cut), { stream: true });
        }
        guestText += guest.decode();
        hostText += host.decode();
        expect(guestText).toBe(hostText);
        // After a call without `stream`, the decoder starts a new stream.
        expect(guest.decode(input)).toBe(host.decode(input));
      }
    }
  });

  test("fatal: invalid data throws the host's TypeError; a truncated stream throws only when it ends", () => {
    const fatal = new GuestDecoder("utf-8", { fatal: true });
    expect(() => fatal.decode(Uint8Array.from([0xff]))).toThrow(new TypeError("The encoded data was not valid for encoding utf-8"));
    expect(fatal.decode(Uint8Array.from([0xe2, 0x82]), { stream: true })).toBe("");
    expect(() => fatal.decode()).toThrow("The encoded data was not valid for encoding utf-8");
    expect(fatal.decode(Uint8Array.from([0x41]))).toBe("A");
    expect(fatal.fatal).toBe(true);
  });

  test("inputs: ArrayBuffer and every view; labels of UTF-8 only", () => {
    const bytes = Uint8Array.from([0x41, 0x42, 0x43, 0x44]);
    for (const input of [bytes.buffer, new DataView(bytes.buffer, 1, 2), new Uint16Array(bytes.buffer), bytes.subarray(2)]) {
      expect(new GuestDecoder().decode(input)).toBe(new TextDecoder().decode(input));
    }
    expect(() => new GuestDecoder().decode("abc" as unknown as Uint8Array)).toThrow(
      new TypeError("TextDecoder.decode expects an ArrayBuffer or TypedArray"),
    );
    for (const label of [" UTF8 ", "unicode-1-1-utf-8", "Utf-8"]) expect(new GuestDecoder(label).encoding).toBe("utf-8");
    expect(() => new GuestDecoder("latin1")).toThrow(
      new RangeError('Unsupported encoding label "latin1": the on-device TextDecoder decodes UTF-8 only'),
    );
    expect(Object.prototype.toString.call(new GuestDecoder())).toBe("[object TextDecoder]");
  });
});
