// Precompiled host servers (src/bundle/host-bundle.ts): a cache that follows every input, the
// author's import.meta and stack positions kept, Bun bytecode for a server started often where the
// script allows it, the SDK's stdio transport on Bun's own streams, and the source as the fallback
// with a note.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { BYTECODE_AFTER_STARTS, hostBundle } from "../src/bundle/host-bundle.ts";
import { BundleError } from "../src/errors.ts";
import { MARKS_FAILED_ANSWERS } from "../src/core/answer-mark.ts";
import { cli, REPO } from "./support/cli.ts";
import { rejection } from "./support/rejection.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const work = mkdtempSync(join(tmpdir(), "host-bundle-"));
copyFixture(join(REPO, "fixtures/host-bundle"), work);
// Dated a minute back: a file written in the millisecond a build starts counts as changed during it,
// and the cache rightly does not store that build (build-cache.ts), which made the first test flaky.
const minuteAgo = new Date(Date.now() - 60_000);
for (const entry of readdirSync(work, { recursive: true, withFileTypes: true }))
  if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), minuteAgo, minuteAgo);
afterAll(() => rmSync(work, { recursive: true, force: true }));
const tools = join(work, "tools");

const firstLine = (file: string) => readFileSync(file, "utf8").split("\n", 1)[0];

/** The bundle's file after this process has asked for it BYTECODE_AFTER_STARTS times (as often as it started the server). */
async function startedOften(script: string): Promise<string> {
  let file = "";
  for (let i = 0; i < BYTECODE_AFTER_STARTS; i++) file = (await hostBundle(script, work)).file;
  return file;
}

describe("hostBundle", () => {
  test("is cached until any input changes", async () => {
    const script = join(tools, "where-am-i.ts");
    const first = await hostBundle(script, work);
    expect(first.cached).toBe(false);
    expect(await hostBundle(script, work)).toEqual({ file: first.file, cached: true, supplied: [] });
    writeFileSync(join(tools, "fails.ts"), `${await Bun.file(join(tools, "fails.ts")).text()}\n// edited\n`);
    expect((await hostBundle(script, work)).cached).toBe(false);
  });

  test("the bundle keeps the author's import.meta and maps stack positions to the author's files, in both its forms", async () => {
    const script = join(tools, "where-am-i.ts");
    const { file } = await hostBundle(script, work);
    const compiled = await startedOften(script);
    expect([firstLine(file), firstLine(compiled)]).toEqual(["// @bun", "// @bun @bytecode @bun-cjs"]);
    for (const form of [file, compiled]) {
      const child = Bun.spawn([process.execPath, form], { cwd: tools, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toEqual({ dir: tools, url: pathToFileURL(script).href, beside: "read relative to the author's file" });
      expect(stderr).toContain("error: thrown from fails.ts");
      expect(stderr).toContain(`${join(tools, "fails.ts")}:5:`);
    }
  });

  test("leaves the SDK's ajv out, and elicitation replies are still checked against the requested schema (the stand-in)", async () => {
    const { file } = await hostBundle(join(REPO, "fixtures/host-bundle/tools/elicit.ts"), work);
    const manifest = JSON.parse(readFileSync(`${dirname(file)}.json`, "utf8")) as { inputs: string[] };
    expect(manifest.inputs.filter((input) => /node_modules\/ajv/.test(input))).toEqual([]);
    expect(manifest.inputs).toContain(join(REPO, "src/bundle/stubs/ajv-provider.ts"));
    for (const [content, expected] of [
      [{ name: "Ada", age: 36 }, '{"name":"Ada","age":36}'],
      [
        { age: 1.5 },
        "MCP error -32602: Elicitation response content does not match requested schema: data must have required property 'name', data/age must be integer",
      ],
    ] as const) {
      const client = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content }));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [file] }));
      const result = await client.callTool({ name: "ask", arguments: {} });
      expect((result.content as { text: string }[])[0]!.text).toBe(expected);
      await client.close();
    }
  });

  test("the SDK's stdio transport reads Bun's own stdin and writes its stdout: a 1 MB request and a 6 MB reply cross intact", async () => {
    const { file } = await hostBundle(join(REPO, "fixtures/host-bundle/tools/echo-big.ts"), work);
    const manifest = JSON.parse(readFileSync(`${dirname(file)}.json`, "utf8")) as { inputs: string[] };
    expect(manifest.inputs).toContain(join(REPO, "src/bundle/stubs/bun-stdio.ts"));
    for (const OWN_STREAMS of ["0", "1"]) {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [file],
          env: { ...process.env, OWN_STREAMS } as Record<string, string>,
        }),
      );
      const text = "0123456789abcdef".repeat(65_536);
      const results = await Promise.all([6, 1].map((times) => client.callTool({ name: "echo", arguments: { text, times } })));
      expect(results.map((result) => (result.content as { text: string }[])[0]!.text.length)).toEqual([6 * text.length, text.length]);
      expect((results[0]!.content as { text: string }[])[0]!.text).toBe(text.repeat(6));
      await client.close();
    }
  });

  test("a precompiled server exits by itself once its stdin closes, as from source", async () => {
    const { file } = await hostBundle(join(REPO, "fixtures/host-bundle/tools/echo-big.ts"), work);
    const child = Bun.spawn([process.execPath, file], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    expect(JSON.parse(new TextDecoder().decode(value)).result.serverInfo.name).toBe("echo-big");
    await child.stdin.end();
    expect(await child.exited).toBe(0);
    expect(child.signalCode).toBeNull();
  });

  test(`started ${BYTECODE_AFTER_STARTS} times in a process, runs from Bun bytecode when its top level awaits, for later runs too; stays an ES module when it exports`, async () => {
    const script = join(REPO, "fixtures/host-bundle/tools/echo-big.ts");
    const first = await hostBundle(script, work);
    expect(existsSync(`${first.file}.jsc`)).toBe(false);
    const compiled = await startedOften(script);
    expect(firstLine(compiled)).toBe("// @bun @bytecode @bun-cjs");
    expect(existsSync(`${compiled}.jsc`)).toBe(true);
    // The cache entry names the compiled form: what another process's first start finds.
    expect((JSON.parse(readFileSync(`${dirname(first.file)}.json`, "utf8")) as { file: string }).file).toBe(compiled);
    const file = await startedOften(join(tools, "exports.ts"));
    expect(firstLine(file)).toBe("// @bun");
    expect(existsSync(`${file}.jsc`)).toBe(false);
    const run = Bun.spawnSync([process.execPath, file]);
    expect(JSON.parse(run.stdout.toString())).toEqual({ answer: 42, main: true });
  });

  test("a script Bun cannot bundle is a BundleError naming it (the launcher then runs the source)", async () => {
    const error = await rejection(hostBundle(join(tools, "needs-missing.ts"), work));
    expect(error).toBeInstanceOf(BundleError);
    expect(error.message).toStartWith("Cannot precompile tools/needs-missing.ts for the host: ");
    expect(error.message).toContain("trailblaze-no-such-package");
  });
});

describe("a workspace outside this repository", () => {
  // No node_modules above it: its tools import the SDK that trailblaze-ts supplies. A bun started
  // without --no-install (as `bun path/to/main.ts` is) auto-installs what Bun.resolveSync finds in no
  // node_modules folder, into its global cache: the patch must still find our copy, for every importer.
  test("gets precompiled servers whose stdio transport is patched for every import of it, from a bun that auto-installs", async () => {
    const outside = mkdtempSync(join(tmpdir(), "host-bundle-outside-"));
    try {
      expect(existsSync(join(dirname(outside), "node_modules"))).toBe(false);
      const tools = join(outside, "tools");
      mkdirSync(tools);
      const server = (name: string, extra = "") =>
        `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n` +
        `import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n${extra}` +
        `const server = new McpServer({ name: "${name}", version: "1.0.0" });\n` +
        `server.registerTool("${name}_fail", { description: "fails" }, async () => ({ isError: true, content: [{ type: "text", text: "no" }] }));\n` +
        "await server.connect(new StdioServerTransport());\n";
      // The SDK alone (the build failed: "bunStdio did not apply"), and with the author package, whose
      // own import of the transport was patched while the script's was not.
      writeFileSync(join(tools, "sdk-only.ts"), server("sdkOnly"));
      writeFileSync(join(tools, "with-scripting.ts"), server("withScripting", 'import "@trailblaze/scripting/serve-tools";\n'));
      const build = join(outside, "build.ts");
      writeFileSync(
        build,
        `import { hostBundle } from ${JSON.stringify(join(REPO, "src/bundle/host-bundle.ts"))};\n` +
          `const out = [];\nfor (const name of ["sdk-only", "with-scripting"]) {\n` +
          `  try { out.push(await hostBundle(${JSON.stringify(tools)} + "/" + name + ".ts", ${JSON.stringify(outside)})); }\n` +
          "  catch (error) { out.push({ error: error.message }); }\n}\nconsole.log(JSON.stringify(out));\n",
      );
      // No --no-install, and no bunfig: this folder is not the repository's.
      const child = Bun.spawnSync([process.execPath, build], {
        cwd: outside,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" },
      });
      expect(child.stderr.toString()).toBe("");
      const built = JSON.parse(child.stdout.toString()) as { file?: string; patches?: string[]; error?: string }[];
      expect(built.map((b) => b.error ?? b.patches)).toEqual([
        ["bunStdio", "ajvStandIn", "pureSchemas"],
        ["bunStdio", "ajvStandIn", "pureSchemas"],
      ]);
      // Each server's transport is the patched one: it says, as it starts, that it marks failed answers.
      for (const { file } of built) {
        const run = Bun.spawn([process.execPath, file!], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
        await run.stdin.end();
        expect(await run.exited).toBe(0);
        expect(await new Response(run.stderr).text()).toBe(`${MARKS_FAILED_ANSWERS}\n`);
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("a session", () => {
  test("runs a script it cannot precompile from source, with a note, and the source's own error", async () => {
    const run = await cli(["tools", "--target", "missing"], { cwd: work });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("note: Cannot precompile tools/needs-missing.ts for the host: ");
    expect(run.stderr).toContain("; running it from source\n");
    expect(run.stderr).toContain("MCP server tools/needs-missing.ts exited with code 1 during startup (initialize/tools/list)");
  });
});
