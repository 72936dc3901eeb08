// `trailblaze mcp` on the demo workspace: a standard MCP client lists and
// calls its tools under both agents, and the mcpServers snippets of docs/cli.md run
// as a desktop client would start them (from `/`, with a minimal environment), in a
// project that has trailblaze-ts installed as npm installs it (a bin link, hoisted packages).

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { REPO, tempDir } from "./support/cli.ts";
import { descendants, installedProject, serve, waitGone, type Served } from "./support/mcp-serve.ts";

const DEMO = join(REPO, "fixtures/demo");
const logs = tempDir("mcp-serve-demo-logs");
const opened: Served[] = [];

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

async function serveDemo(...flags: string[]): Promise<Served> {
  const served = await serve(["--logs", logs, ...flags], { cwd: DEMO });
  opened.push(served);
  return served;
}

const nonBuiltin = (tools: { name: string; _meta?: Record<string, unknown> }[]) =>
  tools.filter((t) => t._meta?.["trailblaze/source"] !== "builtin").map((t) => t.name);

async function logInAndOut(served: Served): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}) => served.client.callTool({ name, arguments: args });
  expect(await call("myapp_logInWithEmail", { email: "test@example.com" })).toEqual({
    content: [{ type: "text", text: "logged in as test@example.com on ANDROID" }],
    structuredContent: { email: "test@example.com", greeting: "Hello Test" },
    isError: false,
    _meta: { trailblaze: { variant: "Success" } },
  });
  expect((await call("dumpMemory")).structuredContent).toEqual({ memory: { greeting: "Hello Test", loggedInAs: "test@example.com" } });
  // myapp_logOut reads memory.loggedInAs from its context: the previous call's memoryDelta was applied.
  expect(await call("myapp_logOut")).toMatchObject({ content: [{ type: "text", text: "logged out test@example.com" }], isError: false });
  // … and its memoryDeletions were applied too.
  expect(await call("myapp_logOut")).toEqual({
    content: [{ type: "text", text: "nobody is logged in" }],
    isError: true,
    _meta: { trailblaze: { variant: "ExceptionThrown" } },
  });
  expect((await call("dumpMemory")).structuredContent).toEqual({ memory: {} });
}

describe("demo workspace", () => {
  test("host agent: every demo tool for the session is listed; log in then out shares memory", async () => {
    const served = await serveDemo();
    const { tools } = await served.client.listTools();
    expect(nonBuiltin(tools)).toEqual(["myapp_logInWithEmail", "myapp_logOut", "myapp_generateUser", "myapp_seedBackend"]);
    expect(tools.find((t) => t.name === "myapp_logInWithEmail")!._meta).toEqual({
      "trailblaze/toolset": "myapp_login",
      "trailblaze/requiresContext": true,
      "trailblaze/source": "tools/myapp/login.ts",
    });
    await logInAndOut(served);
    expect(served.clientErrors).toEqual([]);
  });

  test("on-device agent: host-only tools are absent and refused; the QuickJS tools share memory; nothing outlives close", async () => {
    const served = await serve(["--logs", logs, "--agent", "on-device"], { cwd: DEMO });
    const { tools } = await served.client.listTools();
    expect(nonBuiltin(tools)).toEqual(["myapp_logInWithEmail", "myapp_logOut", "myapp_generateUser"]);
    const seed = await served.client.callTool({ name: "myapp_seedBackend", arguments: { email: "a@b.c" } });
    expect(seed).toEqual({
      content: [
        {
          type: "text",
          text:
            'Tool "myapp_seedBackend" (tools/myapp/data.ts) is not available in this session: excluded by ' +
            '_meta["trailblaze/requiresHost"] (host-only tool, session agent is on-device)',
        },
      ],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
    await logInAndOut(served);
    const generated = await served.client.callTool({ name: "myapp_generateUser", arguments: { seed: 7 } });
    const email = (generated.structuredContent as { email: string }).email;
    expect((await served.client.callTool({ name: "dumpMemory", arguments: {} })).structuredContent).toEqual({ memory: { email } });
    const processes = [served.pid, ...descendants(served.pid)];
    await served.close();
    expect(await waitGone(processes)).toEqual([]);
  });
});

/** The `mcpServers` entries of docs/cli.md's MCP section, pointed at `project`. */
function documentedServers(project: string): [string, { command: string; args: string[]; env?: Record<string, string> }][] {
  const page = readFileSync(join(REPO, "docs/cli.md"), "utf8");
  // Up to the recording subsection, whose snippets test/mcp-record.test.ts runs.
  const section = page.slice(page.indexOf("## Serving tools to MCP clients"), page.indexOf("### Recording trails with your agent"));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("/abs/path/to/my-project", project));
  return blocks.flatMap((block) => Object.entries(JSON.parse(block).mcpServers as Record<string, { command: string; args: string[] }>));
}

describe("docs/cli.md", () => {
  const project = installedProject();
  const servers = documentedServers(project);

  test("shows the installed bin and the npx forms", () => {
    expect(servers.map(([, s]) => s.command)).toEqual([join(project, "node_modules/.bin/trailblaze"), "npx"]);
  });

  for (const [name, server] of servers) {
    test(`the "${name}" entry (${basename(server.command)}) starts from / with a desktop client's minimal environment and serves the demo`, async () => {
      const served = await serve([...server.args, "--logs", logs], {
        cwd: "/",
        command: server.command,
        env: { HOME: process.env.HOME ?? "/", PATH: "/usr/local/bin:/usr/bin:/bin", ...server.env },
      });
      opened.push(served);
      const { tools } = await served.client.listTools();
      expect(nonBuiltin(tools)).toEqual(["myapp_logInWithEmail", "myapp_logOut", "myapp_generateUser", "myapp_seedBackend"]);
      expect(await served.client.callTool({ name: "myapp_generateUser", arguments: { seed: 1 } })).toMatchObject({ isError: false });
      const processes = [served.pid, ...descendants(served.pid)];
      await served.close();
      expect(await waitGone(processes)).toEqual([]);
    });
  }
});
