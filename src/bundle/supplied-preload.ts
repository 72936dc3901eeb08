// Preloaded (`bun run --preload`) into a script server run from source: a supplied package the
// importer's folders do not install resolves to trailblaze-ts's own copy, from the folder
// TRAILBLAZE_SUPPLIED_PACKAGES names (supplied-packages.ts). Bun's NODE_PATH finds a bare package
// but not a subpath such as @modelcontextprotocol/sdk/server/mcp.js, hence a resolver plugin.
import { plugin } from "bun";
import { resolveSupplied, SUPPLIED_IMPORT } from "./supplied-packages.ts";

const folder = process.env.TRAILBLAZE_SUPPLIED_PACKAGES;
if (folder) {
  plugin({
    name: "trailblaze-supplied-packages",
    setup(build) {
      build.onResolve({ filter: SUPPLIED_IMPORT }, (args) => {
        const path = resolveSupplied(args.path, args.importer, folder);
        return path === undefined ? undefined : { path };
      });
    },
  });
}
