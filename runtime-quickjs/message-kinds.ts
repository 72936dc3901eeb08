// What kind of JSON-RPC message crosses between the host and a QuickJS guest, told without a zod
// parse where the answer is certain: every reply a guest sends is validated as the SDK's stdio
// framing validates a line (JSONRPCMessageSchema), and most are plain results, which an exact check
// parses to the same value (the schema's key order, the same members); anything else goes to zod,
// with its errors. Messages to the guest are the SDK Client's own, so a request is told by its
// members. Held to the SDK's schemas by message-kinds.test.ts.
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

type Plain = Record<string, unknown>;

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const RESULT_RESPONSE_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id", "result"]);

/** What JSON.parse makes of an object (and nothing with a `__proto__` key of its own, which zod treats apart). */
function plain(value: unknown): value is Plain {
  return (
    typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, "__proto__")
  );
}

const isRequestId = (value: unknown) => typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));

/** ResultSchema's parse of `result` when it is plain and its `_meta` (if any) holds no task entry; else undefined. */
function plainResult(result: unknown): Plain | undefined {
  if (!plain(result)) return undefined;
  const out: Plain = {};
  if ("_meta" in result) {
    const meta = result._meta;
    if (!plain(meta) || RELATED_TASK in meta || ("progressToken" in meta && !isRequestId(meta.progressToken))) return undefined;
    // RequestMetaSchema (loose): its declared key first, then the others in input order.
    const copy: Plain = {};
    if ("progressToken" in meta) copy.progressToken = meta.progressToken;
    for (const key of Object.keys(meta)) if (key !== "progressToken") copy[key] = meta[key];
    out._meta = copy;
  }
  for (const key of Object.keys(result)) if (key !== "_meta") out[key] = result[key];
  return out;
}

/** JSONRPCMessageSchema's parse of a plain result response (`{ jsonrpc, id, result }`), or undefined to ask zod. */
export function resultResponse(value: unknown): JSONRPCMessage | undefined {
  if (!plain(value) || value.jsonrpc !== "2.0" || !isRequestId(value.id) || !("result" in value)) return undefined;
  for (const key of Object.keys(value)) if (!RESULT_RESPONSE_KEYS.has(key)) return undefined;
  const result = plainResult(value.result);
  return result && ({ jsonrpc: "2.0", id: value.id as RequestId, result } as JSONRPCMessage);
}

/** `JSONRPCMessageSchema.parse(JSON.parse(json))`: the same value, or the same error. */
export function parseGuestMessage(json: string): JSONRPCMessage {
  const value: unknown = JSON.parse(json);
  return resultResponse(value) ?? JSONRPCMessageSchema.parse(value);
}

/** A valid JSON-RPC message (one parseGuestMessage gave) that answers a request: its id (undefined when it names none). */
export function answeredId(message: JSONRPCMessage): RequestId | undefined {
  return "method" in message ? undefined : (message as { id?: RequestId }).id;
}

/** A request of the SDK Client (which makes only valid messages): it has a method and an id. */
export function isClientRequest(message: JSONRPCMessage): message is Extract<JSONRPCMessage, { id: RequestId; method: string }> {
  return "method" in message && "id" in message;
}
