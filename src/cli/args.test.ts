import { describe, expect, test } from "bun:test";
import { UsageError } from "../errors.ts";
import { parseCommandArgs } from "./args.ts";

const OPTIONS = { target: { type: "string" }, json: { type: "boolean" }, output: { type: "string", short: "o" } } as const;

function failure(argv: string[]): string {
  try {
    parseCommandArgs("tools", argv, OPTIONS);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("parseCommandArgs", () => {
  test("parses known options and positionals", () => {
    expect(parseCommandArgs("tools", ["--target", "app", "-o", "out.json", "--json", "file"], OPTIONS)).toEqual({
      values: { target: "app", output: "out.json", json: true },
      positionals: ["file"],
    });
  });

  test("our own messages: the option, what is wrong, the closest real one, where --help is", () => {
    const usage = "\nRun `trailblaze tools --help` for usage.";
    expect(failure(["--targt", "x"])).toBe(`tools: unknown option --targt; did you mean --target?${usage}`);
    expect(failure(["--zzzzzzzz"])).toBe(`tools: unknown option --zzzzzzzz${usage}`);
    expect(failure(["-x"])).toBe(`tools: unknown option -x${usage}`);
    expect(failure(["--target"])).toBe(`tools: --target needs a value${usage}`);
    expect(failure(["--target", "--json"])).toBe(`tools: --target needs a value${usage}`);
    expect(failure(["--json=yes"])).toBe(`tools: --json takes no value (got --json=yes)${usage}`);
  });

  test("a negative number after an option that takes a value is its value (for the option's own check), not an option", () => {
    expect(parseCommandArgs("tools", ["--target", "-1", "-o", "-2.5", "file"], OPTIONS)).toEqual({
      values: { target: "-1", output: "-2.5" },
      positionals: ["file"],
    });
    expect(failure(["--target", "-x"])).toBe("tools: --target needs a value\nRun `trailblaze tools --help` for usage.");
    expect(parseCommandArgs("tools", ["--", "--target", "-1"], OPTIONS).positionals).toEqual(["--target", "-1"]);
  });

  test("everything after -- is positional", () => {
    expect(parseCommandArgs("tools", ["--", "--not-an-option"], OPTIONS).positionals).toEqual(["--not-an-option"]);
  });
});
