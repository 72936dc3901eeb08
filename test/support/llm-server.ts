// A local model provider for tests: speaks OpenAI chat completions and Anthropic messages (JSON
// and server-sent events) on 127.0.0.1 and answers each request with the next scripted turn. No
// test reaches a real provider. Every request is kept (body and headers) for the test to read. A
// turn may also be a provider that never answers, or one that trickles a byte at a time forever;
// an answer may take its time (`delayMs`, the benchmarks' stand-in for a provider's latency), and
// each request's time to its answer is kept.

import type { Server } from "bun";

/** A tool call the model makes: tool name and arguments. */
export interface ScriptedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The arguments as the model writes them on an OpenAI wire, when they are not `args` as JSON (e.g. not JSON at all). */
  rawArgs?: string;
}

/** What the server answers one request with. */
export type Turn =
  | { calls: ScriptedCall[]; text?: string; usage?: { input: number; output: number }; delayMs?: number }
  | { text: string; usage?: { input: number; output: number }; delayMs?: number }
  /** An HTTP answer: `body` as JSON, or `raw` as it is (e.g. a proxy's HTML page). */
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  /** Takes the request and never answers (the connection stays open until the server stops). */
  | { hang: true }
  /** Answers 200 and then sends one more byte every `trickle` ms, never ending the body. */
  | { trickle: number };

/** A turn that answers with a model's message. */
type Answer = Exclude<Turn, { status: number } | { hang: true } | { trickle: number }>;

/** A turn whose one call is objectiveStatus COMPLETED, with `explanation`. */
export const done = (explanation: string): Turn => ({ calls: [{ tool: "objectiveStatus", args: { status: "COMPLETED", explanation } }] });
/** A turn whose one call is `tool` with `args`. */
export const call = (tool: string, args: Record<string, unknown>): Turn => ({ calls: [{ tool, args }] });

/** A turn, or a function that picks one from the request (its messages as sent). */
export type TurnSource = Turn | ((request: SeenRequest) => Turn);

export interface SeenRequest {
  wire: "openai" | "anthropic";
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Every text the request carries (system, user, tool results), joined: what the model was shown. */
  text: string;
  /** Images the request carries, as data/base64 strings. */
  images: string[];
  /** The raw body as sent, for byte counts. */
  raw: string;
  /** Ms from the request's arrival to its answer (a turn's `delayMs` included): the model's own time. */
  servedMs?: number;
}

export interface LlmServer {
  url: string;
  requests: SeenRequest[];
  /** Turns not answered yet. */
  remaining(): number;
  /** Turns to answer with once the script is spent (default: a 500 that says so). */
  after?: TurnSource;
  stop(): Promise<void>;
}

function textsOf(value: unknown, texts: string[], images: string[]): void {
  if (typeof value === "string") {
    texts.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) textsOf(item, texts, images);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const part = value as Record<string, unknown>;
  if (part.type === "image_url") {
    const url = (part.image_url as { url?: string } | undefined)?.url;
    if (url) images.push(url);
    return;
  }
  if (part.type === "image") {
    const data = (part.source as { data?: string } | undefined)?.data;
    if (data) images.push(data);
    return;
  }
  for (const key of ["content", "text", "system"]) if (key in part) textsOf(part[key], texts, images);
}

let callIds = 0;

function openaiJson(turn: Answer, model: string) {
  const calls = "calls" in turn ? turn.calls : [];
  return {
    id: `chatcmpl-${++callIds}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  id: `call_${++callIds}`,
                  type: "function",
                  function: { name: call.tool, arguments: call.rawArgs ?? JSON.stringify(call.args) },
                })),
              }
            : {}),
        },
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: turn.usage?.input ?? 100,
      completion_tokens: turn.usage?.output ?? 10,
      total_tokens: (turn.usage?.input ?? 100) + (turn.usage?.output ?? 10),
    },
  };
}

function openaiEvents(turn: Answer, model: string): string[] {
  const id = `chatcmpl-${++callIds}`;
  const chunk = (delta: unknown, finish: string | null = null, usage?: unknown) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    });
  const events = [chunk({ role: "assistant", content: "" })];
  if (turn.text) events.push(chunk({ content: turn.text }));
  const calls = "calls" in turn ? turn.calls : [];
  calls.forEach((call, index) => {
    const args = call.rawArgs ?? JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    events.push(
      chunk({
        tool_calls: [{ index, id: `call_${++callIds}`, type: "function", function: { name: call.tool, arguments: args.slice(0, half) } }],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  const usage = {
    prompt_tokens: turn.usage?.input ?? 100,
    completion_tokens: turn.usage?.output ?? 10,
    total_tokens: (turn.usage?.input ?? 100) + (turn.usage?.output ?? 10),
  };
  events.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop", usage));
  return [...events.map((e) => `data: ${e}\n\n`), "data: [DONE]\n\n"];
}

function anthropicJson(turn: Answer, model: string) {
  const calls = "calls" in turn ? turn.calls : [];
  return {
    id: `msg_${++callIds}`,
    type: "message",
    role: "assistant",
    model,
    content: [
      ...(turn.text ? [{ type: "text", text: turn.text }] : []),
      ...calls.map((call) => ({ type: "tool_use", id: `toolu_${++callIds}`, name: call.tool, input: call.args })),
    ],
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: turn.usage?.input ?? 100, output_tokens: turn.usage?.output ?? 10 },
  };
}

function anthropicEvents(turn: Answer, model: string): string[] {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const calls = "calls" in turn ? turn.calls : [];
  const events = [
    event("message_start", {
      message: {
        id: `msg_${++callIds}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: turn.usage?.input ?? 100, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (turn.text) {
    events.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
    events.push(event("content_block_delta", { index, delta: { type: "text_delta", text: turn.text } }));
    events.push(event("content_block_stop", { index }));
    index++;
  }
  for (const call of calls) {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    events.push(
      event("content_block_start", { index, content_block: { type: "tool_use", id: `toolu_${++callIds}`, name: call.tool, input: {} } }),
    );
    events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(0, half) } }));
    events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: args.slice(half) } }));
    events.push(event("content_block_stop", { index }));
    index++;
  }
  events.push(
    event("message_delta", {
      delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: turn.usage?.output ?? 10 },
    }),
  );
  events.push(event("message_stop", {}));
  return events;
}

function sse(events: string[]): Response {
  const stream = new ReadableStream({
    start(controller) {
      for (const e of events) controller.enqueue(new TextEncoder().encode(e));
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/** A 200 whose body never ends: the start of an answer, then one byte every `everyMs` ms until the client goes. */
function trickle(everyMs: number, events: boolean, timers: Set<ReturnType<typeof setInterval>>): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream({
    start(controller) {
      // An event-stream comment line, or the first brace of a JSON body whose whitespace never ends.
      controller.enqueue(encoder.encode(events ? ":" : "{"));
      timer = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(events ? "\n" : " "));
        } catch {
          clearInterval(timer);
        }
      }, everyMs);
      timers.add(timer);
    },
    cancel() {
      clearInterval(timer);
      if (timer) timers.delete(timer);
    },
  });
  return new Response(stream, { headers: { "content-type": events ? "text/event-stream" : "application/json" } });
}

/** Starts a server that answers with `turns` in order (one per request, whichever wire format it uses). */
export function startLlmServer(turns: TurnSource[]): LlmServer {
  const script = [...turns];
  const requests: SeenRequest[] = [];
  const trickling = new Set<ReturnType<typeof setInterval>>();
  const handle: LlmServer = {
    url: "",
    requests,
    remaining: () => script.length,
    stop: async () => {
      for (const timer of trickling) clearInterval(timer);
      trickling.clear();
      await server.stop(true);
    },
  };
  const server: Server<undefined> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    // A turn that hangs keeps its connection open for as long as the client waits (Bun's default cuts it at 10 s).
    idleTimeout: 0,
    async fetch(request) {
      const arrived = performance.now();
      const url = new URL(request.url);
      const wire = url.pathname.endsWith("/messages") ? "anthropic" : "openai";
      const raw = await request.text();
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return Response.json({ error: { message: "request body is not JSON" } }, { status: 400 });
      }
      const texts: string[] = [];
      const images: string[] = [];
      textsOf(body.system, texts, images);
      textsOf(body.messages, texts, images);
      const seen: SeenRequest = {
        wire,
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body,
        text: texts.join("\n"),
        images,
        raw,
      };
      requests.push(seen);
      const source = script.shift() ?? handle.after ?? { status: 500, body: { error: { message: "the test script has no turn left" } } };
      const turn = typeof source === "function" ? source(seen) : source;
      if ("hang" in turn) return new Promise<Response>(() => {});
      if ("trickle" in turn) return trickle(turn.trickle, body.stream === true, trickling);
      if ("status" in turn) {
        if (turn.raw !== undefined) return new Response(turn.raw, { status: turn.status, headers: turn.headers ?? {} });
        const errorBody =
          turn.body ??
          (wire === "anthropic"
            ? { type: "error", error: { type: "api_error", message: `status ${turn.status}` } }
            : { error: { message: `status ${turn.status}` } });
        return Response.json(errorBody, { status: turn.status, headers: turn.headers ?? {} });
      }
      const model = String(body.model ?? "test-model");
      // A model that takes its time to answer (the benchmarks' stand-in for a provider's latency).
      if (turn.delayMs) await Bun.sleep(turn.delayMs);
      const answer =
        body.stream === true
          ? sse(wire === "anthropic" ? anthropicEvents(turn, model) : openaiEvents(turn, model))
          : Response.json(wire === "anthropic" ? anthropicJson(turn, model) : openaiJson(turn, model));
      seen.servedMs = performance.now() - arrived;
      return answer;
    },
  });
  handle.url = `http://127.0.0.1:${server.port}`;
  return handle;
}
