// Stands in for `zod/v3` where the MCP SDK imports it: on-device bundles carry only zod v4.
const message =
  'zod v3 schemas are not supported in on-device bundles (the zod v3 runtime is left out to keep them small); use zod v4: import { z } from "zod"';

export function object(): never {
  throw new Error(message);
}
