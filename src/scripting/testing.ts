// `@trailblaze/scripting/testing`: run a per-file tool under `bun test` with no session.
//
//   const client = createMockClient();
//   client.stub("findMatches", { textContent: "", structuredContent: [] });
//   await myapp_openSettings({}, createMockContext({ platform: "android" }), client);
//   expect(client.calls.map((c) => c.tool)).toEqual(["tapOnElementWithText"]);

import { createClient, type TrailblazeClient } from "./client.ts";
import { createMemory, type TrailblazeMemory } from "./memory.ts";
import type { MatchDescriptor } from "./selectors.ts";
import { toolTarget, type ToolTargetData } from "./target.ts";
import type { DevicePlatform, ToolTarget, TrailblazeCallContext } from "./tool-context.ts";

export interface MockCall {
  tool: string;
  args: Record<string, unknown>;
}

/** What a stubbed tool answers; a non-empty `errorMessage` makes it fail. */
export interface MockStubResponse {
  textContent: string;
  errorMessage?: string;
  structuredContent?: unknown;
}

export interface MockTrailblazeClient extends TrailblazeClient {
  /** Every call, in order. */
  calls: MockCall[];
  /** Answers every later call of `tool` with `response` (unstubbed tools succeed with empty text). */
  stub(tool: string, response: MockStubResponse): void;
  /** Forgets calls and stubs. */
  reset(): void;
}

/** A client that records calls and answers from stubs. */
export function createMockClient(): MockTrailblazeClient {
  const calls: MockCall[] = [];
  const stubs = new Map<string, MockStubResponse>();
  const client = createClient(async (tool, args) => {
    calls.push({ tool, args });
    const stub = stubs.get(tool);
    const failed = Boolean(stub?.errorMessage);
    return {
      success: !failed,
      textContent: stub?.textContent ?? "",
      errorMessage: stub?.errorMessage ?? "",
      ...(stub?.structuredContent !== undefined ? { structuredContent: stub.structuredContent } : {}),
    };
  });
  return {
    tools: client.tools,
    calls,
    stub(tool, response) {
      if (tool.trim() === "") throw new Error("createMockClient: stub() needs a tool name");
      stubs.set(tool, response);
    },
    reset() {
      calls.length = 0;
      stubs.clear();
    },
  };
}

export interface QueuedFindMatchesClient extends TrailblazeClient {
  calls: MockCall[];
  /** Answers for the next `findMatches` calls, one list of matches per call. */
  queueFindMatches(responses: MatchDescriptor[][]): void;
  /** Answers for the next `waitUntilNotVisible` calls. */
  queueWaitUntilNotVisible(responses: boolean[]): void;
}

/** A client for polling tools: `findMatches` and `waitUntilNotVisible` answer from queues, other tools with "". */
export function createQueuedFindMatchesClient(): QueuedFindMatchesClient {
  const calls: MockCall[] = [];
  const matches: MatchDescriptor[][] = [];
  const gone: boolean[] = [];
  const next = <T>(queue: T[], tool: string, args: Record<string, unknown>, how: string): T => {
    if (queue.length === 0) {
      throw new Error(
        `createQueuedFindMatchesClient: ${tool}(${JSON.stringify(args)}) was called with nothing queued; add answers with ${how}`,
      );
    }
    return queue.shift() as T;
  };
  const client = createClient(async (tool, args) => {
    calls.push({ tool, args });
    const answer =
      tool === "findMatches"
        ? next(matches, tool, args, "queueFindMatches")
        : tool === "waitUntilNotVisible"
          ? next(gone, tool, args, "queueWaitUntilNotVisible")
          : undefined;
    return {
      success: true,
      textContent: answer === undefined ? "" : JSON.stringify(answer),
      errorMessage: "",
      ...(answer !== undefined ? { structuredContent: answer } : {}),
    };
  });
  return {
    tools: client.tools,
    calls,
    queueFindMatches: (responses) => void matches.push(...responses),
    queueWaitUntilNotVisible: (responses) => void gone.push(...responses),
  };
}

export interface CreateMockContextOptions {
  platform: DevicePlatform;
  sessionId?: string;
  invocationId?: string;
  device?: { widthPixels?: number; heightPixels?: number; driverType?: string };
  /** A target; `resolveAppId` and `resolveBaseUrl` are added when missing, resolving as in a session. */
  target?: ToolTargetData & Partial<Pick<ToolTarget, "resolveAppId" | "resolveBaseUrl">>;
  memory?: Record<string, unknown>;
}

/** The resolvers a test gave its target, to keep over the ones a session would add. */
function definedResolvers(target: Partial<Pick<ToolTarget, "resolveAppId" | "resolveBaseUrl">>): Partial<ToolTarget> {
  return {
    ...(target.resolveAppId ? { resolveAppId: target.resolveAppId } : {}),
    ...(target.resolveBaseUrl ? { resolveBaseUrl: target.resolveBaseUrl } : {}),
  };
}

/** A made-up call context whose memory a test can read back: `ctx.memory.get("key")`. */
export type MockCallContext = TrailblazeCallContext & { memory: TrailblazeMemory };

/** The context a tool gets in a session, made up: a 1080×2400 device of `platform`, empty memory unless given. */
export function createMockContext(options: CreateMockContextOptions): MockCallContext {
  const target = options.target;
  return {
    sessionId: options.sessionId ?? "mock-session",
    invocationId: options.invocationId ?? "mock-invocation",
    device: {
      platform: options.platform,
      widthPixels: options.device?.widthPixels ?? 1080,
      heightPixels: options.device?.heightPixels ?? 2400,
      driverType: options.device?.driverType ?? "mock-driver",
    },
    ...(target ? { target: { ...toolTarget(target), ...definedResolvers(target) } } : {}),
    memory: createMemory(options.memory ?? {}),
  };
}
