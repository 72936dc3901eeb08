// @trailblaze/scripting: what a tool author imports. `trailblaze.tool` for per-file tools (with
// `ToolContext`, `ctx.tools` typed by `TrailblazeToolMap`, selectors, `z`); for whole MCP servers,
// types for `_meta["trailblaze/*"]` and the `_trailblazeContext` envelope, `contextOf` (upstream's
// `fromMeta`), result helpers, an optional typed registerTool and `executeTool`; upstream's
// ConditionalAction primitive (`captureViewHierarchy`, `runConditionalActions`). Unit-test helpers
// are in `@trailblaze/scripting/testing`. Pure: no Node or Bun API, so the same file runs as a
// subprocess and bundled into QuickJS.

import * as z from "zod";
export { z };
export type {
  DevicePlatform,
  EmptyInput,
  SupportedPlatform,
  ToolContext,
  ToolDevice,
  ToolTarget,
  TrailblazeCallContext,
  TrailblazeToolSpec,
  TrailblazeTypedToolSpec,
  TypedToolDefinition,
  TypedToolSpec,
} from "./trailblaze.ts";
export type { TrailblazeTarget } from "./tool-context.ts";
export { isTypedTool, run, tool, trailblaze } from "./trailblaze.ts";
export type {
  TrailblazeCallToolResult,
  TrailblazeClient,
  TrailblazeToolEntry,
  TrailblazeToolMap,
  TrailblazeToolMethods,
} from "./client.ts";
export type { TrailblazeMemory } from "./memory.ts";
export type { TrailblazeLogger, TrailblazeLogLevel } from "./logger.ts";
export type {
  Bounds,
  DriverNodeMatchAndroidAccessibility,
  DriverNodeMatchAndroidMaestro,
  DriverNodeMatchCompose,
  DriverNodeMatchIosAxe,
  DriverNodeMatchIosMaestro,
  DriverNodeMatchWeb,
  MatchDescriptor,
  TrailblazeNodeSelector,
} from "./selectors.ts";
export { selectors } from "./selectors.ts";

export type { DriverKey, Platform, TrailblazeToolMeta } from "./meta.ts";
export { TRAILBLAZE_META_KEYS } from "./meta.ts";
export type { TrailblazeContext, TrailblazeDevice, TrailblazeTargetInfo, WithTrailblazeContext } from "./context.ts";
export { CONTEXT_KEY, contextOf } from "./context.ts";
export { trailblazeContextSchema, trailblazeContextShape, withTrailblazeContext } from "./context-schema.ts";
export type { KnownErrorVariant, MemoryChanges, ResultOptions, SuccessOptions, TrailblazeResultMeta } from "./result.ts";
export { contextRequired, error, fatalError, missingRequiredArgs, success, variant, withMemory } from "./result.ts";
export type { ToolExtra, TrailblazeToolArgs, TrailblazeToolConfig, TrailblazeToolHandler as RegisteredToolHandler } from "./register.ts";
export { registerTrailblazeTool } from "./register.ts";
export type { TrailblazeTool } from "./tool.ts";
export type { ExecutedResult } from "./execute.ts";
export { fromMeta } from "./call-context.ts";
export type { ViewHierarchy } from "./view-hierarchy.ts";
export { captureViewHierarchy } from "./view-hierarchy.ts";
export type { ConditionalAction } from "./conditional-action.ts";
export { ConditionalActionFailedError, runConditionalActions } from "./conditional-action.ts";
export { EXECUTE_METHOD, executeTool } from "./execute.ts";
