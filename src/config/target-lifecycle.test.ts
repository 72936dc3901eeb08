// Lifecycle fields of mcp_servers entries (timeout_ms, max_total_timeout_ms, max_message_bytes,
// restart): parsed values and the exact message for each kind of mistake.
import { describe, expect, test } from "bun:test";
import { parseTargetConfig } from "./target-config.ts";

const target = (entry: string) => `id: app\nmcp_servers:\n  - ${entry.trim().split("\n").join("\n    ")}\n`;
const parse = (entry: string) => parseTargetConfig("t.yaml", target(entry)).mcpServers[0];
const problem = (entry: string) => {
  try {
    parseTargetConfig("t.yaml", target(entry));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parsed without problems");
};

describe("lifecycle fields", () => {
  test("are read on script and command entries alike", () => {
    const limits = "timeout_ms: 1000\nmax_total_timeout_ms: 5000\nmax_message_bytes: 2048\nrestart: { max_attempts: 2 }";
    const expected = { timeoutMs: 1000, maxTotalTimeoutMs: 5000, maxMessageBytes: 2048, restart: { maxAttempts: 2 } };
    expect(parse(`script: ./s.ts\n${limits}`)).toMatchObject({ kind: "script", ...expected });
    expect(parse(`command: node\n${limits}`)).toMatchObject({ kind: "command", ...expected });
  });

  test("are absent unless written (restart is off by default)", () => {
    const entry = parse("command: node");
    expect(entry).toEqual({ kind: "command", command: "node", args: [], env: {}, index: 0, where: { file: "t.yaml", line: 3, col: 5 } });
  });

  test("restart needs a positive max_attempts", () => {
    expect(problem("script: ./s.ts\nrestart: { max_attempts: 0 }")).toBe(
      "t.yaml:4:30 mcp_servers[0].restart.max_attempts: expected a number > 0, got a number (0)",
    );
    expect(problem("script: ./s.ts\nrestart: 3")).toBe("t.yaml:4:14 mcp_servers[0].restart: expected a map, got a number (3)");
    expect(problem("script: ./s.ts\nrestart:")).toBe("t.yaml:4:5 mcp_servers[0].restart: expected a map, got an empty value");
    expect(problem("script: ./s.ts\nrestart: { max_attempt: 2 }")).toBe(
      "2 configuration problems:\n" +
        '  t.yaml:4:14 mcp_servers[0].restart: missing required key "max_attempts" (a number)\n' +
        '  t.yaml:4:16 mcp_servers[0].restart: unknown key "max_attempt"; did you mean "max_attempts"?',
    );
  });

  test("byte and millisecond limits are positive integers", () => {
    expect(problem("command: node\nmax_message_bytes: 1.5")).toBe(
      "t.yaml:4:24 mcp_servers[0].max_message_bytes: expected an integer, got a number (1.5)",
    );
    expect(problem("command: node\nmax_total_timeout_ms: -1")).toBe(
      "t.yaml:4:27 mcp_servers[0].max_total_timeout_ms: expected a number > 0, got a number (-1)",
    );
    expect(problem("command: node\nmax_mesage_bytes: 100")).toBe(
      't.yaml:4:5 mcp_servers[0]: unknown key "max_mesage_bytes"; did you mean "max_message_bytes"?',
    );
  });

  test("the overall cap may not be below the per-call timeout", () => {
    expect(problem("command: node\ntimeout_ms: 1000\nmax_total_timeout_ms: 500")).toBe(
      "t.yaml:5:27 mcp_servers[0].max_total_timeout_ms: 500 is less than timeout_ms (1000); the overall cap must be at least the per-call timeout",
    );
  });
});
