import { describe, expect, test } from "bun:test";
import { Secrets } from "./secrets.ts";

describe("Secrets", () => {
  test("masks every value, longest first, in text and in keys and values of JSON-like data", () => {
    const secrets = new Secrets({ PASSWORD: "hunter2", LONG: "hunter2pw", EMPTY: "" });
    expect(secrets.mask("a hunter2pw b hunter2")).toBe("a *** b ***");
    expect(secrets.maskValue<unknown>({ list: ["hunter2", 1], hunter2: { p: "xhunter2x" } })).toEqual({
      list: ["***", 1],
      "***": { p: "x***x" },
    });
    expect(secrets.size).toBe(2);
  });

  test("only grows: a value added later is masked, and an earlier one still is", () => {
    const secrets = new Secrets({ TOKEN: "first-token" });
    secrets.add("TOKEN", "second-token");
    expect(secrets.mask("first-token second-token")).toBe("*** ***");
  });

  test("nothing secret: values are returned as they are", () => {
    const value = { a: "free" };
    expect(new Secrets().maskValue(value)).toBe(value);
    expect(new Secrets().withPlaceholders(value)).toBe(value);
  });

  test("withPlaceholders: a value equal to a secret becomes {{KEY}}, one inside a longer string is replaced in place; other values stay", () => {
    const secrets = new Secrets({ PASSWORD: "hunter2", PIN: "1234", EMPTY: "" });
    expect(secrets.withPlaceholders({ a: "hunter2", b: ["x hunter2 y", 7, true], c: { d: "pin 1234" }, e: null })).toEqual({
      a: "{{PASSWORD}}",
      b: ["x {{PASSWORD}} y", 7, true],
      c: { d: "pin {{PIN}}" },
      e: null,
    });
    expect(secrets.withPlaceholders("log in with hunter2")).toBe("log in with {{PASSWORD}}");
  });
});

describe("Secrets: every form a writer may put a value in", () => {
  const QUOTED = 'Tr0ub4dor"&3-horse\\x';

  test("a value with quotes and backslashes is masked JSON-escaped (once and twice) and XML-escaped", () => {
    const secrets = new Secrets({ PW: QUOTED });
    expect(secrets.mask(`expected "x" but was ${JSON.stringify(QUOTED)}`)).toBe('expected "x" but was "***"');
    expect(secrets.mask(JSON.stringify({ line: JSON.stringify({ pw: QUOTED }) }))).toBe('{"line":"{\\"pw\\":\\"***\\"}"}');
    expect(secrets.mask("<b>Tr0ub4dor&quot;&amp;3-horse\\x</b>")).toBe("<b>***</b>");
    expect(secrets.mask('<b>Tr0ub4dor"&amp;3-horse\\x</b>')).toBe("<b>***</b>");
  });

  test("a multi-line value: each line of 8 or more characters is masked on its own, trimmed; the whole value and its escape too", () => {
    const pem = "-----BEGIN KEY-----\n  MIIBOgIBAAJBAKj34GkxFhD9\r\nabc\n-----END KEY-----\n";
    const secrets = new Secrets({ PEM: pem });
    expect(secrets.mask(`[stderr] key: ${pem.split(/\r?\n/)[1]}`)).toBe("[stderr] key:   ***");
    expect(secrets.mask("line -----END KEY----- ends")).toBe("line *** ends");
    expect(secrets.mask(`{"k":${JSON.stringify(pem)}}`)).toBe('{"k":"***"}');
    // A line shorter than 8 characters is common text: only the whole value hides it.
    expect(secrets.mask("abc")).toBe("abc");
  });

  test("with hundreds of forms (a long secret of many lines) the same: each form masked, the longest where two start at one place", () => {
    const lines = Array.from({ length: 150 }, (_, i) => `line-${i}-of-the-key-${"q".repeat(i % 7)}`);
    const secrets = new Secrets({ KEY: lines.join("\n"), PREFIX: "line-1-of" });
    expect(secrets.mask(`a ${lines[42]} b ${JSON.stringify(lines.join("\n"))} c line-1-of d line-1-of-the-key-q e`)).toBe(
      'a *** b "***" c *** d *** e',
    );
    expect(secrets.mask("nothing here")).toBe("nothing here");
  });

  test("a number or an object written to a secret's key: its JSON, and each number and string in it", () => {
    const secrets = new Secrets();
    secrets.add("OTP", 987654);
    secrets.add("SESS", { token: "tok-abcdef-123", nested: [{ id: 424242 }], ok: true });
    expect(secrets.mask("otp is 987654")).toBe("otp is ***");
    expect(secrets.maskValue<unknown>({ otp: 987654, copy: { token: "tok-abcdef-123", id: 424242, ok: true, n: 5 } })).toEqual({
      otp: "***",
      copy: { token: "***", id: "***", ok: true, n: 5 },
    });
    expect(secrets.mask('{"token":"tok-abcdef-123","nested":[{"id":424242}],"ok":true}')).toBe("***");
  });

  test("a short secret (1-3 characters) is masked only where it stands alone, and the user is told once", () => {
    const warnings: string[] = [];
    const secrets = new Secrets({ K: "x", PIN: "12" }, { warn: (message) => warnings.push(message) });
    expect(secrets.mask("contentDescriptionRegex x 12 a12 12b x_y")).toBe("contentDescriptionRegex *** *** a12 12b x_y");
    expect(secrets.mask('{"key":"x","n":12}')).toBe('{"key":"***","n":***}');
    expect(secrets.maskValue<unknown>({ a: "x", b: 12, c: "box", d: 123 })).toEqual({ a: "***", b: "***", c: "box", d: 123 });
    secrets.add("K", "y");
    expect(warnings).toEqual([
      "secret K has a value of fewer than 4 characters: it is masked only where it stands alone (a whole value, or a word of its own), not inside other words, so the output stays readable; a value this short is easy to guess, use a longer one",
      "secret PIN has a value of fewer than 4 characters: it is masked only where it stands alone (a whole value, or a word of its own), not inside other words, so the output stays readable; a value this short is easy to guess, use a longer one",
    ]);
    // A report's structure is not data: its numbers and kept values stay.
    expect(
      secrets.maskDocument<unknown>({ status: "x", step: 12, args: { n: 12 } }, { kept: new Set(["status"]), data: new Set(["args"]) }),
    ).toEqual({
      status: "x",
      step: 12,
      args: { n: "***" },
    });
  });

  test("a short secret of regex syntax is matched literally", () => {
    const secrets = new Secrets({ A: "a+", B: "(.)" });
    expect(secrets.mask("a+ aa (.) (x)")).toBe("*** aa *** (x)");
  });

  test("withPlaceholders: another form of a secret (a line, an escaped copy, a part) becomes *** in a trail file", () => {
    const secrets = new Secrets({ PEM: "first-line-xyz\nsecond-line-xyz", PW: QUOTED });
    secrets.add("SESS", { token: "tok-abcdef-123" });
    expect(
      secrets.withPlaceholders({
        a: "first-line-xyz\nsecond-line-xyz",
        b: "log second-line-xyz",
        c: `said ${JSON.stringify(QUOTED)}`,
        d: "t tok-abcdef-123",
      }),
    ).toEqual({ a: "{{PEM}}", b: "log ***", c: 'said "***"', d: "t ***" });
    expect(secrets.withPlaceholders({ v: QUOTED, w: `pw ${QUOTED}` })).toEqual({ v: "{{PW}}", w: "pw {{PW}}" });
  });
});
