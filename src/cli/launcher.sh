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
