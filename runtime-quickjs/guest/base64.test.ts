import { describe, expect, test } from "bun:test";
import { atob as guestAtob, btoa as guestBtoa } from "./base64.ts";

describe("guest atob/btoa match the host's", () => {
  const samples = [
    "",
    "f",
    "fo",
    "foo",
    "foob",
    "fooba",
    "foobar",
    "\u0000\u00ff\u0080binary",
    String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)),
  ];
  for (const sample of samples) {
    test(`round-trips ${JSON.stringify(sample.slice(0, 12))}`, () => {
      expect(guestBtoa(sample)).toBe(btoa(sample));
      expect(guestAtob(btoa(sample))).toBe(sample);
    });
  }

  test("atob accepts unpadded input and whitespace like the host", () => {
    for (const input of ["Zm9v", "Zm9vYg", "Zm9vYg==", " Zm9v\nYmFy "]) expect(guestAtob(input)).toBe(atob(input));
  });

  test("rejects what the host rejects, with InvalidCharacterError", () => {
    for (const input of ["Zm9v*", "Z", "Zm9vY===", "Zm=9v"]) {
      expect(() => atob(input)).toThrow();
      expect(() => guestAtob(input)).toThrow("The string to be decoded is not correctly encoded.");
    }
    expect(() => guestBtoa("\u0100")).toThrow("Invalid character: btoa() accepts only Latin-1 characters");
  });
});
