import { readFileSync, readdirSync } from "node:fs";
const tick = 10; // ms per clock tick (CLK_TCK 100)
process.on("exit", () => {
  const threadMs = (tid: string) => { const f = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) * tick; };
  const main = threadMs(String(process.pid));
  const all = readdirSync("/proc/self/task").map((t) => [t, threadMs(t)] as const);
  const total = process.cpuUsage();
  process.stderr.write(`CPU main-thread ${main} ms; process ${(total.user + total.system) / 1000} ms; threads>100ms ${all.filter(([, ms]) => ms > 100).map(([t, ms]) => `${t === String(process.pid) ? "main" : t}:${ms}`).join(" ")}\n`);
});
