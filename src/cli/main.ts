#!/usr/bin/env bun
// `trailblaze` as a process: runs the CLI (cli.ts) precompiled into one cached bundle when one
// matches the sources, else from the sources, precompiling it for the next start. It imports
// nothing else, so a start pays only for the CLI it runs.

import { loadCli } from "./precompiled-cli.ts";

if (import.meta.main) {
  const cli = await loadCli();
  await cli.main(process.argv.slice(2));
  await cli.afterMain?.();
}
