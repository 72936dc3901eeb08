// The CLI: routes `trailblaze <command>` to a Command, turns errors into messages on stderr
// with exit code 1 or 2, and reaps sessions on any exit path. Everything on stderr (errors,
// warnings, notes, a step's model calls) is for a person: control characters in it are shown
// escaped (core/terminal-text.ts), whatever text from outside it carries. main.ts starts it,
// precompiled when it can (see precompiled-cli.ts); `bun src/cli/cli.ts …` runs it from the sources.

import { didYouMean } from "../core/did-you-mean.ts";
import { terminalText } from "../core/terminal-text.ts";
import { PACKAGE_VERSION } from "../core/package-version.ts";
import { exitCodeOf, TrailblazeError } from "../errors.ts";
import type { CliIO, CommandEntry } from "./command.ts";
import { invocationOf, renderCommands } from "./invocation.ts";
import { reapAll } from "./reaper.ts";
import { closeSharedBrowser } from "../browser/chromium-browser.ts";

/** Every command, loaded only when it runs (or its --help is asked for): `trailblaze --help` loads none. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "run",
    summary: "replay trail files, each in its own session, and report (list, json, junit, html)",
    load: async () => (await import("./commands/run.ts")).runCommand,
  },
  {
    name: "eval",
    summary: "measure models on your trails: every step through the agent, N runs each (list, json, html)",
    load: async () => (await import("./commands/eval.ts")).evalCommand,
  },
  {
    name: "merge-reports",
    summary: "join the JSON reports of sharded runs into one report (list, json, junit, html)",
    load: async () => (await import("./commands/merge-reports.ts")).mergeReportsCommand,
  },
  {
    name: "tools",
    summary: "list the tools a session registers (and the ones it skips, with why)",
    load: async () => (await import("./commands/tools.ts")).toolsCommand,
  },
  {
    name: "types",
    summary: "write trailblaze-client.d.ts, so tsc checks ctx.tools calls against a session's tools",
    load: async () => (await import("./commands/types.ts")).typesCommand,
  },
  {
    name: "step",
    summary: "do one step in words with the built-in agent on your model, and print its recording",
    load: async () => (await import("./commands/step.ts")).stepCommand,
  },
  {
    name: "verify",
    summary: "check a condition on the screen with the built-in agent (exit 0 holds, 1 not)",
    load: async () => (await import("./commands/step.ts")).verifyCommand,
  },
  {
    name: "call",
    summary: "call one tool in a fresh session and print the result",
    load: async () => (await import("./commands/call.ts")).callCommand,
  },
  {
    name: "bundle",
    summary: "bundle an MCP server file for the on-device (QuickJS) runtime",
    load: async () => (await import("./commands/bundle.ts")).bundleCommand,
  },
  {
    name: "check-bundle",
    summary: "check that an MCP server file or bundle runs on-device",
    load: async () => (await import("./commands/check-bundle.ts")).checkBundleCommand,
  },
  {
    name: "check",
    summary: "find config, naming, toolset, trail and bundle problems before a run",
    load: async () => (await import("./commands/check.ts")).checkCommand,
  },
  {
    name: "mcp",
    summary: "serve a session's tools to any MCP client over stdio",
    load: async () => (await import("./commands/mcp.ts")).mcpCommand,
  },
  {
    name: "init",
    summary: "scaffold a workspace here: a target, a tool server and its test, a trail",
    load: async () => (await import("./commands/init.ts")).initCommand,
  },
  {
    name: "init-tool",
    summary: "scaffold a per-file tool and its test, listed in a target (--server: an MCP server)",
    load: async () => (await import("./commands/init-tool.ts")).initToolCommand,
  },
  {
    name: "map",
    summary: "show an app map: waypoints, captures, shortcuts and check's findings (--html: as a page)",
    load: async () => (await import("./commands/map.ts")).mapCommand,
  },
  {
    name: "screen",
    summary: "outline a captured screen, resolve selectors on it, check it against a waypoint",
    load: async () => (await import("./commands/screen.ts")).screenCommand,
  },
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: trailblaze <command> [options]

Runs Trailblaze scripted tools — standard MCP servers written in TypeScript — as bun
subprocesses (host agent) or inside QuickJS (on-device agent).

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run \`trailblaze <command> --help\` for a command's options.
Exit codes: 0 ok · 1 a step, tool call or check failed · 2 usage, configuration or environment error.
`;
}

export async function runCli(argv: string[], given: CliIO): Promise<number> {
  const invocation = given.invocation ?? invocationOf(given.env);
  const io: CliIO = { ...given, invocation, stderr: (text) => given.stderr(terminalText(text)) };
  const render = (text: string) => renderCommands(text, invocation);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(render(mainHelp()));
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`trailblaze-ts ${PACKAGE_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr(
      render(
        `error: unknown command "${name}"${didYouMean(
          name,
          COMMANDS.map((c) => c.name),
        )}\n\n${mainHelp()}`,
      ),
    );
    return 2;
  }
  // `--help` is answered here for every command, before its own parsing (and before any work).
  const options = rest.indexOf("--") === -1 ? rest : rest.slice(0, rest.indexOf("--"));
  try {
    const command = await entry.load();
    if (options.includes("--help") || options.includes("-h")) {
      io.stdout(render(`${command.help}\n`));
      return 0;
    }
    return await command.run(rest, io);
  } catch (error) {
    const message =
      error instanceof TrailblazeError || !(error instanceof Error)
        ? String((error as Error)?.message ?? error)
        : (error.stack ?? error.message);
    io.stderr(render(`error: ${message}\n`));
    return exitCodeOf(error);
  } finally {
    // The browser its sessions shared (if any opened a page) goes with the command.
    await closeSharedBrowser();
  }
}

/** Runs the CLI as a process: real stdout/stderr, the exit code in `process.exitCode`. */
export async function main(argv: string[]): Promise<void> {
  // A reader that went away (`trailblaze run … | head -1`) is not an error of ours: stop writing,
  // keep the exit status the command earns.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
  const io: CliIO = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
  const code = await runCli(argv, io).catch(async (error) => {
    process.stderr.write(terminalText(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`));
    await reapAll();
    return 1;
  });
  process.exitCode = code;
}

// Not awaited: the precompiled CLI is CommonJS, which has no top-level await (the process lives until main is done).
if (import.meta.main) void main(process.argv.slice(2));
