// `ctx.target`: the session's target as a tool reads it. The envelope's `target` block is read
// leniently (upstream's `parseTarget`): a block without a string `id` and an `appIds` list of
// strings is no target, while the rest of the context is kept; an optional field of the wrong
// type is left out. `resolveAppId` / `resolveBaseUrl` are closures over the data, not methods
// reading `this`, so `const { resolveAppId } = ctx.target` still resolves.
// Pure: runs under bun and bundled into QuickJS.

import type { ToolTarget } from "./tool-context.ts";

/** A target's data: a ToolTarget without its resolvers. */
export type ToolTargetData = Omit<ToolTarget, "resolveAppId" | "resolveBaseUrl">;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === "string");

/** `fromTarget` when it is a non-empty string, else the trimmed `fallback` when not empty. */
function firstOf(fromTarget: string | undefined, fallback: string | undefined): string | undefined {
  if (typeof fromTarget === "string" && fromTarget.length > 0) return fromTarget;
  const trimmed = typeof fallback === "string" ? fallback.trim() : "";
  return trimmed.length > 0 ? trimmed : undefined;
}

/**
 * The target with its resolvers: `resolveAppId` is `appId`, else `appIds[0]`, else
 * `defaultAppId`; `resolveBaseUrl` is `resolvedBaseUrl`, else `baseUrls[0]`, else
 * `defaultBaseUrl`. An empty string counts as absent; the default is trimmed.
 */
export function toolTarget(data: ToolTargetData): ToolTarget {
  const { appId, appIds, resolvedBaseUrl, baseUrls } = data;
  return {
    ...data,
    resolveAppId: (options) => firstOf(appId || appIds[0], options?.defaultAppId),
    resolveBaseUrl: (options) => firstOf(resolvedBaseUrl || baseUrls?.[0], options?.defaultBaseUrl),
  };
}

/** The envelope's `target` block as `ctx.target`; undefined when absent or malformed (see the header). */
export function parseTarget(raw: unknown): ToolTarget | undefined {
  if (!isRecord(raw)) return undefined;
  const { id, appIds, displayName, appId, baseUrls, resolvedBaseUrl } = raw;
  // A non-string entry drops the whole block: filtering it out would hide the producer's bug and
  // could make another id the first candidate.
  if (typeof id !== "string" || !isStringList(appIds)) return undefined;
  return toolTarget({
    id,
    ...(typeof displayName === "string" ? { displayName } : {}),
    appIds: [...appIds],
    ...(typeof appId === "string" ? { appId } : {}),
    ...(isStringList(baseUrls) ? { baseUrls: [...baseUrls] } : {}),
    ...(typeof resolvedBaseUrl === "string" ? { resolvedBaseUrl } : {}),
  });
}
