// P8: size of the on-device bundle `trailblaze bundle` makes of the McpServer + zod fixture,
// against a plain `esbuild --bundle --minify --platform=neutral --main-fields=module,main` of the
// same file (with `--external:node:*`: plain esbuild cannot resolve the SDK's stdio transport's
// `node:process` for a neutral platform). Sizes are deterministic; each repetition rebuilds both
// from scratch (an empty cache folder for ours) after one warm-up build of each.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { bundleEntry } from "../../src/bundle/bundle-entry.ts";
import { ECHO_SCRIPT, FIXTURE_DIR, ratioResult, series, type ScenarioResult } from "../harness.ts";

async function plainEsbuild(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    external: ["node:*"],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

async function ours(entry: string): Promise<string> {
  const cacheDir = mkdtempSync(join(tmpdir(), "trailblaze-bench-bundle-"));
  try {
    const result = await bundleEntry(entry, { cwd: FIXTURE_DIR, cacheDir });
    if (result.cached) throw new Error("bench: expected a fresh build");
    return result.code;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

const bytes = (text: string) => Buffer.byteLength(text);
const gzipped = (text: string) => gzipSync(text, { level: 9 }).length;

export async function p8BundleSize(reps: number): Promise<ScenarioResult> {
  const mine: number[] = [];
  const plain: number[] = [];
  let last = { mine: "", plain: "" };
  // Warm-up: esbuild's service process and the bundler's export-name lookups.
  await ours(ECHO_SCRIPT);
  await plainEsbuild(ECHO_SCRIPT);
  for (let rep = 0; rep < reps; rep++) {
    last = { mine: await ours(ECHO_SCRIPT), plain: await plainEsbuild(ECHO_SCRIPT) };
    mine.push(bytes(last.mine));
    plain.push(bytes(last.plain));
  }
  // The same server written with `import * as z from "zod"`, which plain esbuild tree-shakes better.
  const variantDir = join(FIXTURE_DIR, ".cache/bench-p8");
  mkdirSync(variantDir, { recursive: true });
  const source = readFileSync(join(FIXTURE_DIR, "tools/echo-server.ts"), "utf8").replace(
    'import { z } from "zod";',
    'import * as z from "zod";',
  );
  writeFileSync(join(variantDir, "echo-server.ts"), source);
  writeFileSync(join(variantDir, "echo-a.ts"), 'import { serveEchoTools } from "./echo-server.ts";\n\nawait serveEchoTools("bencha");\n');
  const namespaceMine = bytes(await ours(join(variantDir, "echo-a.ts")));
  const namespacePlain = bytes(await plainEsbuild(join(variantDir, "echo-a.ts")));
  return ratioResult(
    { id: "P8", title: "`trailblaze bundle` size, McpServer + zod fixture", unit: "bytes", goal: "<= 0.3x", limit: 0.3 },
    series("trailblaze bundle (minified)", mine),
    series("plain esbuild --bundle --minify --platform=neutral", plain),
    {
      "gzip -9: trailblaze bundle (bytes)": gzipped(last.mine),
      "gzip -9: plain esbuild (bytes)": gzipped(last.plain),
      'with `import * as z from "zod"`: trailblaze bundle (bytes)': namespaceMine,
      'with `import * as z from "zod"`: plain esbuild (bytes)': namespacePlain,
      'with `import * as z from "zod"`: ratio': Number((namespaceMine / namespacePlain).toFixed(3)),
    },
  );
}
