// Target and toolset files with one kind of mistake each: the exact message is the contract.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../src/errors.ts";
import { parseTargetConfig } from "../src/config/target-config.ts";
import { readToolsetConfig, type ToolsetConfig } from "../src/config/toolset-config.ts";
import { parseYaml } from "../src/core/yaml-file.ts";

const ROOT = join(import.meta.dir, "..");

/** One toolset file read as the workspace reads each (readToolsetConfig); throws a ConfigError listing every problem in it. */
function parseToolsetConfig(file: string, text: string, path: string = file): ToolsetConfig {
  const result = readToolsetConfig(parseYaml(file, text), path);
  if (!result.value) throw new ConfigError(result.problems);
  return result.value;
}
const shown = (name: string) => `fixtures/config/files/${name}`;

function errorOf(parse: (file: string, text: string) => unknown, name: string): ConfigError {
  try {
    parse(shown(name), readFileSync(join(ROOT, shown(name)), "utf8"));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`${name} parsed without problems`);
}

const targetError = (name: string) => errorOf(parseTargetConfig, name).message;

describe("target file problems", () => {
  test("unknown key, with did-you-mean", () => {
    expect(targetError("unknown-key.yaml")).toBe(
      'fixtures/config/files/unknown-key.yaml:4:5 mcp_servers[0]: unknown key "bundel"; did you mean "bundle"?',
    );
  });

  test("wrong type", () => {
    expect(targetError("wrong-type.yaml")).toBe(
      "fixtures/config/files/wrong-type.yaml:3:13 mcp_servers[0].script: expected a string, got a number (42)",
    );
  });

  test("missing id", () => {
    expect(targetError("missing-id.yaml")).toBe('fixtures/config/files/missing-id.yaml:1:1: missing required key "id" (a string)');
  });

  test("script and command in one entry", () => {
    expect(targetError("script-and-command.yaml")).toBe(
      "fixtures/config/files/script-and-command.yaml:4:5 mcp_servers[0]: has both script: and command:; an entry is " +
        "either a script (a .ts/.js MCP server run by the runtime) or a command (any stdio MCP server), not both",
    );
  });

  test("neither script nor command", () => {
    expect(targetError("neither.yaml")).toBe(
      "fixtures/config/files/neither.yaml:4:5 mcp_servers[1]: needs script: (a .ts/.js MCP server file) " +
        "or command: (an executable that speaks MCP over stdio)",
    );
  });

  test("YAML syntax error", () => {
    expect(targetError("syntax-error.yaml")).toBe(
      "fixtures/config/files/syntax-error.yaml:4:1: YAML syntax error: Sequence item without - indicator",
    );
  });

  test("two problems in one file are reported together", () => {
    const error = errorOf(parseTargetConfig, "two-problems.yaml");
    expect(error.message).toBe(
      "2 configuration problems:\n" +
        "  fixtures/config/files/two-problems.yaml:1:5 id: expected a string, got a number (42)\n" +
        '  fixtures/config/files/two-problems.yaml:2:1: unknown key "dispaly_name"; did you mean "display_name"?',
    );
    expect(error.problems).toEqual([
      { file: shown("two-problems.yaml"), line: 1, col: 5, path: "id", message: "expected a string, got a number (42)" },
      { file: shown("two-problems.yaml"), line: 2, col: 1, path: "", message: 'unknown key "dispaly_name"; did you mean "display_name"?' },
    ]);
    expect(error.exitCode).toBe(2);
  });

  test("platform names and per-platform drivers are checked", () => {
    const text = "id: myapp\nplatforms:\n  andriod: {}\n  ios: { drivers: [android-test, ios-hots] }\n";
    expect(() => parseTargetConfig("t.yaml", text)).toThrow(
      "3 configuration problems:\n" +
        '  t.yaml:3:3 platforms: unknown platform "andriod"; did you mean "android"? Known platforms: android, ios, web\n' +
        "  t.yaml:4:20 platforms.ios.drivers[0]: driver android-test belongs to platform android; list it under platforms.android\n" +
        '  t.yaml:4:34 platforms.ios.drivers[1]: unknown driver "ios-hots"; did you mean "ios-host"? Known drivers: ' +
        "android-ondevice-accessibility, android-ondevice-instrumentation, android-test, revyl-android, ios-host, ios-axe, " +
        "revyl-ios, playwright-native, playwright-electron, compose (or their enum spellings, e.g. ANDROID_ONDEVICE_ACCESSIBILITY)",
    );
  });

  test("keys that belong to the other entry kind", () => {
    const text = "id: myapp\nmcp_servers:\n  - script: a.ts\n    args: [x]\n  - command: node\n    bundle: b.js\n";
    expect(() => parseTargetConfig("t.yaml", text)).toThrow(
      "2 configuration problems:\n" +
        "  t.yaml:4:5 mcp_servers[0]: args: only applies to command: entries\n" +
        "  t.yaml:6:5 mcp_servers[1]: bundle: only applies to script: entries",
    );
  });
});

describe("toolset file problems", () => {
  test("unknown driver lists the known keys", () => {
    expect(errorOf(parseToolsetConfig, "unknown-driver.toolset.yaml").message).toBe(
      "fixtures/config/files/unknown-driver.toolset.yaml:4:11 drivers[0]: unknown driver " +
        '"android-ondevice-acessibility"; did you mean "android-ondevice-accessibility"? Known drivers: ' +
        "android-ondevice-accessibility, android-ondevice-instrumentation, android-test, revyl-android, ios-host, ios-axe, " +
        "revyl-ios, playwright-native, playwright-electron, compose (or their enum spellings, e.g. ANDROID_ONDEVICE_ACCESSIBILITY)",
    );
  });

  test("platforms any case, drivers as enum or yaml key, each tool entry located", () => {
    const toolset = parseToolsetConfig(
      "t.yaml",
      "id: x\nplatforms: [Android, WEB]\ndrivers: [IOS_HOST, playwright-native]\ntools: [a, b]\n",
      "/abs/t.yaml",
    );
    expect(toolset).toEqual({
      id: "x",
      description: "",
      platforms: ["ANDROID", "WEB"],
      drivers: ["ios-host", "playwright-native"],
      alwaysEnabled: false,
      tools: ["a", "b"],
      toolWheres: [
        { file: "t.yaml", line: 4, col: 9 },
        { file: "t.yaml", line: 4, col: 12 },
      ],
      file: "/abs/t.yaml",
      where: { file: "t.yaml", line: 1, col: 5 },
    });
  });

  test("unknown platform", () => {
    expect(() => parseToolsetConfig("t.yaml", "id: x\nplatforms: [andriod]\n")).toThrow(
      't.yaml:2:13 platforms[0]: unknown platform "andriod"; did you mean "android"? Known platforms: android, ios, web',
    );
  });
});
