// checkBundle itself (what `check-bundle` and `check` run) on real author files and bundles: the
// on-device problems of a .ts entry with their source lines, and a .js bundle run in bare QuickJS.
// The commands are in bundle-check.test.ts, which npm test runs against the precompiled CLI; these
// do not go through a CLI, so they run from source.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { checkBundle } from "../src/bundle/check-bundle.ts";
import { byEngine } from "./support/quickjs-engine.ts";

const REPO = resolve(import.meta.dir, "..");
mkdirSync(join(REPO, ".cache"), { recursive: true });
const TMP = mkdtempSync(join(REPO, ".cache", "bundle-check-api-test-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const HOST_ONLY = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';
const HEADER = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
`;

/** What checkBundle says of fixtures/bundle/echo-server.ts, as an entry or as its bundle: nothing to report. */
const CLEAN_ECHO = {
  ok: true,
  tools: ["echo", "whoami", "pixel", "open_url"],
  hostOnlyTools: [],
  problems: [],
  warnings: [],
};

function author(name: string, source: string): string {
  const file = join(TMP, name);
  writeFileSync(file, source);
  return relative(REPO, file);
}

describe("checkBundle on a .ts entry", () => {
  test("finds fetch and process.env with their source files and lines, and still lists the tools", async () => {
    expect(await checkBundle("fixtures/bundle/host-globals.ts", { cwd: REPO })).toEqual({
      ok: false,
      tools: ["fetch_user", "api_base"],
      hostOnlyTools: [],
      problems: [
        {
          kind: "host-global",
          message: `fixtures/bundle/host-globals.ts:8:26: uses fetch, which does not exist on-device; ${HOST_ONLY}`,
          source: "fixtures/bundle/host-globals.ts",
        },
        {
          kind: "host-global",
          message: `fixtures/bundle/host-globals.ts:12:35: uses process.env, which does not exist on-device; ${HOST_ONLY}`,
          source: "fixtures/bundle/host-globals.ts",
        },
      ],
      warnings: [],
    });
  });

  test("a clean server passes: the SDK's and zod's own feature checks are not reported", async () => {
    expect(await checkBundle("fixtures/bundle/echo-server.ts", { cwd: REPO })).toEqual(CLEAN_ECHO);
  });

  test("a Node built-in import is a bundle problem in the importing file", async () => {
    expect(await checkBundle("fixtures/bundle/node-fs.ts", { cwd: REPO })).toEqual({
      ok: false,
      tools: [],
      hostOnlyTools: [],
      problems: [
        {
          kind: "bundle",
          message: `Cannot bundle fixtures/bundle/node-fs.ts for on-device: fixtures/bundle/node-fs.ts:2:30: imports "node:fs", a Node built-in that does not exist on-device; ${HOST_ONLY}`,
          source: "fixtures/bundle/node-fs.ts",
        },
      ],
      warnings: [],
    });
  });

  test("uses guarded by typeof are allowed; a computed require() and dynamic import() are not", async () => {
    const entry = author(
      "guarded.ts",
      `${HEADER}const base = typeof process !== "undefined" ? process.env["BASE"] : "none";
const name = ["f", "s"].join("");
const s = new McpServer({ name: "guarded", version: "1" });
s.registerTool("base", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: String(base) }] }));
s.registerTool("load", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: typeof require(name) + typeof (await import(name)) }] }));
await s.connect(new StdioServerTransport());
`,
    );
    const result = await checkBundle(entry, { cwd: REPO });
    expect(result.tools).toEqual(["base", "load"]);
    expect(result.problems).toEqual([
      {
        kind: "host-global",
        message: `${entry}:7:99: calls require() with a computed name; esbuild could not bundle it and it throws on-device; ${HOST_ONLY}`,
        source: entry,
      },
      {
        kind: "host-global",
        message: `${entry}:7:129: uses a dynamic import() that esbuild could not bundle; QuickJS has no module loader on-device; ${HOST_ONLY}`,
        source: entry,
      },
    ]);
  });

  test("with host-only tools in the server, host-global uses become warnings", async () => {
    const entry = author(
      "mixed.ts",
      `${HEADER}const s = new McpServer({ name: "mixed", version: "1" });
s.registerTool("lookup", { inputSchema: {}, _meta: { "trailblaze/requiresHost": true } }, async () => ({ content: [{ type: "text", text: await (await fetch("https://example.com")).text() }] }));
s.registerTool("local", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "ok" }] }));
await s.connect(new StdioServerTransport());
`,
    );
    expect(await checkBundle(entry, { cwd: REPO })).toEqual({
      ok: true,
      tools: ["lookup", "local"],
      hostOnlyTools: ["lookup"],
      problems: [],
      warnings: [
        { kind: "host-global", message: `${entry}:4:151: uses fetch, which does not exist on-device; ${HOST_ONLY}`, source: entry },
      ],
    });
  });
});

describe("checkBundle on a .js bundle", () => {
  test("runs it in bare QuickJS", async () => {
    const { bundleEntry } = await import("../src/bundle/bundle-entry.ts");
    const bundle = join(TMP, "echo.bundle.js");
    await bundleEntry("fixtures/bundle/echo-server.ts", { cwd: REPO, outFile: bundle });
    expect(await checkBundle(bundle, { cwd: REPO })).toEqual(CLEAN_ECHO);
  });

  test("reports a bundle that throws while evaluating", async () => {
    const bundle = author("throws.js", `const config = undefined;\nconfig.port;\n`);
    const result = await checkBundle(bundle, { cwd: REPO });
    expect(result).toEqual({
      ok: false,
      tools: [],
      hostOnlyTools: [],
      problems: [
        {
          kind: "run",
          message: `QuickJS server "${bundle}" threw while evaluating its bundle: TypeError: cannot read property 'port' of undefined\n    at <eval> (${bundle}.bundle.js:2:${byEngine({ quickjs: 7, "quickjs-ng": 1 })})`,
          source: bundle,
        },
      ],
      warnings: [],
    });
  });
});
