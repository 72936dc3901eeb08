import { describe, expect, test } from "bun:test";
import * as z from "zod";
import { ConfigError, formatProblem } from "../errors.ts";
import { validateWith } from "./validate.ts";
import { formatPath, locate, parseYaml, sourceText } from "../core/yaml-file.ts";

function problems(schema: z.ZodType, text: string): string[] {
  return validateWith(schema, parseYaml("f.yaml", text)).problems.map(formatProblem);
}

function syntaxError(text: string): string {
  try {
    parseYaml("f.yaml", text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
  }
  throw new Error("expected a ConfigError");
}

const server = z.strictObject({
  script: z.string(),
  args: z.array(z.string()).optional(),
  timeout_ms: z.number().int().positive().optional(),
});
const schema = z.strictObject({
  id: z.string().min(1),
  agent: z.enum(["host", "on-device"]).optional(),
  skip: z.union([z.boolean(), z.string()]).optional(),
  servers: z.array(server).optional(),
});

describe("validateWith", () => {
  test("passes valid input through", () => {
    const result = validateWith(schema, parseYaml("f.yaml", "id: x\nservers:\n  - script: a.ts\n"));
    expect(result).toEqual({ value: { id: "x", servers: [{ script: "a.ts" }] }, problems: [] });
  });

  test("missing keys point at the map that lacks them", () => {
    expect(problems(schema, "servers:\n  - args: [a]\n")).toEqual([
      'f.yaml:1:1: missing required key "id" (a string)',
      'f.yaml:2:5 servers[0]: missing required key "script" (a string)',
    ]);
  });

  test("wrong types point at the value and say what was found", () => {
    expect(problems(schema, "id: x\nservers:\n  - script: a.ts\n    args: [ok, {a: 1}]\n    timeout_ms: 1.5\n")).toEqual([
      "f.yaml:4:16 servers[0].args[1]: expected a string, got a map",
      "f.yaml:5:17 servers[0].timeout_ms: expected an integer, got a number (1.5)",
    ]);
  });

  test("empty values, bounds, enums and unions", () => {
    expect(problems(schema, 'id: ""\nagent: hots\nskip: 3\nservers:\n  - script:\n    timeout_ms: 0\n')).toEqual([
      "f.yaml:1:5 id: expected a non-empty string, got an empty string",
      'f.yaml:2:8 agent: expected "host" or "on-device", got a string ("hots"); did you mean "host"?',
      "f.yaml:3:7 skip: expected a boolean or a string, got a number (3)",
      "f.yaml:5:5 servers[0].script: expected a string, got an empty value",
      "f.yaml:6:17 servers[0].timeout_ms: expected a number > 0, got a number (0)",
    ]);
  });

  test("unknown keys point at the key, with a suggestion or the allowed keys", () => {
    expect(problems(schema, "id: x\nservers:\n  - script: a.ts\n    scirpt: b.ts\nnope: 1\n")).toEqual([
      'f.yaml:4:5 servers[0]: unknown key "scirpt"; did you mean "script"?',
      'f.yaml:5:1: unknown key "nope"; allowed keys: id, agent, skip, servers',
    ]);
  });

  test("an empty file says so", () => {
    expect(problems(schema, "# nothing here\n")).toEqual(["f.yaml:1:1: the file is empty; expected a map"]);
  });

  test("a union whose branch matches the type reports that branch's problems", () => {
    const devices = z.record(z.string(), z.union([z.string(), z.strictObject({ driver: z.string() })]));
    expect(problems(devices, "phone: { drver: x }\n")).toEqual([
      'f.yaml:1:8 phone: missing required key "driver" (a string)',
      'f.yaml:1:10 phone: unknown key "drver"; did you mean "driver"?',
    ]);
  });

  test("custom issues choose their anchor", () => {
    const custom = z.object({ a: z.number() }).superRefine((v, ctx) => {
      if (v.a > 1) ctx.addIssue({ code: "custom", message: "too many", path: ["a"], params: { anchor: "key" } });
    });
    expect(problems(custom, "a: 5\n")).toEqual(["f.yaml:1:1 a: too many"]);
  });

  test("validates a sub-tree in place", () => {
    const result = validateWith(z.strictObject({ id: z.string() }), parseYaml("f.yaml", "- config:\n    id: 3\n"), [0, "config"]);
    expect(result.problems.map(formatProblem)).toEqual(["f.yaml:2:9 [0].config.id: expected a string, got a number (3)"]);
  });
});

describe("parseYaml", () => {
  test("syntax errors carry file:line:col", () => {
    expect(syntaxError("a: 1\nb: [1, 2\n")).toBe(
      "f.yaml:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
    expect(syntaxError("a: 1\na: 2\n")).toBe('f.yaml:2:1: YAML syntax error: duplicate key "a"; keys must be unique within a map');
    expect(syntaxError("a:\n\tb: 1\n")).toBe("f.yaml:2:1: YAML syntax error: tabs are not allowed as indentation; indent with spaces");
    expect(syntaxError("a: 1\n---\nb: 2\n")).toBe(
      "f.yaml:2:1: YAML syntax error: the file holds several YAML documents (---); put one document per file",
    );
    expect(syntaxError("a: *nope\n")).toBe("f.yaml:1:1: YAML error: Unresolved alias (the anchor must be set before the alias): nope");
  });

  test("several syntax errors are reported together, one per line", () => {
    expect(syntaxError("a: b: c\nd:\n\te: 1\n")).toBe(
      "2 configuration problems:\n" +
        "  f.yaml:1:4: YAML syntax error: Nested mappings are not allowed in compact mappings\n" +
        "  f.yaml:3:1: YAML syntax error: tabs are not allowed as indentation; indent with spaces",
    );
  });

  test("locate follows aliases and falls back to the parent", () => {
    const yaml = parseYaml("f.yaml", "base: &b\n  x: 1\nuse: *b\n");
    expect(locate(yaml, ["use", "x"])).toEqual({ file: "f.yaml", line: 2, col: 6 });
    expect(locate(yaml, ["use", "missing"])).toEqual({ file: "f.yaml", line: 2, col: 3 });
    expect(locate(yaml, ["base", "x"], "key")).toEqual({ file: "f.yaml", line: 2, col: 3 });
  });

  test("sourceText keeps a scalar as written", () => {
    const yaml = parseYaml("f.yaml", "pin: 007\n");
    expect(yaml.data).toEqual({ pin: 7 });
    expect(sourceText(yaml, ["pin"])).toBe("007");
  });
});

test("formatPath", () => {
  expect(formatPath(["mcp_servers", 0, "script"])).toBe("mcp_servers[0].script");
  expect(formatPath(["env", "A B"])).toBe('env["A B"]');
  expect(formatPath([0, "config"])).toBe("[0].config");
  expect(formatPath([])).toBe("");
});
