// The on-device runtime: author MCP server bundles running in QuickJS behind an SDK Transport.
export { startQuickJsServer, haltServersWith } from "./quickjs-server.ts";
export {
  DEFAULT_CALL_DEADLINE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MEMORY_LIMIT_BYTES,
  MAX_STACK_LIMIT_BYTES,
  type QuickJsServer,
  type QuickJsServerOptions,
} from "./server-options.ts";
export type { LogLevel } from "./sandbox-bridge.ts";
export { guestGlobals } from "./guest-globals.ts";
export {
  BUDGET_ENV,
  DEFAULT_IDLE_CPU_MS,
  DEFAULT_IDLE_DELIVERY_MS,
  DEFAULT_IDLE_WINDOW_MS,
  DEFAULT_SESSION_CPU_MS,
  guestBudgetFrom,
} from "./guest-budget.ts";
export {
  adoptCompiledWasm,
  compiledQuickJsWasm,
  DEFAULT_QUICKJS_ENGINE,
  QUICKJS_ENGINES,
  quickJsEngineFrom,
  type BuildKey,
  type QuickJsEngine,
} from "./quickjs-module.ts";
