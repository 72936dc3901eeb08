// The @trailblaze/scripting package as authors meet it: resolvable from an author file under bun,
// node + tsx and esbuild (through the npm `file:` symlink), free of host APIs, and producing tools
// that a plain MCP client (no Trailblaze) can use.

import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as esbuild from "esbuild";
import { buildOnDevice } from "../src/bundle/bundle-entry.ts";
import { checkBundle } from "../src/bundle/check-bundle.ts";
import { scanHostGlobals } from "../src/bundle/host-globals-scan.ts";
import { nodeBuiltinsPlugin } from "../src/bundle/node-builtins-plugin.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";

const PACKAGE = join(REPO, "src/scripting");
const SHOP = join(REPO, "fixtures/scripting");
const TOOLS = join(SHOP, "tools/shop");
const cacheDir = tempDir("scripting-bundles");
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe("resolution", () => {
  test("node_modules/@trailblaze/scripting is the npm file: link to src/scripting", () => {
    expect(realpathSync(join(REPO, "node_modules/@trailblaze/scripting"))).toBe(PACKAGE);
    const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "@trailblaze/scripting", exports: { ".": "./index.ts", "./result": "./result.ts" } });
    const root = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
    expect(root.dependencies["@trailblaze/scripting"]).toBe("file:src/scripting");
  });

  test("esbuild follows the link into the package sources when bundling for on-device", async () => {
    const built = await buildOnDevice(join(TOOLS, "cart.ts"), SHOP, false);
    const fromPackage = built.inputs.filter((input) => input.startsWith(`${PACKAGE}/`)).map((input) => input.slice(PACKAGE.length + 1));
    expect(fromPackage).toEqual([
      "call-context.ts",
      "client.ts",
      "conditional-action.ts",
      "context-schema.ts",
      "context.ts",
      "execute.ts",
      "index.ts",
      "logger.ts",
      "memory.ts",
      "meta.ts",
      "register.ts",
      "result.ts",
      "selectors.ts",
      "target.ts",
      "trailblaze.ts",
      "view-hierarchy.ts",
    ]);
  });

  test("the ./result entry alone pulls in nothing else: no zod, no SDK runtime", async () => {
    const entry = join(SHOP, "probes/result-only.ts");
    const result = await esbuild.build({
      entryPoints: [entry],
      absWorkingDir: REPO,
      bundle: true,
      write: false,
      metafile: true,
      platform: "neutral",
      format: "esm",
      logLevel: "silent",
      plugins: [nodeBuiltinsPlugin()],
    });
    expect(Object.keys(result.metafile.inputs)).toEqual(["src/scripting/result.ts", "fixtures/scripting/probes/result-only.ts"]);
  });
});

describe("no host APIs", () => {
  test("package sources import only each other, zod, and SDK types; the SDK's server only where a server is made", () => {
    const specifiers = new Map<string, string[]>();
    for (const file of readdirSync(PACKAGE).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const source = readFileSync(join(PACKAGE, file), "utf8");
      for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)";|import\("([^"]+)"\)/gms)) {
        const specifier = match[2] ? `${match[1] ? "type " : ""}${match[2]}` : `${match[3]}`;
        if (specifier.startsWith("./") || specifier.startsWith("type ./")) continue;
        specifiers.set(specifier, [...(specifiers.get(specifier) ?? []), file]);
      }
    }
    const sorted = [...specifiers].map(([specifier, files]) => [specifier, files.sort()] as const).sort(([a], [b]) => a.localeCompare(b));
    expect(Object.fromEntries(sorted)).toEqual({
      // serve-tools.ts is the server the runtime makes of per-file tools; trailblaze.ts's run() makes one on demand.
      "@modelcontextprotocol/sdk/server/index.js": ["serve-tools.ts"],
      "@modelcontextprotocol/sdk/server/mcp.js": ["trailblaze.ts"],
      "@modelcontextprotocol/sdk/server/stdio.js": ["serve-tools.ts", "trailblaze.ts"],
      "@modelcontextprotocol/sdk/types.js": ["serve-tools.ts"],
      "type @modelcontextprotocol/sdk/server/mcp.js": ["register.ts"],
      "type @modelcontextprotocol/sdk/server/zod-compat.js": ["register.ts", "trailblaze.ts"],
      "type @modelcontextprotocol/sdk/shared/protocol.js": ["register.ts"],
      "type @modelcontextprotocol/sdk/types.js": ["register.ts", "result.ts", "tool.ts", "trailblaze.ts"],
      zod: ["context-schema.ts", "execute.ts", "index.ts", "serve-tools.ts"],
    });
  });

  test("no host-only global (fetch, process, Buffer …) is used by the package", async () => {
    const uses = await scanHostGlobals(join(SHOP, "probes/all-exports.ts"), REPO);
    // The probe takes every export as a whole, `z` too. The package's files, the SDK and zod are
    // runtime code the scan leaves out (they run on-device in the runtime's own tests): what it
    // reads here is the probe's use of them.
    expect(uses).toEqual([]);
  });

  test("check-bundle passes every portable fixture server; the host-only one is flagged by its tools", async () => {
    for (const name of ["data.ts", "cart.ts", "checkout.ts"]) {
      const checked = await checkBundle(join(TOOLS, name), { cwd: SHOP, cacheDir });
      expect({ name, ok: checked.ok, problems: checked.problems, hostOnly: checked.hostOnlyTools }).toEqual({
        name,
        ok: true,
        problems: [],
        hostOnly: [],
      });
    }
    const backend = await checkBundle(join(TOOLS, "backend.ts"), { cwd: SHOP, cacheDir });
    expect(backend).toMatchObject({ ok: true, hostOnlyTools: ["shop_seedAccount", "shop_fetchFeatureFlags"] });
  });
});

describe("portability", () => {
  async function plainClient(file: string): Promise<Client> {
    const client = new Client({ name: "plain-mcp-client", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ["run", "--no-install", file], cwd: TOOLS, stderr: "pipe" }),
    );
    return client;
  }

  test("under a plain MCP client tier-1 tools work and tier-2 tools explain what they need", async () => {
    const cart = await plainClient(join(TOOLS, "cart.ts"));
    const listed = await cart.listTools();
    const locate = listed.tools.find((t) => t.name === "shop_locateCheckoutButton")!;
    // A plain client sees the declared key (only Trailblaze hides it) and the _meta keys, which it ignores.
    expect(Object.keys(locate.inputSchema.properties ?? {})).toEqual(["bottomInsetDp", "_trailblazeContext"]);
    expect(locate._meta).toEqual({ "trailblaze/toolset": "shop_cart", "trailblaze/requiresContext": true });
    for (const [name, args] of [
      ["shop_addToCart", { sku: "TEE-001" }],
      ["shop_locateCheckoutButton", {}],
      ["shop_clearCart", undefined],
    ] as const) {
      expect(await cart.callTool({ name, ...(args ? { arguments: args } : {}) })).toEqual({
        content: [{ type: "text", text: `${name} needs the Trailblaze context (device and memory); call it from a Trailblaze session` }],
        isError: true,
      });
    }
    const data = await plainClient(join(TOOLS, "data.ts"));
    const customer = await data.callTool({ name: "shop_generateCustomer", arguments: { seed: 7 } });
    expect(customer.structuredContent).toMatchObject({ email: "grace.allen.6512@example.com" });
    expect(customer._meta).toEqual({ trailblaze: { memoryDelta: expect.objectContaining({ email: "grace.allen.6512@example.com" }) } });
  });

  test("the node + tsx runtime resolves the package too", async () => {
    const run = await cli(["call", "shop_clearCart", "--target", "shop", "--memory", "x=1", "--json", "--logs", tempDir("tsx-logs")], {
      cwd: SHOP,
      env: { TRAILBLAZE_RUNTIME: "node" },
    });
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "shop_clearCart",
      result: { status: "error", variant: "ExceptionThrown", message: "the cart is already empty" },
    });
  });
});
