// The package's own version, from its package.json: what `--version` prints and what our MCP
// client and server call themselves.

import manifest from "../../package.json" with { type: "json" };

export const PACKAGE_VERSION: string = manifest.version;
