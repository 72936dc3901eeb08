// What `init-tool` writes: the tool name rules (Decision 014: `<targetId>_<verbNoun>`), the
// templates of a per-file tool (the default) or an MCP server (`--server`) and of their tests, and
// the YAML edits (in place, so comments and layout survive).

import { isCollection, isMap, isScalar, isSeq, parseDocument, YAMLMap, type Document, type Node } from "yaml";
import { afterLastEntry, columnOf, splice } from "../../config/yaml-splice.ts";
import { UsageError } from "../../errors.ts";
import { NAME_CONVENTION as CONVENTION, TRAILMAP_ID as TARGET_ID, WIRE_NAME } from "../../core/tool-names.ts";

export interface ToolName {
  /** The advertised (and recorded) name, e.g. `myapp_applyCoupon`. */
  name: string;
  /** The part after `<targetId>_`, e.g. `applyCoupon`; also the file stem. */
  local: string;
}

/** `applyCoupon` → `myapp_applyCoupon`; `myapp_ios_resetKeychain` stays; anything else is a UsageError. */
export function toolName(input: string, targetId: string): ToolName {
  if (!TARGET_ID.test(targetId)) {
    throw new UsageError(
      `init-tool: target id "${targetId}" cannot prefix tool names: tool names are <targetId>_<verbNoun> and the id must be one lowerCamelCase word (^[a-z][a-zA-Z0-9]*$)`,
    );
  }
  const prefix = `${targetId}_`;
  const name = input.startsWith(prefix) || input.includes("_") ? input : `${prefix}${input}`;
  if (!name.startsWith(prefix)) {
    throw new UsageError(
      `init-tool: "${input}" does not start with "${prefix}": tools of target ${targetId} are named ${prefix}<verbNoun> (e.g. ${prefix}${input.slice(input.lastIndexOf("_") + 1)}), or ${prefix}<platform>_<verbNoun>`,
    );
  }
  if (!CONVENTION.test(name) || name === targetId) {
    throw new UsageError(
      `init-tool: "${input}" is not a valid tool name: use ${prefix}<verbNoun> with lowerCamelCase words joined by single underscores, e.g. ${prefix}applyCoupon`,
    );
  }
  if (!WIRE_NAME.test(name)) throw new UsageError(`init-tool: "${name}" is ${name.length} characters; tool names are at most 64`);
  return { name, local: name.slice(prefix.length) };
}

/** `ios_resetKeychain` → `IosResetKeychainInput`: the name of a per-file tool's input type. */
function inputTypeName(tool: ToolName): string {
  return `${tool.local
    .split("_")
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("")}Input`;
}

/** A per-file tool: `export const <name> = trailblaze.tool<Input>(spec, handler)`, calling a framework tool. */
export function perFileToolTemplate(tool: ToolName): string {
  const platform = platformOfTool(tool);
  const input = inputTypeName(tool);
  const spec = platform
    ? `  { supportedPlatforms: ["${platform}"] }, // the name says ${platform}: registered on ${platform} sessions only`
    : `  {
    // supportedPlatforms: ["android", "ios"], // registered on sessions of these platforms only
    // requiresHost: true,                     // registered with the host agent only
  },`;
  return `// ${tool.name}: TODO one line on what this tool does. A per-file tool: the target lists its
// name under \`tools:\`, and it runs inside QuickJS with either agent. For Node or Bun APIs (fs,
// child_process …), give it a ${tool.name}.yaml sidecar with \`runtime: subprocess\`.
import { trailblaze } from "@trailblaze/scripting";

/** The input schema the LLM sees is derived from this type, doc comments included. */
export interface ${input} {
  /** TODO: describe each field for the LLM. */
  text: string;
}

/** TODO: what ${tool.name} does and when to use it (the LLM reads this). */
export const ${tool.name} = trailblaze.tool<${input}>(
${spec}
  async (input, ctx) => {
    // Tools call tools: any tool of the session, the framework's or the target's own.
    // \`trailblaze types\` writes the types that check these calls.
    await ctx.tools.inputText({ text: input.text });
    // Session memory, kept when the tool succeeds: later steps can use {{${tool.local}Text}}.
    ctx.memory.set("${tool.local}Text", input.text);
    return \`typed \${input.text} on \${ctx.device?.platform ?? "no device"}\`;
  },
);
`;
}

/** The per-file tool's unit test: the tool called as a function, with a mock context and client. */
export function perFileTestTemplate(tool: ToolName): string {
  const platform = platformOfTool(tool) ?? "android";
  return `// ${tool.name}'s unit test: no session and no device. A mock context and a mock client from
// @trailblaze/scripting/testing stand in for them and record what the tool does.
import { expect, test } from "bun:test";
import { createMockClient, createMockContext } from "@trailblaze/scripting/testing";
import { ${tool.name} } from "./${tool.name}";

test("types the text and remembers it", async () => {
  const client = createMockClient();
  const ctx = createMockContext({ platform: "${platform}" });
  expect(await ${tool.name}({ text: "hi" }, ctx, client)).toBe("typed hi on ${platform}");
  expect(client.calls).toEqual([{ tool: "inputText", args: { text: "hi" } }]);
  expect(ctx.memory.get("${tool.local}Text")).toBe("hi");
});

test("fails when the tool it calls fails", async () => {
  const client = createMockClient();
  client.stub("inputText", { textContent: "", errorMessage: "no text field is focused" });
  await expect(${tool.name}({ text: "hi" }, createMockContext({ platform: "${platform}" }), client)).rejects.toThrow(
    "ctx.tools.inputText: tool failed: no text field is focused",
  );
});
`;
}

/** The MCP server file: a standard McpServer + StdioServerTransport using @trailblaze/scripting. */
export function serverTemplate(tool: ToolName, targetId: string): string {
  const platform = platformOfTool(tool);
  const platforms = platform
    ? `      "trailblaze/supportedPlatforms": ["${platform}"], // the name says ${platform}: registered on ${platform} sessions only`
    : `      // "trailblaze/supportedPlatforms": ["android", "ios"],`;
  return `// ${tool.name}: TODO one line on what this tool does. A standard MCP server: it runs as a bun
// subprocess with the host agent and, bundled, inside QuickJS with the on-device agent.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { contextOf, success, type TrailblazeToolMeta } from "@trailblaze/scripting";
import * as z from "zod";

const server = new McpServer({ name: "${targetId}-${tool.local}", version: "0.1.0" });

server.registerTool(
  "${tool.name}",
  {
    description: "TODO: what ${tool.name} does and when to use it (the LLM reads this)",
    inputSchema: { text: z.string().describe("TODO: describe each argument for the LLM") },
    _meta: {
      // "trailblaze/requiresHost": true, // uses fetch, fs, child_process …: host agent only
${platforms}
    } satisfies TrailblazeToolMeta,
  },
  async ({ text }, extra) => {
    // Device and session memory; undefined when a plain MCP client calls the tool.
    const context = contextOf(extra);
    const platform = context?.device.platform ?? "no Trailblaze session";
    return success(\`got "\${text}" (\${platform})\`, {
      structuredContent: { text, platform },
      // Values later steps can use as {{${tool.local}Text}}:
      memoryDelta: { ${tool.local}Text: text },
    });
  },
);

await server.connect(new StdioServerTransport());
`;
}

/** The test: the server over stdio, called as Trailblaze calls it and as a plain MCP client would. */
export function testTemplate(tool: ToolName): string {
  return `// Tests for ${tool.name}: runs ${tool.local}.ts as a real MCP server over stdio and calls it the way
// Trailblaze does (context in the request's _meta) and the way a plain MCP client does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { TrailblazeContext } from "@trailblaze/scripting";

const client = new Client({ name: "${tool.name}-test", version: "0.1.0" });
const context: TrailblazeContext = {
  sessionId: "test-session",
  invocationId: "test-call-1",
  memory: {},
  device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
};

beforeAll(async () => {
  const script = \`\${import.meta.dir}/${tool.local}.ts\`;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ["run", "--no-install", script] }));
});

afterAll(async () => {
  await client.close();
});

test("${tool.name} is advertised", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["${tool.name}"]);
});

test("in a Trailblaze session it sees the device and asks Trailblaze to remember the text", async () => {
  const result = await client.callTool({ name: "${tool.name}", arguments: { text: "hi" }, _meta: { trailblaze: context } });
  expect(result).toEqual({
    content: [{ type: "text", text: 'got "hi" (ANDROID)' }],
    structuredContent: { text: "hi", platform: "ANDROID" },
    _meta: { trailblaze: { memoryDelta: { ${tool.local}Text: "hi" } } },
  });
});

test("a plain MCP client can call it too", async () => {
  const result = await client.callTool({ name: "${tool.name}", arguments: { text: "hi" } });
  expect(result.content).toEqual([{ type: "text", text: 'got "hi" (no Trailblaze session)' }]);
});
`;
}

/** A new toolset YAML listing the tool. */
export function toolsetTemplate(toolsetId: string, tool: ToolName): string {
  return `id: ${toolsetId}\ndescription: TODO what these tools are for\ntools:\n  - ${tool.name}\n`;
}

/** Re-prints a changed document: `[a, b]` and no line folding, but comments lose their alignment. */
function print(doc: Document): string {
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}

function load(text: string, file: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`init-tool: cannot edit ${file}: ${doc.errors[0]!.message}`);
  return doc;
}

type ListItem = string | Record<string, string>;

/**
 * Appends `item` to the list at `path`, creating the list (flow `[item]` when `flow`, else a block
 * list) when missing. Edits the text in place, so every other byte of the file stays as written;
 * shapes it cannot edit in place (a missing parent, a flow or empty parent map) go through the
 * Document API instead.
 */
function appendToList(text: string, file: string, path: string[], item: ListItem, flow = false): string {
  const doc = load(text, file);
  const flowItem = String(doc.createNode(item, { flow: true }));
  const blockItem =
    typeof item === "string"
      ? flowItem
      : Object.entries(item)
          .map(([key, value]) => `${key}: ${String(doc.createNode(value))}`)
          .join(", ");
  const list = doc.getIn(path, true);
  if (isSeq(list) && list.range) {
    const [start, end] = list.range;
    if (list.flow && text[end - 1] === "]") return splice(text, end - 1, list.items.length > 0 ? `, ${flowItem}` : flowItem);
    const last = list.items.at(-1) as { range?: [number, number, number] } | undefined;
    if (!list.flow && last?.range)
      return splice(text, afterLastEntry(text, last.range[1]), `\n${" ".repeat(columnOf(text, start))}- ${blockItem}`);
  }
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  if (list == null && isMap(parent) && !parent.flow && parent.range && parent.items.length > 0) {
    const lastValue = parent.items.at(-1)!.value as { range?: [number, number, number] } | null;
    const lastKey = parent.items.at(-1)!.key as { range?: [number, number, number] } | null;
    const end = lastValue?.range?.[1] ?? lastKey?.range?.[1];
    if (end !== undefined) {
      const indent = " ".repeat(columnOf(text, parent.range[0]));
      const key = path.at(-1)!;
      const entry = flow ? `${key}: [${flowItem}]` : `${key}:\n${indent}  - ${blockItem}`;
      return splice(text, afterLastEntry(text, end), `\n${indent}${entry}`);
    }
  }
  if (isSeq(list)) {
    list.add(doc.createNode(item));
    return print(doc);
  }
  // The nearest collection on the path keeps its key; what is below it (missing, or null as in `web:`) is made.
  let depth = path.length - 1;
  while (depth > 0 && !isCollection(doc.getIn(path.slice(0, depth), true))) depth--;
  let node: Node = doc.createNode([item], { flow });
  for (const key of path.slice(depth + 1).reverse()) {
    const map = new YAMLMap();
    map.set(key, node);
    node = map;
  }
  doc.setIn(path.slice(0, depth + 1), node);
  return print(doc);
}

/** Appends `tool` to an existing toolset YAML's `tools:` (comments and layout kept). */
export function addToolToToolset(text: string, file: string, tool: string): string {
  return appendToList(text, file, ["tools"], tool);
}

/** Platform keys whose `tool_sets` gained the toolset. */
interface TargetEdit {
  text: string;
  platforms: string[];
}

/** `myapp_ios_resetKeychain` → `ios`: the platform a `<targetId>_<platform>_<verbNoun>` name is for. */
export function platformOfTool(tool: ToolName): "android" | "ios" | "web" | undefined {
  const first = tool.local.split("_")[0];
  return first === "android" || first === "ios" || first === "web" ? first : undefined;
}

/**
 * Adds `- script: <script>` to `mcp_servers` and the toolset to the `tool_sets` of every platform
 * (or of `only` that one), creating either list when missing, keeping the file's comments and layout.
 */
export function addServerToTarget(text: string, file: string, script: string, toolsetId: string, only?: string): TargetEdit {
  let edited = appendToList(text, file, ["mcp_servers"], { script });
  const platforms: string[] = [];
  const platformMap = load(edited, file).get("platforms", true);
  if (isMap(platformMap)) {
    for (const pair of platformMap.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (only !== undefined && key.toLowerCase() !== only) continue;
      const toolSets = isMap(pair.value) ? pair.value.get("tool_sets", true) : undefined;
      if (isSeq(toolSets) && toolSets.items.some((item) => isScalar(item) && item.value === toolsetId)) continue;
      edited = appendToList(edited, file, ["platforms", key, "tool_sets"], toolsetId, true);
      platforms.push(key);
    }
  }
  return { text: edited, platforms };
}

/**
 * Appends a per-file tool's name to a target's `tools:` (`target: tools:` in a trailmap), creating
 * the list when missing, keeping the file's comments and layout.
 */
export function addToolToTarget(text: string, file: string, name: string, trailmap: boolean): string {
  return appendToList(text, file, trailmap ? ["target", "tools"] : ["tools"], name);
}

const COMPILER_OPTIONS = {
  target: "ES2022",
  module: "Preserve",
  moduleResolution: "bundler",
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  // `bun:test` in the tools' tests; @types/bun comes with trailblaze-ts.
  types: ["bun"],
};

/** A tsconfig for a workspace's tool files (editors and `tsc`), written when the workspace has none. */
export const TSCONFIG = `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ["tools"] }, null, 2)}\n`;

/** The same settings for a tsconfig inside a trailmap's tools folder, covering that folder. */
export const TOOLS_TSCONFIG = `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS }, null, 2)}\n`;
