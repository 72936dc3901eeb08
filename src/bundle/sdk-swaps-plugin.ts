// esbuild plugin: swaps MCP SDK modules that cannot or need not run on-device for small
// stand-ins: the stdio server transport (→ the QuickJS in-process transport), ajv (only used to
// check elicitation replies) and the zod v3 runtime + zod-to-json-schema (only for v3 schemas).
import { fileURLToPath } from "node:url";
import type { Plugin, PluginBuild, OnResolveArgs } from "esbuild";
import { SDK_DIST, SDK_PATCHES, type SdkPatchLedger } from "./sdk-patches.ts";

const SKIP = "trailblazeSdkSwapsSkip";

const stub = (name: string) => fileURLToPath(new URL(`./stubs/${name}`, import.meta.url));
const GUEST_TRANSPORT = fileURLToPath(new URL("../../runtime-quickjs/guest/stdio-server-transport.ts", import.meta.url));

export interface SdkSwapsOptions {
  /** Replace the SDK's zod v3 runtime and zod-to-json-schema with throwing stubs. */
  stubZod3: boolean;
  /** Set when a file outside the SDK imports zod v3 or zod-to-json-schema (then stubs are unsafe). */
  seen: { authorUsesZod3: boolean };
  /** Records the SDK patches applied (sdk-patches.ts), checked after the build. */
  ledger: SdkPatchLedger;
}

async function resolveReal(build: PluginBuild, args: OnResolveArgs): Promise<string | undefined> {
  const found = await build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    pluginData: { [SKIP]: true },
  });
  return found.errors.length === 0 && found.namespace === "file" ? found.path : undefined;
}

export function sdkSwapsPlugin(options: SdkSwapsOptions): Plugin {
  return {
    name: "trailblaze-sdk-swaps",
    setup(build) {
      build.onResolve({ filter: /stdio|ajv-provider/ }, async (args) => {
        if (args.pluginData?.[SKIP]) return undefined;
        const real = await resolveReal(build, args);
        if (!real || !SDK_DIST.test(real)) return undefined;
        if (SDK_PATCHES.guestStdio.target.test(real)) {
          options.ledger.applied("guestStdio");
          return { path: GUEST_TRANSPORT };
        }
        if (SDK_PATCHES.ajvStandIn.target.test(real) && SDK_DIST.test(args.importer)) {
          options.ledger.applied("ajvStandIn");
          return { path: stub("ajv-provider.ts") };
        }
        return undefined;
      });
      build.onResolve({ filter: /^(?:zod\/v3(?:\/.*)?|zod-to-json-schema)$/ }, (args) => {
        if (!SDK_DIST.test(args.importer)) {
          options.seen.authorUsesZod3 = true;
          return undefined;
        }
        if (!options.stubZod3) return undefined;
        return { path: stub(args.path === "zod-to-json-schema" ? "zod-to-json-schema.ts" : "zod-v3.ts") };
      });
    },
  };
}
