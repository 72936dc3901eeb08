import { describe, expect, test } from "bun:test";
import * as errors from "./errors.ts";

// Codes and exit codes are part of the API (reporters, scripts and exit statuses read them): each
// class's pair is pinned here, and its name is the class's own.
const KINDS: [keyof typeof errors, () => errors.TrailblazeError, string, 1 | 2][] = [
  ["ConfigError", () => new errors.ConfigError([{ file: "a.yaml", line: 1, col: 2, path: "x", message: "m" }]), "CONFIG_INVALID", 2],
  ["UsageError", () => new errors.UsageError("u"), "USAGE", 2],
  ["RuntimeNotFoundError", () => new errors.RuntimeNotFoundError("r"), "RUNTIME_NOT_FOUND", 2],
  ["BrowserNotFoundError", () => new errors.BrowserNotFoundError("b"), "BROWSER_NOT_FOUND", 2],
  ["BrowserLaunchError", () => new errors.BrowserLaunchError("b"), "BROWSER_LAUNCH", 1],
  ["SpawnError", () => new errors.SpawnError("s"), "SPAWN_FAILED", 2],
  ["ServerExitedError", () => new errors.ServerExitedError("s", { exitCode: 3, signal: null }, [], "at start"), "SERVER_EXITED", 1],
  ["HandshakeTimeoutError", () => new errors.HandshakeTimeoutError("s", 10, []), "HANDSHAKE_TIMEOUT", 2],
  ["ProtocolError", () => new errors.ProtocolError("p"), "PROTOCOL", 2],
  ["ToolNotFoundError", () => new errors.ToolNotFoundError("t", [], 0), "TOOL_NOT_FOUND", 2],
  ["ToolCollisionError", () => new errors.ToolCollisionError("t", "a", "b"), "TOOL_COLLISION", 2],
  ["ToolNameError", () => new errors.ToolNameError("s", ["p"]), "TOOL_NAME", 2],
  ["SandboxError", () => new errors.SandboxError("m", "stuck"), "SANDBOX", 1],
  ["BundleError", () => new errors.BundleError("m"), "BUNDLE", 1],
  ["SessionStartError", () => new errors.SessionStartError([new Error("x")]), "SESSION_START", 1],
  ["ConfigNotFoundError", () => new errors.ConfigNotFoundError("c"), "CONFIG_NOT_FOUND", 2],
  ["InterpolationError", () => new errors.InterpolationError("m", "k", []), "UNKNOWN_PLACEHOLDER", 1],
  ["ServerFailedError", () => new errors.ServerFailedError("s", "m"), "SERVER_FAILED", 1],
  ["ScaffoldError", () => new errors.ScaffoldError("s"), "SCAFFOLD_EXISTS", 2],
  ["CaptureError", () => new errors.CaptureError("f.json", "$", "p"), "CAPTURE_INVALID", 2],
  ["SelectorError", () => new errors.SelectorError("s", "p"), "SELECTOR_INVALID", 2],
  ["ReportFileError", () => new errors.ReportFileError("r.json", "p"), "REPORT_INVALID", 2],
  ["ReporterLoadError", () => new errors.ReporterLoadError("./r.ts", "p"), "REPORTER_LOAD", 2],
  ["LlmError", () => new errors.LlmError("m", 1), "LLM", 1],
];

describe("error classes", () => {
  test.each(KINDS)("%s: its code, exit code and name", (name, make, code, exitCode) => {
    const error = make();
    expect(error).toBeInstanceOf(errors.TrailblazeError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.exitCode, errors.exitCodeOf(error)]).toEqual([name, code, exitCode, exitCode]);
  });

  test("every exported error class is pinned above", () => {
    const classes = Object.entries(errors)
      .filter(([, value]) => typeof value === "function" && value.prototype instanceof errors.TrailblazeError)
      .map(([name]) => name);
    expect(classes.sort()).toEqual(KINDS.map(([name]) => name).sort());
  });

  test("exit codes that depend on the case", () => {
    const exit = { exitCode: 0, signal: null };
    expect(new errors.ServerExitedError("s", exit, [], "at start", undefined, { neverConnected: true }).exitCode).toBe(2);
    expect(new errors.SandboxError("m", "not-connected").exitCode).toBe(2);
    expect(new errors.SessionStartError([new errors.UsageError("u"), new errors.SandboxError("m", "stuck")]).exitCode).toBe(2);
    expect(new errors.LlmError("m", 2).exitCode).toBe(2);
    expect(errors.exitCodeOf(new Error("plain"))).toBe(1);
  });

  test("fields given to the constructor are kept, and the message is built from them", () => {
    const error = new errors.ServerExitedError("echo", { exitCode: null, signal: "SIGKILL" }, ["boom"], "during a call", "try again");
    expect({ server: error.server, exit: error.exit, tail: error.stderrTail, short: error.shortMessage }).toEqual({
      server: "echo",
      exit: { exitCode: null, signal: "SIGKILL" },
      tail: ["boom"],
      short: "MCP server echo was killed by SIGKILL during a call",
    });
    expect(error.message).toBe("MCP server echo was killed by SIGKILL during a call; try again\n--- last 1 stderr line(s) ---\nboom");
    const capture = new errors.CaptureError("s.json", "$.a", "not a number", { cause: "c" });
    expect([capture.file, capture.jsonPath, capture.message, capture.cause]).toEqual(["s.json", "$.a", "s.json: $.a: not a number", "c"]);
    expect(new errors.ToolCollisionError("t", "a", "b").sources).toEqual(["a", "b"]);
  });
});
