// Every change trailblaze-ts makes to the MCP SDK when it bundles it, in one table: which SDK file
// each patch targets and what it does. The bundlers' plugins (on-device esbuild, precompiled host
// servers, the precompiled CLI) find SDK files through this table and record in a ledger each patch
// they apply; after a build, `ledger.verify(inputs)` fails loudly when a targeted SDK file went into
// the bundle as is, naming the SDK version: an SDK upgrade that moves or reshapes a file cannot
// silently stop a patch from applying.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BundleError } from "../errors.ts";

/** A file of the SDK's build, in its ESM and CommonJS forms (`esm`: the ESM form only, for patches that edit its text). */
const sdkFile = (path: string, forms: "esm" | "both" = "both") =>
  new RegExp(
    `[\\\\/]@modelcontextprotocol[\\\\/]sdk[\\\\/]dist[\\\\/]${forms === "esm" ? "esm" : "(?:esm|cjs)"}[\\\\/]${path.replaceAll(".", "\\.").replaceAll("/", "[\\\\/]")}$`,
  );

/** Any file of the SDK's build: the importer test of every patch (an author's own import is left alone). */
export const SDK_DIST = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](?:esm|cjs)[\\/]/;

interface SdkPatch {
  /** What the patch does, as an error names it. */
  what: string;
  /** The SDK file the patch replaces, wraps or rewrites. */
  target: RegExp;
  /** Which builds apply it. */
  builds: readonly SdkBuild[];
}

/** The three builds that bundle the SDK. */
type SdkBuild = "on-device" | "host" | "cli";

export const SDK_PATCHES = {
  /** On-device: the stdio server transport becomes the QuickJS in-process one (runtime-quickjs/guest). */
  guestStdio: {
    what: "the stdio server transport replaced by the in-process QuickJS transport",
    target: sdkFile("server/stdio.js"),
    builds: ["on-device"],
  },
  /** Host servers: the stdio server transport given Bun's own stdin and stdout, each failed answer marked on stderr (stubs/bun-stdio.ts). */
  bunStdio: { what: "the stdio server transport given Bun's stdin and stdout", target: sdkFile("server/stdio.js"), builds: ["host"] },
  /** On-device and host servers: ajv (used only for elicitation replies) replaced by a small validator (stubs/ajv-provider.ts). */
  ajvStandIn: {
    what: "the ajv JSON Schema provider replaced by a small validator",
    target: sdkFile("validation/ajv-provider.js"),
    builds: ["on-device", "host"],
  },
  /** The CLI: the ajv provider loads ajv on first use (servers/lazy-ajv-provider.ts). */
  lazyAjv: { what: "the ajv JSON Schema provider loaded on first use", target: sdkFile("validation/ajv-provider.js"), builds: ["cli"] },
  /** On-device and host servers: the protocol schemas a server never uses left out (pure-schemas-plugin.ts). */
  pureSchemas: {
    what: "the protocol schemas marked pure, so unused ones are left out",
    target: sdkFile("types.js"),
    builds: ["on-device", "host"],
  },
  /** On-device: incoming messages classified and a tools/call request parsed through exact fast paths before zod (call-path-plugin.ts). */
  protocolFastPaths: {
    what: "the JSON-RPC guards and the tools/call request parse given exact fast paths",
    target: sdkFile("shared/protocol.js", "esm"),
    builds: ["on-device"],
  },
  /** On-device: the tools/call request parsed once, not twice, and a text result checked through an exact fast path (call-path-plugin.ts). */
  toolsCallOnce: {
    what: "the tools/call request parsed once and its text result checked by a fast path",
    target: sdkFile("server/index.js", "esm"),
    builds: ["on-device"],
  },
  /** On-device: a plain tool's call without the awaits that only wait, its arguments and structured output parsed by an exact fast path (call-path-plugin.ts). */
  toolCallFastPath: {
    what: "a plain tool's call: its arguments and structured output parsed by an exact fast path, no awaits that only wait",
    target: sdkFile("server/mcp.js", "esm"),
    builds: ["on-device"],
  },
} as const satisfies Record<string, SdkPatch>;

export type SdkPatchId = keyof typeof SDK_PATCHES;

/** The SDK version that owns `file` (a path inside its package), from its package.json. */
export function sdkVersionOf(file: string): string {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    try {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (name === "@modelcontextprotocol/sdk") return version ?? "unknown";
    } catch {
      // A package.json of the SDK's dist folders ({"type": …}) or an unreadable one: keep looking up.
    }
  }
  return "unknown";
}

/** What one build's plugins applied; `verify` checks it against what went into the bundle. */
export class SdkPatchLedger {
  readonly #applied = new Set<SdkPatchId>();
  readonly #bypassed: { id: SdkPatchId; file: string; importer: string }[] = [];

  constructor(readonly build: SdkBuild) {}

  /** A plugin applied `id` (called each time; once is enough). */
  applied(id: SdkPatchId): void {
    this.#applied.add(id);
  }

  /**
   * `importer` imports the target of `id` itself, past the module that patches it: the patch
   * applied to other importers, not to this one (a plugin that resolved its import differently).
   */
  bypassed(id: SdkPatchId, file: string, importer: string): void {
    this.#bypassed.push({ id, file, importer });
  }

  /** The patches applied, in table order. */
  get patches(): SdkPatchId[] {
    return (Object.keys(SDK_PATCHES) as SdkPatchId[]).filter((id) => this.#applied.has(id));
  }

  /** The patches of this build whose target file went into the bundle (`inputs`: absolute paths) without the patch. */
  missed(inputs: readonly string[]): { id: SdkPatchId; file: string; importer?: string }[] {
    const missed: { id: SdkPatchId; file: string; importer?: string }[] = [...this.#bypassed];
    for (const [id, patch] of Object.entries(SDK_PATCHES) as [SdkPatchId, SdkPatch][]) {
      if (!patch.builds.includes(this.build) || this.#applied.has(id)) continue;
      const file = inputs.find((input) => patch.target.test(input));
      if (file) missed.push({ id, file });
    }
    return missed;
  }

  /** Throws BundleError when a patch of this build did not apply to an SDK file in the bundle. */
  verify(inputs: readonly string[], what: string): void {
    const missed = this.missed(inputs);
    if (missed.length === 0) return;
    const version = sdkVersionOf(missed[0]!.file);
    const lines = missed.map(
      ({ id, file, importer }) => `${SDK_PATCHES[id].what} (${id}) did not apply to ${file}${importer ? ` as ${importer} imports it` : ""}`,
    );
    throw new BundleError(
      `${what}: @modelcontextprotocol/sdk ${version} is not laid out as trailblaze-ts expects:\n  ${lines.join("\n  ")}\n` +
        `Use the SDK version trailblaze-ts ships with (remove the workspace's own @modelcontextprotocol/sdk, or pin the version in trailblaze-ts's package.json), and report the version that failed.`,
    );
  }
}
