// What `init-tool` writes: the tool name rules (Decision 014: `<targetId>_<verbNoun>`), the server
// and test templates, and the YAML edits (Document API, so comments and layout survive).

import { isMap, isScalar, isSeq, parseDocument, type Document } from "yaml";
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
    return success(\`${tool.name}: \${text} (\${platform})\`, {
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
    content: [{ type: "text", text: "${tool.name}: hi (ANDROID)" }],
    structuredContent: { text: "hi", platform: "ANDROID" },
    _meta: { trailblaze: { memoryDelta: { ${tool.local}Text: "hi" } } },
  });
});

test("a plain MCP client can call it too", async () => {
  const result = await client.callTool({ name: "${tool.name}", arguments: { text: "hi" } });
  expect(result.content).toEqual([{ type: "text", text: "${tool.name}: hi (no Trailblaze session)" }]);
});
`;
}

/** A new toolset YAML listing the tool. */
export function toolsetTemplate(toolsetId: string, tool: ToolName): string {
  return `id: ${toolsetId}\ndescription: TODO what these tools are for\ntools:\n  - ${tool.name}\n`;
}

/** Keeps hand-written layout as far as the Document API allows: `[a, b]`, no line folding. */
function print(doc: Document): string {
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}

function load(text: string, file: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`init-tool: cannot edit ${file}: ${doc.errors[0]!.message}`);
  return doc;
}

/** Appends `tool` to an existing toolset YAML's `tools:` (comments kept). */
export function addToolToToolset(text: string, file: string, tool: string): string {
  const doc = load(text, file);
  const tools = doc.get("tools", true);
  if (isSeq(tools)) tools.add(doc.createNode(tool));
  else doc.set("tools", doc.createNode([tool]));
  return print(doc);
}

/** Platform keys whose `tool_sets` gained the toolset. */
export interface TargetEdit {
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
  const doc = load(text, file);
  const servers = doc.get("mcp_servers", true);
  const entry = doc.createNode({ script });
  if (isSeq(servers)) servers.add(entry);
  else doc.set("mcp_servers", doc.createNode([{ script }]));

  const platforms: string[] = [];
  const platformMap = doc.get("platforms", true);
  if (isMap(platformMap)) {
    for (const pair of platformMap.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (only !== undefined && key.toLowerCase() !== only) continue;
      const toolSets = isMap(pair.value) ? pair.value.get("tool_sets", true) : undefined;
      if (isSeq(toolSets)) {
        if (toolSets.items.some((item) => isScalar(item) && item.value === toolsetId)) continue;
        toolSets.add(doc.createNode(toolsetId));
      } else {
        const list = doc.createNode([toolsetId], { flow: true });
        if (isMap(pair.value)) pair.value.set("tool_sets", list);
        else pair.value = doc.createNode({ tool_sets: list });
      }
      platforms.push(key);
    }
  }
  return { text: print(doc), platforms };
}

/** A tsconfig for a workspace's tool files (editors and `tsc`), written when the workspace has none. */
export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "Preserve",
    "moduleResolution": "bundler",
    "strict": true,
    "noEmit": true,
    "allowImportingTsExtensions": true,
    "skipLibCheck": true
  },
  "include": ["tools"]
}
`;
