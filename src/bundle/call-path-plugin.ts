// esbuild plugin for on-device bundles: shortens what the MCP SDK does per message inside QuickJS,
// where each zod parse costs 10-20 µs (jitless, interpreted; BENCHMARKS.md, P4), without changing
// any answer. Three SDK files are patched in place:
//  - shared/protocol.js: an incoming message is classified by exact structural checks before the
//    JSON-RPC guards' zod schemas (a request fails both response guards at once and passes the
//    request guard without a parse); task parameters are checked only when a request has them; a
//    plain tools/call request is parsed by a fast path that gives CallToolRequestSchema's value;
//  - server/index.js: the tools/call wrapper no longer parses CallToolRequestSchema a second time
//    (Protocol's handler wrapper just did, with the same schema), and a result of text blocks is
//    checked by a fast path that gives CallToolResultSchema's value;
//  - server/mcp.js: a tool's arguments, and its structured output, are parsed against its zod
//    object by a fast path when both are plain (runtime-quickjs/guest/plain-object-schema.ts), and a
//    plain tool's call skips the async steps that only wait (validating its arguments, calling its
//    handler, validating the output of a tool that declares none): the same answers, fewer jobs.
// The fast paths (runtime-quickjs/guest/sdk-fast-paths.ts) answer only for the SDK versions they
// were checked against and defer to zod for anything else. A text that is not where expected
// leaves the file as is, and the ledger then fails the build (sdk-patches.ts).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { SDK_PATCHES, sdkVersionOf, type SdkPatchLedger } from "./sdk-patches.ts";

const FAST_PATHS_MODULE = fileURLToPath(new URL("../../runtime-quickjs/guest/sdk-fast-paths.ts", import.meta.url));

/** One replacement: `from` must occur exactly once. */
interface Edit {
  from: string;
  to: string;
}

/** The text with every edit applied, or undefined when an edit's text is missing or not unique. */
export function applyEdits(text: string, edits: readonly Edit[]): string | undefined {
  let out = text;
  for (const { from, to } of edits) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0) return undefined;
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

/** The lines that make the fast paths of the bundled SDK's version available to a patched file. */
function prologue(file: string): string {
  return `import { sdkFastPaths as __tbSdkFastPaths } from ${JSON.stringify(FAST_PATHS_MODULE)};\nconst __tbFast = __tbSdkFastPaths(${JSON.stringify(sdkVersionOf(file))});\n`;
}

const PROTOCOL_EDITS: readonly Edit[] = [
  {
    from: "            if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {",
    to: '            if ((__tbFast.mayHave(message, "result") && isJSONRPCResultResponse(message)) || (__tbFast.mayHave(message, "error") && isJSONRPCErrorResponse(message))) {',
  },
  {
    from: "            else if (isJSONRPCRequest(message)) {",
    to: "            else if (__tbFast.isRequest(message) || isJSONRPCRequest(message)) {",
  },
  {
    from: "const taskCreationParams = isTaskAugmentedRequestParams(request.params) ? request.params.task : undefined;",
    to: "const taskCreationParams = request.params?.task !== undefined && isTaskAugmentedRequestParams(request.params) ? request.params.task : undefined;",
  },
  {
    from: "const parsed = parseWithCompat(requestSchema, request);",
    to: "const parsed = (requestSchema === __tbCallToolRequestSchema && __tbFast.callToolRequest(request)) || parseWithCompat(requestSchema, request);",
  },
];

const SERVER_EDITS: readonly Edit[] = [
  {
    from: "const validatedRequest = safeParse(CallToolRequestSchema, request);",
    to: "const validatedRequest = requestSchema === CallToolRequestSchema ? { success: true, data: request } : safeParse(CallToolRequestSchema, request);",
  },
  {
    from: "const validationResult = safeParse(CallToolResultSchema, result);",
    to: "const validationResult = __tbFast.toolResult(result) ?? safeParse(CallToolResultSchema, result);",
  },
];

const MCP_SERVER_EDITS: readonly Edit[] = [
  {
    // A plain tool's arguments parsed without the async validateToolInput, and its handler called
    // without the async executeToolHandler: the same values, two awaits fewer.
    from:
      "const args = await this.validateToolInput(tool, request.params.arguments, request.params.name);\n" +
      "                const result = await this.executeToolHandler(tool, args, extra);",
    to:
      "const args = __tbFast.toolArguments(this, tool, request.params.arguments) ?? (await this.validateToolInput(tool, request.params.arguments, request.params.name));\n" +
      '                const result = "createTask" in tool.handler ? await this.executeToolHandler(tool, args, extra) : await (tool.inputSchema ? (0, tool.handler)(args, extra) : (0, tool.handler)(extra));',
  },
  {
    // validateToolOutput returns at once for a tool without an output schema: not called then.
    from: "                await this.validateToolOutput(tool, result, request.params.name);\n                return result;",
    to: "                if (tool.outputSchema) await this.validateToolOutput(tool, result, request.params.name);\n                return result;",
  },
  {
    from: "const parseResult = await safeParseAsync(outputObj, result.structuredContent);",
    to: "const parseResult = __tbFast.toolInput(outputObj, result.structuredContent) ?? (await safeParseAsync(outputObj, result.structuredContent));",
  },
];

/** The patches this plugin applies. */
type CallPathPatch = "protocolFastPaths" | "toolsCallOnce" | "toolCallFastPath";

/** The patched text of `file` (an SDK file `id` targets), or undefined when its text is not as expected. */
export function patchCallPath(id: CallPathPatch, file: string, text: string): string | undefined {
  if (id === "protocolFastPaths") {
    const edited = applyEdits(text, PROTOCOL_EDITS);
    return edited && `${prologue(file)}import { CallToolRequestSchema as __tbCallToolRequestSchema } from '../types.js';\n${edited}`;
  }
  const edited = applyEdits(text, id === "toolsCallOnce" ? SERVER_EDITS : MCP_SERVER_EDITS);
  return edited && prologue(file) + edited;
}

/** Applies the patches, recording each in `ledger`; a file whose text is not as expected is left as is. */
export function callPathPlugin(ledger: SdkPatchLedger): Plugin {
  return {
    name: "trailblaze-call-path",
    setup(build) {
      for (const id of ["protocolFastPaths", "toolsCallOnce", "toolCallFastPath"] as const) {
        build.onLoad({ filter: SDK_PATCHES[id].target }, (args) => {
          const text = readFileSync(args.path, "utf8");
          const patched = patchCallPath(id, args.path, text);
          if (patched === undefined) return { contents: text, loader: "js" };
          ledger.applied(id);
          return { contents: patched, loader: "js" };
        });
      }
    },
  };
}
