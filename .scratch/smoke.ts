import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { setQuickJsThreads, startQuickJsServerOnThread } from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
const bundle = await bundleEntry("/work/wt-perf/fixtures/bench/tools/echo-a.ts", { cwd: "/work/wt-perf/fixtures/bench" });
setQuickJsThreads(2);
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const server = await startQuickJsServerOnThread({ name: "a", code: bundle.code, onLog: (l, t) => console.log("log", l, t) });
  const client = new Client({ name: "x", version: "1" });
  await client.connect(server.transport);
  const tools = await client.listTools();
  const r = await client.callTool({ name: "bencha_echo", arguments: { text: "x" } });
  console.log(i, (performance.now() - t).toFixed(1), tools.tools.length, JSON.stringify(r).slice(0, 80));
  await client.close();
}
