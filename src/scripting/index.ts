// @trailblaze/scripting: what a tool author imports. Types for `_meta["trailblaze/*"]` and the
// `_trailblazeContext` envelope, `contextOf`, result helpers, and an optional typed registerTool.
// Pure: no Node or Bun API, so the same file runs as a subprocess and bundled into QuickJS.

export type { DriverKey, Platform, TrailblazeToolMeta } from "./meta.ts";
export { TRAILBLAZE_META_KEYS } from "./meta.ts";
export type { TrailblazeContext, TrailblazeDevice, WithTrailblazeContext } from "./context.ts";
export { CONTEXT_KEY, contextOf } from "./context.ts";
export { trailblazeContextSchema, trailblazeContextShape, withTrailblazeContext } from "./context-schema.ts";
export type { KnownErrorVariant, MemoryChanges, ResultOptions, SuccessOptions, TrailblazeResultMeta } from "./result.ts";
export { contextRequired, error, fatalError, missingRequiredArgs, success, variant, withMemory } from "./result.ts";
export type { ToolExtra, TrailblazeToolArgs, TrailblazeToolConfig, TrailblazeToolHandler } from "./register.ts";
export { registerTrailblazeTool } from "./register.ts";
export type { TrailblazeTool } from "./tool.ts";
export type { ExecutedResult } from "./execute.ts";
export { EXECUTE_METHOD, executeTool } from "./execute.ts";
