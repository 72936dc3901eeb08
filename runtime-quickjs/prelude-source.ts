// Compiles the guest prelude (guest/prelude.ts and what it imports) into one ES2020 script,
// once per process.
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const PRELUDE = fileURLToPath(new URL("./guest/prelude.ts", import.meta.url));
let source: Promise<string> | undefined;

export function preludeSource(): Promise<string> {
  source ??= esbuild
    .build({ entryPoints: [PRELUDE], bundle: true, write: false, format: "iife", platform: "neutral", target: "es2020", minify: true, logLevel: "silent" })
    .then((result) => result.outputFiles[0]!.text);
  return source;
}
