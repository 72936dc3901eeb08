// Stands in for `zod-to-json-schema` where the MCP SDK imports it: only zod v3 schemas need it,
// and on-device bundles carry only zod v4 (which converts itself with toJSONSchema).
export function zodToJsonSchema(): never {
  throw new Error(
    'zod v3 schemas are not supported in on-device bundles (zod-to-json-schema is left out to keep them small); use zod v4: import { z } from "zod"',
  );
}
