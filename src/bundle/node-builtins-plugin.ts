// esbuild plugin: an import of a Node built-in (`fs`, `node:fs`, `child_process`...) fails the
// bundle with the importing file and the fix, since nothing of Node exists on-device.
import { builtinModules } from "node:module";
import type { Plugin } from "esbuild";

const SKIP = "trailblazeNodeBuiltinsSkip";

/** The plugin's name, as esbuild reports it on the errors the plugin raises. */
export const NODE_BUILTINS_PLUGIN = "trailblaze-node-builtins";
const builtins = new Set(builtinModules.filter((name) => !name.startsWith("_")));

export const HOST_ONLY_FIX = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';

function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith("node:")) return true;
  return builtins.has(specifier) || builtins.has(specifier.split("/")[0]!);
}

export function nodeBuiltinsPlugin(): Plugin {
  return {
    name: NODE_BUILTINS_PLUGIN,
    setup(build) {
      build.onResolve({ filter: /^[a-z_:/]+$/ }, async (args) => {
        if (args.pluginData?.[SKIP] || !isNodeBuiltin(args.path)) return undefined;
        // A bare name such as "events" or "buffer" may be an installed npm polyfill: use it if so.
        if (!args.path.startsWith("node:")) {
          const found = await build.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: { [SKIP]: true },
          });
          if (found.errors.length === 0 && !found.external)
            return { path: found.path, namespace: found.namespace, sideEffects: found.sideEffects };
        }
        return {
          errors: [{ text: `imports "${args.path}", a Node built-in that does not exist on-device; ${HOST_ONLY_FIX}` }],
        };
      });
    },
  };
}
