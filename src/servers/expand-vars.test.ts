import { describe, expect, test } from "bun:test";
import { ConfigError } from "../errors.ts";
import { expandCommand, expandVars } from "./expand-vars.ts";
import type { ResolvedServer } from "../config/script-paths.ts";

describe("expandVars", () => {
  const env = { HOME: "/home/me", EMPTY: "", PORT: "8080" };

  test("${NAME} takes the value; an empty value counts as set", () => {
    expect(expandVars("${HOME}/bin:${EMPTY}:${PORT}", env)).toEqual({ value: "/home/me/bin::8080", missing: [] });
  });

  test("${NAME:-fallback} falls back when unset or empty, like a POSIX shell", () => {
    expect(expandVars("${NOPE:-a b}|${EMPTY:-e}|${PORT:-1}|${NOPE:-}", env)).toEqual({ value: "a b|e|8080|", missing: [] });
  });

  test("unset names without a fallback are reported and left as written", () => {
    expect(expandVars("--token=${TOKEN} ${TOKEN} ${OTHER}", env)).toEqual({
      value: "--token=${TOKEN} ${TOKEN} ${OTHER}",
      missing: ["TOKEN", "TOKEN", "OTHER"],
    });
  });

  test("anything else is left alone: $NAME, ${1}, ${}, a lone $", () => {
    expect(expandVars("$HOME ${1} ${} $ ${HOME", env)).toEqual({ value: "$HOME ${1} ${} $ ${HOME", missing: [] });
  });
});

describe("expandCommand", () => {
  const server: Extract<ResolvedServer, { kind: "command" }> = {
    kind: "command",
    command: "${TOOLS:-/opt}/server",
    args: ["--port", "${PORT}", "--key=${API_KEY}"],
    env: { A: "${PORT}", B: "${SECRET}" },
    display: "${TOOLS:-/opt}/server --port ${PORT} --key=${API_KEY}",
    origin: { where: { file: "targets/app.yaml", line: 4, col: 5 }, index: 1 },
  };

  test("command, args and env values are expanded", () => {
    expect(expandCommand(server, { PORT: "9", API_KEY: "k", SECRET: "s" })).toEqual({
      command: "/opt/server",
      args: ["--port", "9", "--key=k"],
      env: { A: "9", B: "s" },
    });
  });

  test("every unset variable is reported at once, located at the entry", () => {
    let error: unknown;
    try {
      expandCommand(server, { PORT: "9" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      "2 configuration problems:\n" +
        "  targets/app.yaml:4:5 mcp_servers[1].args[2]: ${API_KEY} is not set in the environment; set it, or give a default: ${API_KEY:-value}\n" +
        "  targets/app.yaml:4:5 mcp_servers[1].env.B: ${SECRET} is not set in the environment; set it, or give a default: ${SECRET:-value}",
    );
  });
});
