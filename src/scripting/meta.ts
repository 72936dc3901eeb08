// The `_meta["trailblaze/*"]` keys a tool may advertise (docs/writing-tools.md "`_meta` keys"), typed so a misspelt
// key or a wrongly typed value is a compile error. Types only, plus the key names.

/** A device platform: a group of drivers. */
export type Platform = "ANDROID" | "IOS" | "WEB";

/** Driver yaml keys (upstream `TrailblazeDriverType.yamlKey`). */
export type DriverKey =
  | "android-ondevice-accessibility"
  | "android-ondevice-instrumentation"
  | "android-test"
  | "revyl-android"
  | "ios-host"
  | "ios-axe"
  | "revyl-ios"
  | "playwright-native"
  | "playwright-electron"
  | "compose";

/**
 * A tool's Trailblaze metadata, written into the standard MCP `_meta` of `registerTool`:
 *
 * ```ts
 * _meta: { "trailblaze/requiresHost": true } satisfies TrailblazeToolMeta
 * ```
 *
 * Every key is optional; an absent key means "no restriction" / the default given below.
 * Non-Trailblaze MCP clients ignore these keys.
 */
export type TrailblazeToolMeta = {
  /** Shown to the LLM's tool selection. Default `true`; `false` keeps an internal primitive out of the prompt. */
  "trailblaze/isForLlm"?: boolean;
  /** Upstream's current name for `trailblaze/isForLlm`; the runtime reads either. */
  "trailblaze/surfaceToLlm"?: boolean;
  /** Calls appear in trail recordings. Default `true`; `false` for wrapper / delegating tools. */
  "trailblaze/isRecordable"?: boolean;
  /** Uses host-only APIs (`fetch`, `fs`, `child_process` …): registered only with the host agent. Default `false`. */
  "trailblaze/requiresHost"?: boolean;
  /** Registered only when the session's driver is listed. Absent or empty = every driver. */
  "trailblaze/supportedDrivers"?: readonly DriverKey[];
  /** Registered only when the session's platform is listed (any case; upstream writes `android`). Absent or empty = every platform. */
  "trailblaze/supportedPlatforms"?: readonly (Platform | Lowercase<Platform>)[];
  /** Pushes the tool into this toolset (created if no toolset YAML defines it). Absent = pulled in by a toolset's `tools:`. */
  "trailblaze/toolset"?: string;
  /** UX hint only: the tool needs the Trailblaze context to be useful. Never a registration filter. Default `false`. */
  "trailblaze/requiresContext"?: boolean;
  /**
   * Top-level arguments that carry a secret (upstream's `sensitiveArgNames`): the built-in agent may
   * fill a secret (`{{password}}`) into these and no other argument of the tool. Default: none.
   */
  "trailblaze/sensitiveArgs"?: readonly string[];
};

/** Every key of TrailblazeToolMeta, by short name; the runtime reads tools' `_meta` with this table (src/registry/tool-meta.ts). */
export const TRAILBLAZE_META_KEYS = {
  isForLlm: "trailblaze/isForLlm",
  /** Upstream's current name for `isForLlm`; either key is read. */
  surfaceToLlm: "trailblaze/surfaceToLlm",
  isRecordable: "trailblaze/isRecordable",
  requiresHost: "trailblaze/requiresHost",
  supportedDrivers: "trailblaze/supportedDrivers",
  supportedPlatforms: "trailblaze/supportedPlatforms",
  toolset: "trailblaze/toolset",
  requiresContext: "trailblaze/requiresContext",
  sensitiveArgs: "trailblaze/sensitiveArgs",
} as const satisfies Record<string, keyof TrailblazeToolMeta>;
