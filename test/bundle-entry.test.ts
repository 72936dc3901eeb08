// bundleEntry on real author files: lean output, caching, Node built-ins rejected with the
// importing file, and the zod/SDK stand-ins still behaving like the real thing in QuickJS.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { buildOnDevice, bundleEntry } from "../src/bundle/bundle-entry.ts";
import { BundleError } from "../src/errors.ts";
import { startQuickJsServer } from "../runtime-quickjs/index.ts";
import { rejection } from "./support/rejection.ts";

const REPO = resolve(import.meta.dir, "..");
mkdirSync(join(REPO, ".cache"), { recursive: true });
// Inside the repo so author files resolve the SDK and zod from its node_modules.
const TMP = mkdtempSync(join(REPO, ".cache", "bundle-entry-test-"));
const CACHE = join(TMP, "cache");
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const HOST_ONLY = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';

function author(name: string, source: string): string {
  const file = join(TMP, name);
  writeFileSync(file, source);
  return relative(REPO, file);
}

const HEADER = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
`;

async function run(code: string) {
  const server = await startQuickJsServer({ name: "bundle-test", code });
  const client = new Client({ name: "bundle-test", version: "1.0.0" });
  await client.connect(server.transport);
  return client;
}

describe("the McpServer + zod fixture", () => {
  test("bundles to at most 200 KB without ajv, zod v3, zod-to-json-schema, locales or the stdio transport", async () => {
    const result = await bundleEntry("fixtures/bundle/echo-server.ts", { cwd: REPO, cacheDir: CACHE });
    expect(result.bytes).toBeLessThanOrEqual(200 * 1024);
    expect(result.bytes).toBe(Buffer.byteLength(result.code));
    expect(result.code).toStartWith("(async()=>{");
    expect(result.warnings).toEqual([]);

    const { included } = await buildOnDevice(join(REPO, "fixtures/bundle/echo-server.ts"), REPO);
    const shown = included.map((input) => relative(REPO, input));
    expect(
      shown.filter((input) =>
        /node_modules\/(ajv|ajv-formats|zod-to-json-schema)\/|zod\/v3\/|sdk\/dist\/esm\/server\/stdio\.js/.test(input),
      ),
    ).toEqual([]);
    expect(shown.filter((input) => input.includes("zod/v4/locales/"))).toEqual(["node_modules/zod/v4/locales/en.js"]);
    expect(shown).toContain("runtime-quickjs/guest/stdio-server-transport.ts");
    expect(shown).toContain("src/bundle/stubs/ajv-provider.ts");
  });

  test("is cached by content; outFile gets a copy", async () => {
    const entry = author("cached.ts", readFileSync(join(REPO, "fixtures/bundle/echo-server.ts"), "utf8"));
    // Written a while ago: a file modified in the millisecond a build starts may have changed during
    // it, and that build is not stored (build-cache.ts), which is not what this test is about.
    const before = new Date(Date.now() - 60_000);
    utimesSync(join(REPO, entry), before, before);
    const first = await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE });
    expect(first.cached).toBe(false);
    const again = await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE, outFile: join(TMP, "out/cached.bundle.js") });
    expect(again.cached).toBe(true);
    expect(again.code).toBe(first.code);
    expect(again.path).toBe(join(TMP, "out/cached.bundle.js"));
    expect(readFileSync(again.path, "utf8")).toBe(first.code);

    writeFileSync(join(REPO, entry), readFileSync(join(REPO, entry), "utf8").replace("Echoes its text back", "Echoes, changed"));
    const changed = await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE });
    expect(changed.cached).toBe(false);
    expect(changed.code).toContain("Echoes, changed");
  });

  test("a missing entry is named with where it was looked for", async () => {
    const error = await rejection(bundleEntry("fixtures/bundle/nope.ts", { cwd: REPO, cacheDir: CACHE }));
    expect(error.message).toBe(
      `fixtures/bundle/nope.ts: file not found (resolved against ${REPO}; relative paths resolve against the working directory)`,
    );
  });
});

describe("Node built-ins fail the bundle, naming the importing file and the fix", () => {
  test("node:fs in the entry", async () => {
    const error = await rejection(bundleEntry("fixtures/bundle/node-fs.ts", { cwd: REPO, cacheDir: CACHE }));
    expect(error).toBeInstanceOf(BundleError);
    expect(error.message).toBe(
      `Cannot bundle fixtures/bundle/node-fs.ts for on-device: fixtures/bundle/node-fs.ts:2:30: imports "node:fs", a Node built-in that does not exist on-device; ${HOST_ONLY}`,
    );
  });

  test("bare child_process in a helper the entry imports", async () => {
    const helper = author(
      "run-helper.ts",
      `import { execSync } from "child_process";\nexport const run = (cmd: string) => String(execSync(cmd));\n`,
    );
    const entry = author(
      "uses-helper.ts",
      `${HEADER}import { run } from "./run-helper.ts";\nconst s = new McpServer({ name: "x", version: "1" });\nvoid run;\nawait s.connect(new StdioServerTransport());\n`,
    );
    const error = await rejection(bundleEntry(entry, { cwd: REPO, cacheDir: CACHE }));
    expect(error.message).toBe(
      `Cannot bundle ${entry} for on-device: ${helper}:1:26: imports "child_process", a Node built-in that does not exist on-device; ${HOST_ONLY}`,
    );
  });
});

describe("zod stand-ins keep the SDK working", () => {
  test("z used as a whole value still bundles lean; z.locales names the direct import", async () => {
    const entry = author(
      "z-value.ts",
      `${HEADER}import { z } from "zod";
const zed = [z][0]!;
const s = new McpServer({ name: "z-value", version: "1" });
s.registerTool("shout", { inputSchema: { text: zed.string().min(2) } }, async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }));
s.registerTool("german", { inputSchema: {} }, async () => { z.config(z.locales.de()); return { content: [{ type: "text", text: "ok" }] }; });
await s.connect(new StdioServerTransport());
`,
    );
    const result = await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE });
    expect(result.bytes).toBeLessThanOrEqual(300 * 1024);
    const client = await run(result.code);
    expect(await client.callTool({ name: "shout", arguments: { text: "hey" } })).toEqual({ content: [{ type: "text", text: "HEY" }] });
    const short = await client.callTool({ name: "shout", arguments: { text: "h" } });
    expect((short.content as { text: string }[])[0]!.text).toBe(
      "MCP error -32602: Input validation error: Invalid arguments for tool shout: Too small: expected string to have >=2 characters at text",
    );
    const german = await client.callTool({ name: "german", arguments: {} });
    expect((german.content as { text: string }[])[0]!.text).toBe(
      'z.locales.de is left out of on-device bundles to keep them small; import it directly: import { de } from "zod/locales"',
    );
    await client.close();
  });

  test("an author on zod v3 gets the real zod v3 runtime and zod-to-json-schema", async () => {
    const entry = author(
      "zod3.ts",
      `${HEADER}import { z } from "zod/v3";
const s = new McpServer({ name: "zod3", version: "1" });
s.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
await s.connect(new StdioServerTransport());
`,
    );
    const client = await run((await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE })).code);
    const { tools } = await client.listTools();
    expect(tools[0]!.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "5" }] });
    const bad = await client.callTool({ name: "add", arguments: { a: "2", b: 3 } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  test("elicitation replies are still checked against the requested schema (the ajv stand-in)", async () => {
    const entry = author(
      "elicit.ts",
      `${HEADER}import { z } from "zod";
const s = new McpServer({ name: "elicit", version: "1" });
s.registerTool("ask", { inputSchema: {} }, async () => {
  const reply = await s.server.elicitInput({ message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string", minLength: 2 }, age: { type: "integer", minimum: 0 } }, required: ["name"] } });
  return { content: [{ type: "text", text: JSON.stringify(reply.content) }] };
});
void z;
await s.connect(new StdioServerTransport());
`,
    );
    const code = (await bundleEntry(entry, { cwd: REPO, cacheDir: CACHE })).code;
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    for (const [content, expected] of [
      [{ name: "Ada", age: 36 }, '{"name":"Ada","age":36}'],
      [
        { age: 1.5 },
        "MCP error -32602: Elicitation response content does not match requested schema: data must have required property 'name', data/age must be integer",
      ],
    ] as const) {
      const server = await startQuickJsServer({ name: "elicit", code });
      const client = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content }));
      await client.connect(server.transport);
      const result = await client.callTool({ name: "ask", arguments: {} });
      expect((result.content as { text: string }[])[0]!.text).toBe(expected);
      await client.close();
    }
  });
});

describe("zod's export names, worked out once per installed zod", () => {
  /** Bundles `entry` in a fresh process (nothing of this one's memory): its exit code and the end of its stderr. */
  function bundleInFreshProcess(entry: string, cacheDir: string): { code: number | null; stderr: string } {
    const script = join(TMP, "bundle-once.ts");
    writeFileSync(
      script,
      `import { bundleEntry } from ${JSON.stringify(join(REPO, "src/bundle/bundle-entry.ts"))};\n` +
        `await bundleEntry(process.argv[2]!, { cwd: ${JSON.stringify(REPO)}, cacheDir: process.argv[3]! });\n`,
    );
    const run = Bun.spawnSync([process.execPath, script, entry, cacheDir], { cwd: REPO, stderr: "pipe", stdout: "ignore" });
    return { code: run.exitCode, stderr: run.stderr.toString().slice(-2000) };
  }
  const keptFile = (dir: string) => join(dir, readdirSync(dir).find((name) => /^zod-exports-[0-9a-f]{16}\.json$/.test(name))!);

  test("are kept in the cache folder, read from there by a fresh process, and worked out again once zod changes", () => {
    const dir = join(TMP, "zod-names");
    const server = readFileSync(join(REPO, "fixtures/bundle/echo-server.ts"), "utf8");
    expect(bundleInFreshProcess(author("names-1.ts", server), dir).code).toBe(0);
    const kept = JSON.parse(readFileSync(keptFile(dir), "utf8")) as { root: string; stamp: string; external: string[]; core: string[] };
    expect(kept.root).toBe(join(REPO, "node_modules/zod"));
    expect(kept.external).toEqual(expect.arrayContaining(["string", "object", "ZodType", "locales", "core"]));
    expect(kept.core).toEqual(expect.arrayContaining(["$ZodType", "locales"]));

    // A name zod does not export, under the same stamp: a fresh process takes the list as kept (and esbuild then refuses it).
    writeFileSync(keptFile(dir), JSON.stringify({ ...kept, external: [...kept.external, "notAZodExport"] }));
    const misled = bundleInFreshProcess(author("names-2.ts", server), dir);
    expect(misled.code).not.toBe(0);
    expect(misled.stderr).toContain("notAZodExport");

    // Under another stamp (zod reinstalled or updated), the names are worked out again and kept anew.
    writeFileSync(keptFile(dir), JSON.stringify({ ...kept, stamp: "an older zod", external: [...kept.external, "notAZodExport"] }));
    expect(bundleInFreshProcess(author("names-3.ts", server), dir).code).toBe(0);
    expect(JSON.parse(readFileSync(keptFile(dir), "utf8"))).toEqual(kept);
  });
});

test("the cache folder defaults to <cwd>/.cache/trailblaze-bundles", async () => {
  const result = await bundleEntry("fixtures/bundle/echo-server.ts", { cwd: REPO });
  expect(relative(REPO, result.path)).toMatch(/^\.cache\/trailblaze-bundles\/echo-server-[0-9a-f]{16}\.js$/);
  expect(existsSync(result.path)).toBe(true);
});
