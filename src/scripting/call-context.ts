// What a tool's handler gets from a live call: the `_trailblazeContext` envelope as a
// TrailblazeCallContext, and a client whose `tools.<name>()` is a `trailblaze/execute` request
// over the connection the call came in on (stdio in a subprocess, in-process in QuickJS).

import { createClient, type TrailblazeClient } from "./client.ts";
import { contextOf, type TrailblazeContext } from "./context.ts";
import { executeTool } from "./execute.ts";
import { createMemory, type TrailblazeMemory } from "./memory.ts";
import type { ToolExtra } from "./register.ts";
import type { DevicePlatform, ToolTarget, TrailblazeCallContext } from "./tool-context.ts";

function targetOf(envelope: TrailblazeContext): ToolTarget | undefined {
  const info = envelope.target;
  if (!info) return undefined;
  const appId = info.appIds[0];
  return {
    id: info.id,
    ...(info.displayName !== undefined ? { displayName: info.displayName } : {}),
    appIds: [...info.appIds],
    ...(appId !== undefined ? { appId } : {}),
    resolveAppId: (options) => appId ?? (options?.defaultAppId?.trim() || undefined),
  };
}

function callContext(envelope: TrailblazeContext, invocationId: string): TrailblazeCallContext & { memory: TrailblazeMemory } {
  const target = targetOf(envelope);
  return {
    invocationId,
    device: { ...envelope.device, platform: envelope.device.platform.toLowerCase() as DevicePlatform },
    ...(target ? { target } : {}),
    memory: createMemory(envelope.memory),
  };
}

/** The call context of a tools/call, or undefined when it came without one (a plain MCP client). */
export function callContextOf(args: unknown, extra: ToolExtra): TrailblazeCallContext | undefined {
  const envelope = contextOf(args, extra);
  return envelope ? callContext(envelope, String(extra.requestId)) : undefined;
}

/**
 * Upstream's `fromMeta(extra._meta)`: the call context in a request's `_meta` (its `trailblaze`
 * envelope) for an MCP server's handler: device, target, and memory with get/set; undefined when
 * the request came without one (a plain MCP client).
 */
export function fromMeta(meta: unknown): (TrailblazeCallContext & { memory: TrailblazeMemory }) | undefined {
  const envelope = contextOf({ _meta: meta });
  if (!envelope) return undefined;
  const tb = (meta as { trailblaze: Record<string, unknown> }).trailblaze;
  const invocationId = typeof tb.invocationId === "string" ? tb.invocationId : "";
  return { ...callContext(envelope, invocationId), ...(typeof tb.sessionId === "string" ? { sessionId: tb.sessionId } : {}) };
}

const textOf = (content: readonly { type: string; text?: unknown }[]) =>
  content.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("\n");

/** `ctx.tools` for a call: each tool call is a `trailblaze/execute` request answered by the session. */
export function sessionClient(extra: ToolExtra): TrailblazeClient {
  return createClient(async (name, args) => {
    const result = await executeTool(extra, name, args);
    const ok = result.status === "success";
    return {
      success: ok,
      textContent: textOf(result.content),
      errorMessage: ok ? "" : result.message,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    };
  });
}
