// What the bench ran on, taken from the run itself: cores, memory, runtime and package versions,
// load average before and after.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem, type } from "node:os";
import { resolve } from "node:path";
import { BUN } from "./harness.ts";

export interface Machine {
  cpuModel: string;
  /** `nproc`: the CPUs this process may use. */
  nproc: number;
  memoryGiB: number;
  os: string;
  /** `bun --version` of the bun that runs the script servers. */
  bun: string;
  /** `node --version` of the node on PATH. */
  node: string;
  packages: { sdk: string; quickjs: string; esbuild: string; zod: string };
  commit: string;
  loadStart: number[];
  loadEnd: number[];
}

const ROOT = resolve(import.meta.dir, "..");

function output(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", cwd: ROOT });
  return result.status === 0 ? result.stdout.trim() : "unknown";
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(resolve(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

export function describeMachine(): Machine {
  // Only changes to what is measured count (not results.json or BENCHMARKS.md, which the bench writes).
  const measured = ["src", "runtime-quickjs", "bench", "fixtures/bench", "package.json", ":!bench/results.json"];
  const dirty =
    output("git", ["status", "--porcelain", "--untracked-files=no", "--", ...measured]) === "" ? "" : " (with uncommitted changes)";
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown CPU",
    nproc: Number(output("nproc", [])),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    bun: output(BUN, ["--version"]),
    node: output("node", ["--version"]),
    packages: {
      sdk: packageVersion("@modelcontextprotocol/sdk"),
      quickjs: packageVersion("quickjs-emscripten"),
      esbuild: packageVersion("esbuild"),
      zod: packageVersion("zod"),
    },
    commit: `${output("git", ["rev-parse", "--short", "HEAD"])}${dirty}`,
    loadStart: loadavg(),
    loadEnd: [],
  };
}
