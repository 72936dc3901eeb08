#!/usr/bin/env bun
// CLI entry: routes `bun trailblaze <command>` to a Command, turns errors into
// messages on stderr with exit code 1 or 2, and reaps sessions on any exit path.

import { exitCodeOf, TrailblazeError } from "../errors.ts";
import type { CliIO, Command } from "./command.ts";
import { reapAll } from "./reaper.ts";
import { toolsCommand } from "./commands/tools.ts";
import { callCommand } from "./commands/call.ts";
import { mcpCommand } from "./commands/mcp.ts";
import { runCommand } from "./commands/run.ts";
import { initToolCommand } from "./commands/init-tool.ts";
import { bundleCommand } from "./commands/bundle.ts";
import { checkBundleCommand } from "./commands/check-bundle.ts";
import { checkCommand } from "./commands/check.ts";
import { screenCommand } from "./commands/screen.ts";

export const COMMANDS: readonly Command[] = [
  runCommand,
  toolsCommand,
  callCommand,
  bundleCommand,
  checkBundleCommand,
  checkCommand,
  screenCommand,
  mcpCommand,
  initToolCommand,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: bun trailblaze <command> [options]

Runs Trailblaze scripted tools — standard MCP servers written in TypeScript — as bun
subprocesses (host agent) or inside QuickJS (on-device agent).

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run \`bun trailblaze <command> --help\` for a command's options.
Exit codes: 0 ok · 1 a step, tool call or check failed · 2 usage, configuration or environment error.
`;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout("trailblaze-ts 0.1.0\n");
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`error: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const message = error instanceof TrailblazeError || !(error instanceof Error) ? String((error as Error)?.message ?? error) : (error.stack ?? error.message);
    io.stderr(`error: ${message}\n`);
    return exitCodeOf(error);
  }
}

if (import.meta.main) {
  const io: CliIO = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
  const code = await runCli(process.argv.slice(2), io).catch(async (error) => {
    process.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await reapAll();
    return 1;
  });
  process.exitCode = code;
}
