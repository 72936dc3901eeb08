import { describe, expect, test } from "bun:test";
import { checkSessionId } from "../../core/log-layout.ts";
import { UsageError } from "../../errors.ts";
import { generateSessionId } from "../../session/session-spec.ts";
import { MAX_SEED_LENGTH, testNameSeed } from "./run-flags.ts";

describe("testNameSeed", () => {
  const cases: [string, string][] = [
    ["Nightly / clock suite", "Nightly-clock-suite"],
    ["_x", "x"],
    ["-x", "x"],
    [".hidden", "hidden"],
    ["._-__x_y", "x_y"],
    ["  .. / a", "a"],
    ["a.", "a."],
    ["étoile", "toile"],
    ["x".repeat(200), "x".repeat(MAX_SEED_LENGTH)],
    [`${"a".repeat(MAX_SEED_LENGTH - 1)} b`, "a".repeat(MAX_SEED_LENGTH - 1)],
  ];
  for (const [name, seed] of cases) {
    test(`${name.length > 24 ? `${name.slice(0, 8)}… (${name.length})` : JSON.stringify(name)} → ${seed.length > 24 ? `${seed.slice(0, 8)}… (${seed.length})` : seed}, a valid session id`, () => {
      expect(testNameSeed(name)).toBe(seed);
      // As run-suite.ts builds it: <seed>-<generated id>, the longest the generator makes.
      expect(() => checkSessionId(`${seed}-${generateSessionId(new Date(253402300799000))}`)).not.toThrow();
    });
  }

  test("the seed and the generated id together are at most 128 characters", () => {
    expect(MAX_SEED_LENGTH).toBe(105);
    expect(`${"x".repeat(MAX_SEED_LENGTH)}-${generateSessionId()}`.length).toBe(128);
  });

  test("a name with no letter or digit is refused", () => {
    for (const name of ["", "  ", "._-", "/// ..", "___"]) {
      expect(() => testNameSeed(name)).toThrow(UsageError);
      expect(() => testNameSeed(name)).toThrow(`run: --test-name expects a name with letters or digits, got "${name}"`);
    }
  });
});
