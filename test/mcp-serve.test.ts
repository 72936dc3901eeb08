// `bun trailblaze mcp` on the host fixtures, driven by the SDK Client over a real
// stdio subprocess: the served tool list, every result variant, memory across
// calls, refusals, and teardown on client close, end of input and SIGTERM. The server is started as
// users start it (`bun src/cli/main.ts`: the precompiled CLI once built) in both passes of npm
// test, so the precompiled pass does not run this file again.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { processAlive } from "./support/process-alive.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { descendants, MAIN, serve, testEnv, waitGone, type Served } from "./support/mcp-serve.ts";

const HOST = join(REPO, "fixtures/host");
const logs = tempDir("mcp-serve-logs");
const BAD_META_WARNING =
  'warning: tools/primary.ts: tool fixture_badMeta: _meta["trailblaze/requiresHost"] should be a boolean, got a string ("yes"); using false\n';

const opened: Served[] = [];
async function serveHost(...flags: string[]): Promise<Served> {
  const served = await serve(["--target", "served", "--logs", logs, ...flags], { cwd: HOST });
  opened.push(served);
  return served;
}

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

function text(result: Record<string, unknown>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((c) => c.text ?? "").join("");
}

describe("tools/list", () => {
  test("serves the session's tools as registered, without isForLlm:false ones or _trailblazeContext", async () => {
    const served = await serveHost();
    const { tools } = await served.client.listTools();
    // Exactly the tools `tools --json` lists for the same session, minus isForLlm:false ones, in order.
    const listed = JSON.parse((await cli(["tools", "--target", "served", "--json", "--logs", logs], { cwd: HOST })).stdout);
    const forLlm = listed.tools.filter((t: { meta: { isForLlm: boolean } }) => t.meta.isForLlm);
    expect(tools.map((t) => t.name)).toEqual(forLlm.map((t: Tool) => t.name));
    expect(tools.filter((t) => t._meta?.["trailblaze/source"] !== "builtin").map((t) => t.name)).toEqual([
      "fixture_echo",
      "fixture_whereAmI",
      "fixture_contextArgs",
      "fixture_accessibilityOnly",
      "fixture_hostOnly",
      "fixture_pushed",
      "fixture_env",
      "fixture_variant",
      "fixture_crash",
      "fixture_badMeta",
      "fixture_whoServes",
      "fixture_annotated",
    ]);
    expect(tools.map((t) => t.name)).toContain("rememberValue");
    expect(listed.tools.map((t: Tool) => t.name)).toContain("fixture_internalOnly");
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema)).not.toContain("_trailblazeContext");
    expect(Object.keys(tools.find((t) => t.name === "fixture_contextArgs")!.inputSchema.properties!)).toEqual(["note"]);

    // Input schemas and descriptions are exactly as advertised.
    const advertised = new Map<string, { description: string; inputSchema: unknown }>(listed.tools.map((t: Tool) => [t.name, t]));
    for (const tool of tools) {
      expect(tool.inputSchema).toEqual(advertised.get(tool.name)!.inputSchema as Tool["inputSchema"]);
      expect(tool.description).toBe(advertised.get(tool.name)!.description);
    }
    expect(served.stderr()).toContain(BAD_META_WARNING);
    expect(served.clientErrors).toEqual([]);
  });

  test("_meta carries the tool's trailblaze/* keys, its source and first toolset; annotations pass through", async () => {
    const served = await serveHost();
    const byName = new Map((await served.client.listTools()).tools.map((t) => [t.name, t]));
    expect(byName.get("fixture_pushed")!._meta).toEqual({ "trailblaze/toolset": "fixture_other", "trailblaze/source": "tools/primary.ts" });
    expect(byName.get("fixture_echo")!._meta).toEqual({ "trailblaze/source": "tools/primary.ts", "trailblaze/toolset": "fixture_core" });
    expect(byName.get("fixture_hostOnly")!._meta).toEqual({ "trailblaze/requiresHost": true, "trailblaze/source": "tools/primary.ts" });
    expect(byName.get("assertEquals")!._meta).toEqual({ "trailblaze/source": "builtin" });
    const annotated = byName.get("fixture_annotated")!;
    expect(annotated._meta).toEqual({ "trailblaze/isRecordable": false, "trailblaze/source": "tools/served-extras.ts" });
    expect(annotated.annotations).toEqual({ title: "Annotated fixture", readOnlyHint: true, openWorldHint: false });
    expect(byName.get("fixture_echo")!.annotations).toBeUndefined();
  });
});

describe("tools/call", () => {
  test("every result variant comes back with content, isError and the variant in _meta", async () => {
    const served = await serveHost();
    const call = (kind: string) => served.client.callTool({ name: "fixture_variant", arguments: { kind } });
    expect(await call("success")).toEqual({
      content: [{ type: "text", text: "all good" }],
      structuredContent: { ok: true },
      isError: false,
      _meta: { trailblaze: { variant: "Success" } },
    });
    expect(await call("isError")).toEqual({
      content: [{ type: "text", text: "the backend said no" }],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
    expect(await call("throw")).toEqual({
      content: [{ type: "text", text: "handler blew up" }],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
    expect(await call("fatal")).toEqual({
      content: [{ type: "text", text: "device is disconnected" }],
      isError: true,
      _meta: { trailblaze: { variant: "FatalError" } },
    });
    expect(await call("missing")).toEqual({
      content: [{ type: "text", text: "email is required" }],
      isError: true,
      _meta: { trailblaze: { variant: "MissingRequiredArgs" } },
    });
    expect(await call("custom")).toEqual({
      content: [{ type: "text", text: "selector matched nothing" }],
      isError: true,
      _meta: { trailblaze: { variant: "MaestroValidationError" } },
    });
    // A local failure (no content from any server) still carries its message as text.
    expect(await served.client.callTool({ name: "assertEquals", arguments: { actual: 1, expected: 2 } })).toEqual({
      content: [{ type: "text", text: 'expected "2" but was "1"' }],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
    expect(served.clientErrors).toEqual([]);
  });

  test("the context is injected and memory written by one call is there for the next", async () => {
    const served = await serveHost("--memory", "seed=1");
    const call = (name: string, args: Record<string, unknown> = {}) => served.client.callTool({ name, arguments: args });
    expect(text(await call("fixture_whereAmI", { label: "before" }))).toBe("before: ANDROID x=undefined");
    expect(await call("rememberValue", { key: "x", value: "42" })).toMatchObject({ isError: false });
    expect(text(await call("fixture_whereAmI", { label: "after" }))).toBe("after: ANDROID x=42");
    expect((await call("dumpMemory")).structuredContent).toEqual({ memory: { seed: "1", x: "42" } });
    expect(await call("forgetValue", { key: "seed" })).toMatchObject({ isError: false });
    expect((await call("dumpMemory")).structuredContent).toEqual({ memory: { x: "42" } });
    // The envelope is the session's, whatever the client puts under the reserved key.
    const spoofed = await call("fixture_contextArgs", { note: "n", _trailblazeContext: { memory: { x: "spoofed" } } });
    expect(spoofed.structuredContent).toEqual({
      context: {
        sessionId: expect.any(String),
        invocationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        memory: { x: "42" },
        device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
        target: { id: "served", displayName: "Fixture served over MCP", appIds: [] },
      },
    });
  });

  test("{{KEY}} in arguments is replaced from --secret and memory as in a trail, the secret masked in the answer; an unknown key is refused", async () => {
    const served = await serveHost("--secret", "API_TOKEN=tok-51x9", "--memory", "greeting=hello");
    const call = (args: Record<string, unknown>) => served.client.callTool({ name: "fixture_echo", arguments: args });
    expect(text(await call({ text: "{{greeting}} ${greeting}" }))).toBe("echo: hello hello");
    // The tool got the secret's value (not the placeholder), which the answer masks.
    expect(text(await call({ text: "Bearer {{API_TOKEN}}" }))).toBe("echo: Bearer ***");
    const unknown = await call({ text: "{{NOPE}}" });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('fixture_echo: unknown key "NOPE" in {{NOPE}}; known keys, closest first: greeting, API_TOKEN');
    expect(text(await call({ text: "after" }))).toBe("echo: after");
  });

  test("an unknown, skipped or hidden tool is an error result naming why, and the server keeps serving", async () => {
    const served = await serveHost();
    const call = (name: string) => served.client.callTool({ name, arguments: {} });
    expect(await call("fixture_ecko")).toEqual({
      content: [
        {
          type: "text",
          text: 'Unknown tool "fixture_ecko": no registered tool has that name; did you mean "fixture_echo", "fixture_env"?',
        },
      ],
      isError: true,
      _meta: { trailblaze: { variant: "ExceptionThrown" } },
    });
    expect(text(await call("fixture_iosOnly"))).toBe(
      'Tool "fixture_iosOnly" (tools/primary.ts) is not available in this session: excluded by ' +
        '_meta["trailblaze/supportedPlatforms"] (supports platforms [ios], session platform is android)',
    );
    expect(text(await call("fixture_internalOnly"))).toBe(
      'Tool "fixture_internalOnly" is not served to MCP clients: it sets _meta["trailblaze/isForLlm"] to false (internal primitive)',
    );
    expect(await served.client.callTool({ name: "fixture_echo", arguments: { text: "still here" } })).toMatchObject({
      content: [{ type: "text", text: "echo: still here" }],
      isError: false,
    });
  });

  test("a server that dies mid-call is a FatalError; the other servers keep serving", async () => {
    const served = await serveHost();
    const crash = await served.client.callTool({ name: "fixture_crash", arguments: {} });
    expect(crash._meta).toEqual({ trailblaze: { variant: "FatalError" } });
    expect(text(crash)).toStartWith("MCP server tools/primary.ts exited with code 7 during the session");
    expect(await served.client.callTool({ name: "fixture_whoServes", arguments: { n: 1 } })).toMatchObject({ isError: false });
    expect(served.stderr()).toContain("error: MCP server tools/primary.ts exited with code 7 during the session");
  });
});

describe("lifecycle", () => {
  test("closing the client stops the server and every subprocess of the session", async () => {
    const served = await serve(["--target", "served", "--logs", logs], { cwd: HOST });
    const reported = await Promise.all(
      ["fixture_env", "fixture_whoServes", "fixture_annotated"].map(async (name) => {
        const result = await served.client.callTool({ name, arguments: {} });
        return (result.structuredContent as { pid: number }).pid;
      }),
    );
    const children = descendants(served.pid);
    expect(children.toSorted()).toEqual(reported.toSorted());
    expect([served.pid, ...children].every(processAlive)).toBe(true);
    await served.close();
    expect(await waitGone([served.pid, ...children])).toEqual([]);
  });

  test("end of input without a handshake: session torn down, exit 0, nothing on stdout", async () => {
    const child = Bun.spawn([process.execPath, MAIN, "mcp", "--target", "served", "--logs", logs], {
      cwd: HOST,
      env: testEnv(),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    child.stdin.end();
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^warning: tools\/primary\.ts: .*\n(warning: \[TrailmapScopingCheck\] .*\n)*trailblaze mcp: serving \d+ tool\(s\) of target served \(driver android-ondevice-accessibility, agent host, session [\w-]+\) on stdio\n$/,
    );
  });

  test("SIGTERM stops every subprocess, then exits 0", async () => {
    const child = Bun.spawn([process.execPath, MAIN, "mcp", "--target", "served", "--logs", logs], {
      cwd: HOST,
      env: testEnv(),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const stdout = new Response(child.stdout).text();
    const reader = child.stderr.getReader();
    let stderr = "";
    while (!stderr.includes("trailblaze mcp: serving")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server exited before serving:\n${stderr}`);
      stderr += new TextDecoder().decode(value);
    }
    const children = descendants(child.pid);
    expect(children).toHaveLength(3);
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    expect(await stdout).toBe("");
    expect(await waitGone(children)).toEqual([]);
  });

  test("configuration errors go to stderr with exit 2 before anything is served", async () => {
    const run = await cli(["mcp", "--target", "nope", "--logs", logs], { cwd: HOST });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `error: unknown target "nope" in ${HOST}/trailblaze-config: no target has that id or lists it as an app id; known targets: collide, fixture, paged, served, silent; known app ids: com.example.fixture\n`,
    );
  });

  test("--help documents the command; stray arguments are usage errors", async () => {
    const help = await cli(["mcp", "--help"], { cwd: HOST });
    expect(help.code).toBe(0);
    expect(help.stdout).toStartWith("Usage: npx trailblaze mcp [--cwd DIR] [--record FILE | --trail FILE] [session flags]\n");
    expect(help.stdout).toContain("--session-id ID");
    const stray = await cli(["mcp", "extra"], { cwd: HOST });
    expect(stray).toEqual({ code: 2, stdout: "", stderr: 'error: mcp: unexpected argument "extra"; see --help\n' });
  });
});
