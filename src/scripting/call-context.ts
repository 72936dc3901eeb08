// What a tool's handler gets from a live call: the `_trailblazeContext` envelope as a
// TrailblazeCallContext, and a client whose `tools.<name>()` is a `trailblaze/execute` request
// over the connection the call came in on (stdio in a subprocess, in-process in QuickJS).

import { createClient, type TrailblazeClient } from "./client.ts";
import { contextOf } from "./context.ts";
import { executeTool } from "./execute.ts";
import { callLogger, noopLogger, type TrailblazeLogger } from "./logger.ts";
import { createMemory, type TrackedMemory, type TrailblazeMemory } from "./memory.ts";
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The call context with memory that can say what the tool changed (the runtime sends the changes back). */
type LiveCallContext = TrailblazeCallContext & { memory: TrackedMemory };

/**
 * The call context of an envelope, read as upstream's `fromMeta` reads it: `sessionId`,
 * `invocationId` and the device are required (without them there is no context); a malformed
 * `target` block is no target and the rest is kept; memory that is not an object is empty;
 * `baseUrl` and `runtime: "ondevice"` (upstream's) are kept when sent.
 */
function callContext(envelope: Record<string, unknown>, logger: TrailblazeLogger): LiveCallContext | undefined {
  const { sessionId, invocationId, baseUrl, runtime } = envelope;
  if (typeof sessionId !== "string" || typeof invocationId !== "string") return undefined;
  const device = deviceOf(envelope.device);
  if (!device) return undefined;
  const target = parseTarget(envelope.target);
  return {
    ...(typeof baseUrl === "string" ? { baseUrl } : {}),
    ...(runtime === "ondevice" ? { runtime } : {}),
    sessionId,
    invocationId,
    device,
    ...(target ? { target } : {}),
    memory: createMemory(isRecord(envelope.memory) ? envelope.memory : {}),
    logger,
  };
}

/**
 * The call context of a tools/call of `toolName`, or undefined when it came without one (a plain
 * MCP client). Its logger writes to stderr and sends MCP log messages over the call's connection.
 */
export function callContextOf(args: unknown, extra: ToolExtra, toolName: string): LiveCallContext | undefined {
  const envelope = contextOf(args, extra);
  return envelope ? callContext(envelope as unknown as Record<string, unknown>, callLogger(toolName, extra.sendNotification)) : undefined;
}

/**
 * Upstream's `fromMeta(extra._meta, logger?)`: the call context in a request's `_meta` (its
 * `trailblaze` envelope) for an MCP server's handler: the session and call ids, the device, the
 * target, memory with get/set, and `logger` (one that writes nothing unless given); undefined when
 * the request came without one (a plain MCP client) or with one that lacks a required field.
 */
export function fromMeta(meta: unknown, logger?: TrailblazeLogger): (TrailblazeCallContext & { memory: TrailblazeMemory }) | undefined {
  const envelope = isRecord(meta) ? meta.trailblaze : undefined;
  return isRecord(envelope) ? callContext(envelope, logger ?? noopLogger) : undefined;
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
