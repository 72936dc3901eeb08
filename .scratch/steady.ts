import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { setQuickJsThreads, startQuickJsServerOnThread, startQuickJsServer } from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
const bundle = await bundleEntry("/work/wt-perf/fixtures/bench/tools/echo-a.ts", { cwd: "/work/wt-perf/fixtures/bench" });
setQuickJsThreads(2);
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!.toFixed(1);
for (const mode of (process.argv[2] ?? "thread,inline").split(",")) {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    const server = await (mode === "thread" ? startQuickJsServerOnThread : startQuickJsServer)({ name: "a", code: bundle.code });
    const client = new Client({ name: "x", version: "1" });
    await client.connect(server.transport);
    await client.listTools();
    await client.callTool({ name: "bencha_echo", arguments: { text: "x" } });
    await client.close();
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(mode, "first", times.slice(0, 5).map((x) => x.toFixed(0)).join(","), "median last 40", med(times.slice(20)), "process CPU per session", ((cpu.user + cpu.system) / 1000 / 60).toFixed(1), "ms");
}
