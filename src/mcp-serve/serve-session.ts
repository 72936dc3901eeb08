// Serves one running Session as an MCP server (the SDK's low-level `Server`) over
// any SDK Transport: tools/list shows the served tools, tools/call dispatches
// through Session.call (which applies the memory a Success asks for). When recording
// (`--record` / `--trail`), the mode's control tools are served too, and each call is
// reported to it; prompts/list offers the `record-trail` prompt.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { InterpolationError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { interpolate } from "../trail/interpolate.ts";
import { checkControlNames, CONTROL_SOURCE, type RecordingMode } from "./control-tools.ts";
import { RECORD_PROMPT, RECORD_PROMPT_NAME, recordPromptResult } from "./record-prompt.ts";
import { refusal, refusedResult, servedTools, SERVED_META_KEYS, toCallToolResult, toMcpTool } from "./served-tools.ts";
import { PACKAGE_VERSION } from "../core/package-version.ts";

const SERVER_NAME = "trailblaze";
const SERVER_VERSION = PACKAGE_VERSION;

interface ServeOptions {
  /** Diagnostics (never the protocol stream). Default: dropped. */
  log?(line: string): void;
  /** `--record` / `--trail`: control tools served beside the session's, and every call reported. */
  recording?: RecordingMode;
}

/** What `{{KEY}}` reads without a recording: the session's memory, its secrets included. */
function memoryPlaceholders(session: Session): ReturnType<RecordingMode["placeholders"]> {
  const { memory } = session;
  return { lookup: (key) => memory.lookup(key), knownKeys: () => memory.keys() };
}

/** The SDK Server for a session; connect it to a transport with `server.connect`. */
function createSessionServer(session: Session, options: ServeOptions = {}): Server {
  const { spec, registry } = session;
  const { recording } = options;
  const controls = recording?.tools() ?? [];
  if (recording) checkControlNames(recording, registry);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false }, prompts: { listChanged: false } },
      instructions:
        `Trailblaze tools of target ${spec.target.id} for one session ` +
        `(driver ${spec.driver.key}, platform ${spec.driver.platform}, agent ${spec.agent}); ` +
        "session memory persists across calls.",
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...controls.map((tool) => ({ ...tool, _meta: { [SERVED_META_KEYS.source]: CONTROL_SOURCE } })),
      ...servedTools(registry).map((tool) => toMcpTool(tool, registry)),
    ],
  }));

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [RECORD_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== RECORD_PROMPT_NAME) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${request.params.name}"; this server has one prompt: ${RECORD_PROMPT_NAME}`,
      );
    }
    return recordPromptResult(recording, request.params.arguments?.goal);
  });

  const call = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> => {
    if (recording && controls.some((tool) => tool.name === name)) return recording.control(name, args);
    const refused = refusal(name, registry) ?? recording?.refusal();
    if (refused !== undefined) {
      options.log?.(`call ${name} refused: ${refused}`);
      return refusedResult(refused);
    }
    // {{KEY}} placeholders (a --secret, a memory value; with --trail, {{args.NAME}}) are replaced as a trail's are,
    // whether or not the session records; a recording keeps them as written.
    let dispatched: Record<string, unknown>;
    try {
      const { lookup, knownKeys } = recording?.placeholders() ?? memoryPlaceholders(session);
      dispatched = interpolate(args, lookup, { knownKeys, context: name }) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      return refusedResult(error.message);
    }
    const result = await session.call(name, dispatched, { signal });
    await recording?.called(name, args, result);
    return toCallToolResult(result);
  };
  // A secret's value never reaches the client: every answer and every error is masked, as logs and reports are.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      return session.secrets.maskValue(await call(request.params.name, request.params.arguments ?? {}, extra.signal));
    } catch (error) {
      if (error instanceof Error) error.message = session.secrets.mask(error.message);
      throw error;
    }
  });

  return server;
}

/**
 * Serves `session` on `transport` until the transport closes (the client hung up, or
 * `transport.close()` was called). The session is not closed here: its owner does that.
 */
export async function serveSession(session: Session, transport: Transport, options: ServeOptions = {}): Promise<void> {
  const server = createSessionServer(session, options);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (error) => options.log?.(`MCP protocol error: ${error.message}`);
  await server.connect(transport);
  await closed;
}
