#!/bin/sh
# `trailblaze` as an installed command (package.json "bin"): runs the CLI (main.ts) with the Bun
# this package installed, so it starts from any PATH: npx, npm scripts, an MCP client's config
# with an absolute path, a global install. Bun is looked up as Node resolves the `bun` package
# (node_modules folders from the package upwards), else on PATH.

# Follow the symlinks npm makes (node_modules/.bin/trailblaze -> ../trailblaze-ts/src/cli/launcher.sh).
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname "$self")/$link ;;
  esac
done
cli=$(cd "$(dirname "$self")" && pwd -P) || exit 2

bun=
dir=$(dirname "$(dirname "$cli")")
while :; do
  case $dir in
    */node_modules) ;;
    *)
      for candidate in "$dir/node_modules/.bin/bun" "$dir/node_modules/bun/bin/bun.exe"; do
        if [ -x "$candidate" ]; then
          bun=$candidate
          break 2
        fi
      done
      ;;
  esac
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
# Before its postinstall runs (npm install --ignore-scripts, or npm 11, which runs a dependency's
# install scripts only once approved), the bun package's bin/bun.exe is a 450-byte shell script
# that prints Bun's own advice and exits 1 (bun/bin/README.txt): say what to run in this project.
case $(head -c 128 "${bun:-/dev/null}" 2>/dev/null | tr -d '\000') in
  *"postinstall script was not run"*)
    echo "error: trailblaze needs Bun, and the bun package it installed is not set up: its install script did not run" >&2
    echo "(npm install --ignore-scripts, or npm 11 skipping install scripts it was not told to allow), so $bun is still its placeholder." >&2
    echo "Approve and run the install scripts of bun and esbuild, in your project:" >&2
    echo "  npm install-scripts approve bun esbuild && npm rebuild bun esbuild" >&2
    echo "(npm 10 and earlier: npm rebuild bun esbuild), or install again without --ignore-scripts." >&2
    exit 2
    ;;
esac
[ -n "$bun" ] || bun=$(command -v bun) || {
  echo "error: trailblaze needs Bun, which installs with it: run \`npm install\` in your project (or put bun on PATH)" >&2
  exit 2
}
# How it was called, so the commands it prints run as typed (invocation.ts).
export TRAILBLAZE_LAUNCHED_AS="$0"
# Every QuickJS server has a WebAssembly memory of its own, and JavaScriptCore gives only the first
# 8 of a process the fast kind (guard pages, not bounds checks): past that it compiles QuickJS a
# second time and runs it slower (`run --workers 4` of three-server trails has 12 at once).
# Fast memories reserve address space, not memory.
export BUN_JSC_maxNumWasmFastMemories="${BUN_JSC_maxNumWasmFastMemories:-128}"
# --no-install: resolving a workspace's imports never downloads a package (Bun's auto-install).
exec "$bun" --no-install "$cli/main.ts" "$@"
