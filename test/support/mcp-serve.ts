// Drives `bun src/cli/main.ts mcp …` as a real stdio subprocess with the SDK Client,
// finds the processes it started (from /proc) for leak checks, and makes a project with
// trailblaze-ts installed, for the documented client configurations.

import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { descendants as descendantIdentities } from "../../src/transports/stdio/process-group.ts";
import { processAlive } from "./process-alive.ts";
import { REPO, TEST_PATH, tempDir } from "./cli.ts";

export const MAIN = join(REPO, "src/cli/main.ts");

export interface Served {
  client: Client;
  /** PID of the `trailblaze mcp` process. */
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Errors the client saw on the wire (non-protocol bytes on stdout would land here). */
  clientErrors: Error[];
  close(): Promise<void>;
}

export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, PATH: TEST_PATH, ...extra };
}

/** Starts `trailblaze mcp <args>` in `cwd` and connects an SDK Client to it. */
export async function serve(args: string[], options: { cwd: string; command?: string; env?: Record<string, string> }): Promise<Served> {
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: options.command ? args : [MAIN, "mcp", ...args],
    cwd: options.cwd,
    env: options.env ?? testEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: "trailblaze-test-client", version: "1.0.0" });
  const clientErrors: Error[] = [];
  client.onerror = (error) => void clientErrors.push(error);
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("the mcp server has no pid after connecting");
  return { client, pid, stderr: () => stderr, clientErrors, close: () => client.close() };
}

/** Every live descendant of `pid` (children, grandchildren, …). */
export function descendants(pid: number): number[] {
  return descendantIdentities(pid).map((child) => child.pid);
}

/** Polls until none of `pids` is alive, up to `timeoutMs`; returns the ones still alive. */
export async function waitGone(pids: number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pids.some(processAlive)) return [];
    await Bun.sleep(50);
  }
  return pids.filter(processAlive);
}

/** A project with the demo workspace and trailblaze-ts installed into its node_modules, as npm links it. */
export function installedProject(): string {
  const project = join(tempDir("mcp-serve-project"), "my-project");
  cpSync(join(REPO, "fixtures/demo"), project, { recursive: true, filter: (path) => !/[\\/](logs|\.cache)$/.test(path) });
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  mkdirSync(join(modules, "@trailblaze"));
  symlinkSync(REPO, join(modules, "trailblaze-ts"));
  symlinkSync("../trailblaze-ts/src/cli/launcher.sh", join(modules, ".bin/trailblaze"));
  for (const name of ["@modelcontextprotocol", "zod", "@trailblaze/scripting"])
    symlinkSync(join(REPO, "node_modules", name), join(modules, name));
  return project;
}
