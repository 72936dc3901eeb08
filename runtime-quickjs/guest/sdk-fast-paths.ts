// Fast paths for the MCP SDK's per-message zod checks inside QuickJS, where zod runs jitless in an
// interpreter (~10-20 µs a parse). For the plain shapes a tools/call takes, each answers exactly what
// the SDK's schema would (same verdict, same parsed value, same key order); for anything else it
// answers `undefined` and the SDK's own schema decides. For a tool's own zod object (its arguments,
// its structured output) McpServer's parse is answered by plain-object-schema.ts. src/bundle/
// call-path-plugin.ts patches them into on-device bundles; sdk-fast-paths.test.ts and
// plain-object-schema.test.ts beside it hold each to its schema, test/call-path.test.ts the whole call.
import { plainObjectParse } from "./plain-object-schema.ts";

/** SDK versions whose schemas these paths were checked against (the test fails on the shipped one if absent). */
export const VERIFIED_SDK_VERSIONS: readonly string[] = ["1.32.2"];

const RELATED_TASK = "io.modelcontextprotocol/related-task";

type Plain = Record<string, unknown>;

/** A JSON object: what JSON.parse makes (zod's object and record checks both accept it). */
function plain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every enumerable key (own or inherited, as zod's `for…in` sees them) is one of `allowed`. */
function keysWithin(value: Plain, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** A key zod's loose objects and records handle specially (never copied); such inputs go to zod. */
function hasProtoKey(value: Plain): boolean {
  return Object.hasOwn(value, "__proto__");
}

/** RequestIdSchema and ProgressTokenSchema: a string or an integer. */
function isIdLike(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

/** RequestMetaSchema (loose): a progress token if any, no related-task entry (that goes to zod). */
function plainMeta(meta: unknown): meta is Plain {
  return plain(meta) && !hasProtoKey(meta) && !(RELATED_TASK in meta) && (!("progressToken" in meta) || isIdLike(meta.progressToken));
}

/** RequestMetaSchema's parsed value: its declared key first, then the others in input order. */
function copyMeta(meta: Plain): Plain {
  const out: Plain = {};
  if ("progressToken" in meta) out.progressToken = meta.progressToken;
  for (const key in meta) if (key !== "progressToken") out[key] = meta[key];
  return out;
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/** True only when JSONRPCRequestSchema (strict) accepts `message`; false means "ask zod". */
function isRequest(message: unknown): boolean {
  if (!plain(message) || !keysWithin(message, REQUEST_KEYS)) return false;
  if (message.jsonrpc !== "2.0" || !isIdLike(message.id) || typeof message.method !== "string") return false;
  if (!("params" in message)) return true;
  const params = message.params;
  return plain(params) && (!("_meta" in params) || plainMeta(params._meta));
}

/** False only when `message[member]` is missing, which every JSON-RPC response schema rejects. */
function mayHave(message: unknown, member: "result" | "error"): boolean {
  return message !== null && message !== undefined && (message as Plain)[member] !== undefined;
}

/** CallToolRequestSchema's parsed value for a plain request without task augmentation; else undefined. */
function callToolRequest(request: unknown): Plain | undefined {
  if (!plain(request) || request.method !== "tools/call" || !plain(request.params)) return undefined;
  const params = request.params;
  if ("task" in params || typeof params.name !== "string") return undefined;
  const out: Plain = {};
  if ("_meta" in params) {
    if (!plainMeta(params._meta)) return undefined;
    out._meta = copyMeta(params._meta);
  }
  out.name = params.name;
  if ("arguments" in params) {
    const args = params.arguments;
    // z.record copies own enumerable keys (Reflect.ownKeys): symbols go to zod.
    if (!plain(args) || hasProtoKey(args) || Object.getOwnPropertySymbols(args).length > 0) return undefined;
    const copy: Plain = {};
    for (const key of Object.keys(args)) copy[key] = args[key];
    out.arguments = copy;
  }
  return { method: "tools/call", params: out };
}

const RESULT_KEYS: ReadonlySet<string> = new Set(["content", "isError"]);
const TEXT_KEYS: ReadonlySet<string> = new Set(["type", "text"]);

/** CallToolResultSchema's parse of a result made only of text blocks (and isError); else undefined. */
function toolResult(result: unknown): { success: true; data: Plain } | undefined {
  if (!plain(result) || !keysWithin(result, RESULT_KEYS) || !Array.isArray(result.content)) return undefined;
  if ("isError" in result && typeof result.isError !== "boolean") return undefined;
  const blocks = result.content as unknown[];
  const content: Plain[] = [];
  // By index, as zod reads an array.
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (!plain(block) || !keysWithin(block, TEXT_KEYS) || block.type !== "text" || typeof block.text !== "string") return undefined;
    content.push({ type: "text", text: block.text });
  }
  const data: Plain = { content };
  if ("isError" in result) data.isError = result.isError;
  return { success: true, data };
}

/**
 * McpServer.validateToolInput's value for a tool whose input schema is a plain zod object and
 * arguments that pass it (plain-object-schema.ts), with no element cap set on the server; else
 * undefined (the SDK validates, with its own errors). Reads the SDK's McpServer and tool records.
 */
function toolArguments(server: unknown, tool: unknown, args: unknown): Plain | undefined {
  if ((server as { _maxToolInputElements?: unknown })._maxToolInputElements !== undefined) return undefined;
  const schema = (tool as { inputSchema?: unknown }).inputSchema;
  return schema ? plainObjectParse(schema, args ?? {})?.data : undefined;
}

export interface SdkFastPaths {
  isRequest(message: unknown): boolean;
  mayHave(message: unknown, member: "result" | "error"): boolean;
  callToolRequest(request: unknown): Plain | undefined;
  toolResult(result: unknown): { success: true; data: Plain } | undefined;
  /** McpServer's parse of a tool's structured output against its zod object (plain-object-schema.ts). */
  toolInput(schema: unknown, input: unknown): { success: true; data: Plain } | undefined;
  toolArguments(server: unknown, tool: unknown, args: unknown): Plain | undefined;
}

const FAST: SdkFastPaths = { isRequest, mayHave, callToolRequest, toolResult, toolInput: plainObjectParse, toolArguments };
/** For an SDK nobody checked these against: every answer defers to the SDK's own schema. */
const DEFER: SdkFastPaths = {
  isRequest: () => false,
  mayHave: () => true,
  callToolRequest: () => undefined,
  toolResult: () => undefined,
  toolInput: () => undefined,
  toolArguments: () => undefined,
};

/** The fast paths for the bundled SDK's version (given by the bundler), or ones that always defer. */
export function sdkFastPaths(sdkVersion: string): SdkFastPaths {
  return VERIFIED_SDK_VERSIONS.includes(sdkVersion) ? FAST : DEFER;
}
