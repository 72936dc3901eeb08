// What a tool's handler gets from a live call: the `_trailblazeContext` envelope as a
// TrailblazeCallContext, and a client whose `tools.<name>()` is a `trailblaze/execute` request
// over the connection the call came in on (stdio in a subprocess, in-process in QuickJS).

import { createClient, type TrailblazeClient } from "./client.ts";
import { contextOf, type TrailblazeContext } from "./context.ts";
import { executeTool } from "./execute.ts";
import { createMemory, type TrailblazeMemory } from "./memory.ts";
import type { ToolExtra } from "./register.ts";
import { parseTarget } from "./target.ts";
import type { DevicePlatform, ToolDevice, TrailblazeCallContext } from "./tool-context.ts";

const DEVICE_PLATFORMS: readonly string[] = ["android", "ios", "web"] satisfies DevicePlatform[];

/**
 * The envelope's device with its platform in lower case (ours sends `ANDROID`, upstream's
 * `android`); undefined when a required field is missing or of the wrong type, which makes the
 * whole context unusable. `instanceId` is optional: one that is not a string is left out.
 */
function deviceOf(raw: unknown): ToolDevice | undefined {
  const device = raw as Record<string, unknown>;
  const platform = typeof device.platform === "string" ? device.platform.toLowerCase() : "";
  const { widthPixels, heightPixels, driverType, instanceId } = device;
  if (
    !DEVICE_PLATFORMS.includes(platform) ||
    typeof widthPixels !== "number" ||
    typeof heightPixels !== "number" ||
    typeof driverType !== "string"
  ) {
    return undefined;
  }
  return {
    platform: platform as DevicePlatform,
    widthPixels,
    heightPixels,
    driverType,
    ...(typeof instanceId === "string" ? { instanceId } : {}),
  };
}

/**
 * The call context of an envelope: device and memory are required, a malformed `target` block
 * is no target (the rest is kept), as upstream's `fromMeta` reads it.
 */
function callContext(
  envelope: TrailblazeContext,
  invocationId: string,
): (TrailblazeCallContext & { memory: TrailblazeMemory }) | undefined {
  const device = deviceOf(envelope.device);
  if (!device) return undefined;
  const target = parseTarget(envelope.target);
  return { invocationId, device, ...(target ? { target } : {}), memory: createMemory(envelope.memory) };
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
  const ctx = callContext(envelope, typeof tb.invocationId === "string" ? tb.invocationId : "");
  return ctx && typeof tb.sessionId === "string" ? { ...ctx, sessionId: tb.sessionId } : ctx;
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
