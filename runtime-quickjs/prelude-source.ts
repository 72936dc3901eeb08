// Compiles the guest prelude (guest/prelude.ts and what it imports) into one ES2020 script, once
// per process, and keeps it in `.cache/trailblaze-prelude/` of the package for later processes:
// esbuild then loads only when the guest sources (or the installed packages) change, not on every
// process's first on-device session (BENCHMARKS.md, W2).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileStamp, PACKAGE_ROOT, writeAtomically } from "../src/core/cache-files.ts";

const PRELUDE = fileURLToPath(new URL("./guest/prelude.ts", import.meta.url));
/** Bump when the build settings below change. */
const PRELUDE_BUILD_VERSION = 1;
let source: Promise<string> | undefined;

export function preludeSource(): Promise<string> {
  source ??= cachedPrelude();
  return source;
}

async function cachedPrelude(): Promise<string> {
  const cached = join(
    PACKAGE_ROOT,
    ".cache",
    "trailblaze-prelude",
    `${fileStamp(String(PRELUDE_BUILD_VERSION), [join(PACKAGE_ROOT, "runtime-quickjs/guest")])}.js`,
  );
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [PRELUDE],
    bundle: true,
    write: false,
    format: "iife",
    platform: "neutral",
    target: "es2020",
    minify: true,
    logLevel: "silent",
  });
  const text = result.outputFiles[0]!.text;
  try {
    writeAtomically(cached, text);
  } catch {
    // A read-only package still runs; each process compiles the prelude again.
  }
  return text;
}
