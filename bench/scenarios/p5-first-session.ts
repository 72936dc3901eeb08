// Run as a subprocess by P5: the time to this process's first session (`on-device` or `host`, from
// argv), printed as JSON. The first on-device session also compiles the QuickJS wasm module, and
// nothing in the process is warm yet, as for a one-off `trailblaze call`.

import { sessionStartMs } from "../harness.ts";

const agent = process.argv[2] === "on-device" ? "on-device" : "host";
console.log(JSON.stringify({ agent, ms: await sessionStartMs("one", agent) }));
process.exit(0);
