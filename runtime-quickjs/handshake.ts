// The MCP handshake a session's client opens with (initialize, notifications/initialized,
// tools/list): recorded from a server's first session, so later sessions can be restored from an
// image taken right after it and have it answered from the record instead of by the guest (the
// guest spent ~4 ms of an ~11 ms session answering it again). A session whose client opens
// differently gets the guest, as before the handshake (quickjs-server.ts rewinds it).
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** What the guest answered to one client's handshake (params and results as JSON text). */
export interface HandshakeRecord {
  initialize: { params: string; result: string };
  list: { params: string; result: string };
}

const INITIALIZE = "initialize";
const INITIALIZED = "notifications/initialized";
const LIST = "tools/list";

const paramsText = (message: JSONRPCMessage): string => JSON.stringify(("params" in message ? message.params : undefined) ?? null);

/**
 * Watches a session from its start: `record` is set once the client sent exactly initialize,
 * notifications/initialized and tools/list, each answered with a result and nothing else in
 * between either way; `failed` as soon as anything else happens.
 */
export class HandshakeRecorder {
  #stage: "initialize" | "initialize-reply" | "initialized" | "list" | "list-reply" | "done" | "failed" = "initialize";
  #pending: RequestId | undefined;
  #initialize: HandshakeRecord["initialize"] | undefined;
  #params = "";
  record: HandshakeRecord | undefined;

  get failed(): boolean {
    return this.#stage === "failed";
  }

  fail(): void {
    if (this.#stage !== "done") this.#stage = "failed";
  }

  /** A client message, before the guest gets it. */
  toGuest(message: JSONRPCMessage): void {
    const request = isJSONRPCRequest(message) ? message : undefined;
    if (this.#stage === "initialize" && request?.method === INITIALIZE) this.#expectReply(request, "initialize-reply");
    else if (this.#stage === "initialized" && isJSONRPCNotification(message) && message.method === INITIALIZED) this.#stage = "list";
    else if (this.#stage === "list" && request?.method === LIST) this.#expectReply(request, "list-reply");
    else this.fail();
  }

  /** A guest message, as it comes out. */
  fromGuest(message: JSONRPCMessage): void {
    const reply = isJSONRPCResultResponse(message) && message.id === this.#pending ? JSON.stringify(message.result) : undefined;
    if (reply === undefined) return this.fail();
    if (this.#stage === "initialize-reply") {
      this.#initialize = { params: this.#params, result: reply };
      this.#stage = "initialized";
    } else if (this.#stage === "list-reply") {
      this.record = { initialize: this.#initialize!, list: { params: this.#params, result: reply } };
      this.#stage = "done";
    } else this.fail();
  }

  #expectReply(request: JSONRPCMessage & { id: RequestId }, stage: "initialize-reply" | "list-reply"): void {
    this.#pending = request.id;
    this.#params = paramsText(request);
    this.#stage = stage;
  }
}

/** What to do with a client message of a session restored after the handshake. */
type ReplayStep =
  /** Answer it with this, the guest is not involved. */
  | { reply: JSONRPCMessage }
  /** The guest already had it (the record's notifications/initialized). */
  | "drop"
  /** The client opens differently: put the guest back to before the handshake, then give it the message. */
  | "rewind"
  /** Give it to the guest (the handshake is over, or the client went on without it: the guest is past it either way). */
  | "deliver";

/** Answers a session's handshake from a record, as long as the client opens the same way. */
export class HandshakeReplay {
  #stage: "initialize" | "initialized" | "list" | "over" = "initialize";
  #answered = false;

  constructor(private readonly record: HandshakeRecord) {}

  /** Whether the whole handshake was answered from the record. */
  get done(): boolean {
    return this.#answered;
  }

  next(message: JSONRPCMessage): ReplayStep {
    const stage = this.#stage;
    this.#stage = "over";
    const request = isJSONRPCRequest(message) ? message : undefined;
    switch (stage) {
      case "initialize":
        if (request?.method !== INITIALIZE || paramsText(request) !== this.record.initialize.params) return "rewind";
        this.#stage = "initialized";
        return { reply: { jsonrpc: "2.0", id: request.id, result: JSON.parse(this.record.initialize.result) as Record<string, unknown> } };
      case "initialized":
        if (!isJSONRPCNotification(message) || message.method !== INITIALIZED) return "deliver";
        this.#stage = "list";
        return "drop";
      case "list":
        if (request?.method !== LIST || paramsText(request) !== this.record.list.params) return "deliver";
        this.#answered = true;
        return { reply: { jsonrpc: "2.0", id: request.id, result: JSON.parse(this.record.list.result) as Record<string, unknown> } };
      case "over":
        return "deliver";
    }
  }
}
