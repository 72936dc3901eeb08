// `@trailblaze/scripting/testing`: run a per-file tool under `bun test` with no session.
//
//   const client = createMockClient();
//   client.stub("findMatches", { textContent: "", structuredContent: [] });
//   await myapp_openSettings({}, createMockContext({ platform: "android" }), client);
//   expect(client.calls.map((c) => c.tool)).toEqual(["tapOnElementWithText"]);

import { createClient, type TrailblazeClient } from "./client.ts";
import { noopLogger } from "./logger.ts";
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
      if (tool.trim() === "")
        throw new Error(`createMockClient: stub(${JSON.stringify(tool)}): a tool name must not be empty or whitespace-only`);
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
  /** Default `mock-session`. */
  sessionId?: string;
  /** Default `mock-invocation`. */
  invocationId?: string;
  /** Upstream's daemon URL; kept on the context when given. */
  baseUrl?: string;
  /** `"ondevice"` is kept on the context; `"host"` leaves `runtime` out, as a host envelope does. */
  runtime?: "host" | "ondevice";
  device?: {
    /** Default 1080. */
    widthPixels?: number;
    /** Default 2400. */
    heightPixels?: number;
    /** The driver key; default `driver`, else `mock-driver`. */
    driverType?: string;
    /** Upstream's old name for `driverType`: kept on the device, and its `driverType` when none is given. */
    driver?: string;
    /** The device's serial or simulator UDID, for a tool that needs one. */
    instanceId?: string;
  };
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

/**
 * The context a tool gets in a session, made up: a 1080×2400 device of `platform`, empty memory
 * unless given, a logger that writes nothing. Fields given win; those not given are left out
 * rather than set to undefined.
 */
export function createMockContext(options: CreateMockContextOptions): MockCallContext {
  const { target, device = {} } = options;
  return {
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.runtime === "ondevice" ? { runtime: "ondevice" as const } : {}),
    sessionId: options.sessionId ?? "mock-session",
    invocationId: options.invocationId ?? "mock-invocation",
    device: {
      platform: options.platform,
      widthPixels: device.widthPixels ?? 1080,
      heightPixels: device.heightPixels ?? 2400,
      driverType: device.driverType ?? device.driver ?? "mock-driver",
      ...(device.driver !== undefined ? { driver: device.driver } : {}),
      ...(device.instanceId !== undefined ? { instanceId: device.instanceId } : {}),
    },
    ...(target ? { target: { ...toolTarget(target), ...definedResolvers(target) } } : {}),
    memory: createMemory(options.memory ?? {}),
    logger: noopLogger,
  };
}
