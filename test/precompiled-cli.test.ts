// The CLI runs precompiled (src/cli/precompiled-cli.ts): the first `bun src/cli/main.ts` for a set
// of sources runs them and leaves a bundle; later starts run the bundle, answer the same, and
// still compute paths from the sources (the generated per-file entry imports src/scripting).

import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";

const PER_FILE = join(REPO, "fixtures/per-file");

test("the first start leaves a bundle, the next ones run it with the same answers; TRAILBLAZE_PRECOMPILE=0 builds none", async () => {
  const cache = tempDir("cli-cache");
  const logs = tempDir("cli-logs");
  const argv = ["tools", "--json", "--logs", logs];
  const off = await cliProcess(argv, { cwd: PER_FILE, env: { TRAILBLAZE_CLI_CACHE: cache, TRAILBLAZE_PRECOMPILE: "0" } });
  expect(off.code).toBe(0);
  expect(readdirSync(cache)).toEqual([]);

  const first = await cliProcess(argv, { cwd: PER_FILE, env: { TRAILBLAZE_CLI_CACHE: cache, TRAILBLAZE_PRECOMPILE: "1" } });
  const built = readdirSync(cache);
  expect(built).toHaveLength(1);
  expect(existsSync(join(cache, built[0]!, "cli.js"))).toBe(true);

  const second = await cliProcess(argv, { cwd: PER_FILE, env: { TRAILBLAZE_CLI_CACHE: cache, TRAILBLAZE_PRECOMPILE: "1" } });
  expect(readdirSync(cache)).toEqual(built);
  expect(second).toEqual(first);
  expect(second).toEqual(off);
  // Paths the CLI computes from import.meta still name the sources, not the bundle.
  const entry = readFileSync(join(PER_FILE, ".cache/trailblaze-tools/shop-inProcess.ts"), "utf8");
  expect(entry).toContain(`import { serveTools } from ${JSON.stringify(join(REPO, "src/scripting/serve-tools.ts"))};`);
  // Stack traces name the sources: the source map's paths lead back to them from where the bundle lies.
  const bundle = join(cache, built[0]!);
  const map = JSON.parse(readFileSync(join(bundle, "cli.js.map"), "utf8")) as { sources: string[] };
  expect(map.sources.map((source) => resolve(bundle, source))).toContain(join(REPO, "src/cli/cli.ts"));
}, 60_000);
