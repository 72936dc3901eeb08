// One-off: wall time of `trailblaze run` over 60 trails for the configs named on the command line (agent:workers).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir, loadavg } from "node:os";
import { join, resolve } from "node:path";
const FIX = resolve("fixtures/bench");
const CLI = resolve("src/cli/main.ts");
const root = mkdtempSync(join(tmpdir(), "suite-once-"));
const trails = join(root, "t"); mkdirSync(trails);
const n = Number(process.env.TRAILS ?? 60);
for (let i = 1; i <= n; i++) writeFileSync(join(trails, `t${i}.trail.yaml`), `config:\n  id: s${i}\n  target: three\ntrail:\n  - step: Call\n    recording:\n      tools:\n        - bencha_echo: { text: "t" }\n        - benchb_add: { a: ${i}, b: 1 }\n        - benchc_remember: { key: last, value: "v${i}" }\n  - verify: mem\n    recording:\n      tools:\n        - assertEquals: { actual: "{{last}}", expected: "v${i}" }\n`);
const env = { ...process.env, PATH: `${resolve("node_modules/.bin")}:${process.env.PATH}`, NO_COLOR: "1" };
for (const rep of [0, 1, 2].slice(0, Number(process.env.REPS ?? 1))) {
  for (const cfg of process.argv.slice(2)) {
    const [agent, workers] = cfg.split(":");
    const t = performance.now();
    const r = spawnSync("bun", ["--preload", resolve(".scratch/cpu-preload.ts"), CLI, "run", trails, "--agent", agent!, "--workers", workers!, "--config", join(FIX, "trailblaze-config"), "--logs", join(root, "logs"), "--reporter", "json"], { cwd: FIX, env, encoding: "utf8", maxBuffer: 1 << 26 });
    const ms = performance.now() - t;
    const passed = r.status === 0 ? JSON.parse(r.stdout).summary.passed : r.stderr.slice(-300);
    console.log(rep, cfg.padEnd(14), (ms / 1000).toFixed(2), "s", "passed", passed, "load", loadavg()[0]!.toFixed(1), r.stderr.split("\n").filter((l) => l.startsWith("CPU")).join(" "));
  }
}
rmSync(root, { recursive: true, force: true });
