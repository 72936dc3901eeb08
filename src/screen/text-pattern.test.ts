// Our case table for selector text patterns: each rule under both dialects.
import { describe, expect, test } from "bun:test";
import { matchesPattern } from "./text-pattern.ts";

// [rule, pattern, text, native, maestro]
const CASES: [string, string, string, boolean, boolean][] = [
  ["plain text equals itself", "Log in", "Log in", true, true],
  ["the whole text must match, not a part", "in", "Log in", false, false],
  ["regex syntax applies", "Log.*", "Log in", true, true],
  ["alternation covers the whole text", "Save|Cancel", "Cancel", true, true],
  ["character classes and counts", "Order #\\d{4}", "Order #2046", true, true],
  ["native is case-sensitive, maestro is not", "log in", "LOG IN", false, true],
  ["an invalid regex is taken literally", "(Beta", "(Beta", true, true],
  ["the literal of an invalid regex must be the whole text", "(Beta", "Join (Beta", false, false],
  ["the literal of an invalid regex is case-insensitive only in maestro", "(beta", "(BETA", false, true],
  ["a valid regex that cannot match still matches its own text", "$3.00", "$3.00", true, true],
  ["… and only its own text", "$3.00", "$4.00", false, false],
  ["a leading quantifier makes the pattern literal", "*Sale*", "*Sale*", true, true],
  ["\\Q…\\E quotes a literal", "\\Q1+1=2\\E", "1+1=2", true, true],
  ["an unterminated \\Q quotes to the end", "Total \\Q$9.99", "Total $9.99", true, true],
  ["regex outside \\Q…\\E keeps its meaning", "\\Q(\\E\\d+\\Q)\\E", "(12)", true, true],
  ["an escaped backslash before Q does not quote", "a\\\\Qb", "a\\Qb", true, true],
  ["leading (?i) makes native case-insensitive", "(?i)sign in", "SIGN IN", true, true],
  ["leading (?-i) makes maestro case-sensitive", "(?-i)Sign in", "sign in", false, false],
  ["leading (?s) lets dot cross lines", "(?s)Terms.*", "Terms\nand conditions", true, true],
  ["native dot stops at a newline, maestro's does not", "Terms.*", "Terms\nand conditions", false, true],
  ["maestro is multiline: ^ and $ inside match at lines", "Terms$\\n^and.*", "Terms\nand conditions", false, true],
  ["the whole-text rule holds under multiline", "conditions", "Terms\nconditions", false, false],
  ["a leading unsupported flag (?x) is dropped", "(?x)OK", "OK", true, true],
  ["the empty pattern matches only empty text", "", "", true, true],
  ["… not other text", "", "a", false, false],
  ["non-ASCII text", "Grüße ✓", "Grüße ✓", true, true],
];

describe("matchesPattern", () => {
  for (const [rule, pattern, text, native, maestro] of CASES) {
    test(`${rule}: ${JSON.stringify(pattern)} vs ${JSON.stringify(text)}`, () => {
      expect({ native: matchesPattern(pattern, text, "native"), maestro: matchesPattern(pattern, text, "maestro") }).toEqual({
        native,
        maestro,
      });
    });
  }

  test("native is the default dialect", () => {
    expect(matchesPattern("ok", "OK")).toBe(false);
  });
});
