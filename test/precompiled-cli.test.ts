// The CLI runs precompiled (src/cli/precompiled-cli.ts): the first `bun src/cli/main.ts` for a set
// of sources runs them and leaves a bundle; later starts run the bundle, answer the same, and
// still compute paths from the sources (the generated per-file entry imports src/scripting); a
// bundle cached outside the package ($TRAILBLAZE_CLI_CACHE) still loads what it leaves to
// node_modules (ts-json-schema-generator, deriving a per-file tool's schemas from its types).

import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const PER_FILE = join(REPO, "fixtures/per-file");
/** The CLI's cache outside the package, for both tests: the second runs the bundle the first built. */
const cache = tempDir("cli-cache");

test("the first start leaves a bundle, the next ones run it with the same answers; TRAILBLAZE_PRECOMPILE=0 builds none", async () => {
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

test("a bundle cached outside the package derives a per-file tool's schemas from its types", async () => {
  const env = { TRAILBLAZE_CLI_CACHE: cache, TRAILBLAZE_PRECOMPILE: "1" };
  // Any command leaves the bundle for the next start (here the first test's is there already: it is run).
  expect((await cliProcess(["--version"], { cwd: REPO, env })).code).toBe(0);
  expect(readdirSync(cache)).toHaveLength(1);
  const ws = workspaceCopy(PER_FILE, "precompiled-cli-outside");
  // Nothing derived yet: the bundle compiles the tool's types.
  rmSync(join(ws, ".cache/trailblaze-tool-schemas"), { recursive: true, force: true });
  const run = await cliProcess(["tools", "--json", "--no-logging"], { cwd: ws, env });
  // Before: "Cannot find package 'ts-json-schema-generator' imported from <cache>/…/cli.js".
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const tools = JSON.parse(run.stdout) as { tools: { name: string; inputSchema?: Record<string, unknown> }[] };
  expect(tools.tools.find((tool) => tool.name === "shop_greet")?.inputSchema).toMatchObject({
    type: "object",
    properties: { name: { type: "string", description: "Who to greet." }, loud: { type: "boolean", description: "Shout the greeting." } },
    required: ["name"],
  });
  expect(existsSync(join(ws, ".cache/trailblaze-tool-schemas"))).toBe(true);
}, 120_000);
