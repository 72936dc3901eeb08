#!/bin/sh
# `trailblaze` as an installed command (package.json "bin"): runs the CLI (main.ts) with the Bun
# this package installed, so it starts from any PATH: npx, npm scripts, an MCP client's config
# with an absolute path, a global install. Bun is looked up as Node resolves the `bun` package
# (node_modules folders from the package upwards), else on PATH. Paths are worked out with the
# shell's own commands (no dirname), so a PATH without coreutils (a bare container, a client's
# minimal environment) still starts it, or ends with an error that says why (exit 2).

# $1's folder, as dirname prints it, in $up.
folder_of() {
  case $1 in
    */*)
      up=${1%/*}
      [ -n "$up" ] || up=/
      ;;
    *) up=. ;;
  esac
}

# The file the symlink $1 points to, in $target: with readlink where there is one, else the
# launcher of a package beside the folder npm links bins from (node_modules/.bin, or a global
# prefix's bin) that is the same file (test -ef follows the link).
follow() {
  folder_of "$1"
  if command -v readlink >/dev/null 2>&1; then
    target=$(readlink "$1") || return 1
    case $target in
      /*) ;;
      *) target=$up/$target ;;
    esac
    return 0
  fi
  for target in "$up"/../*/src/cli/launcher.sh "$up"/../@*/*/src/cli/launcher.sh \
    "$up"/../lib/node_modules/*/src/cli/launcher.sh "$up"/../lib/node_modules/@*/*/src/cli/launcher.sh; do
    if [ "$target" -ef "$1" ]; then return 0; fi
  done
  return 1
}

# Follow the symlinks npm makes (node_modules/.bin/trailblaze -> ../trailblaze-ts/src/cli/launcher.sh).
self=$0
hops=0
while [ -L "$self" ]; do
  hops=$((hops + 1))
  if [ "$hops" -gt 40 ] || ! follow "$self"; then
    echo "error: trailblaze cannot tell where $0 leads: it is a symlink, and readlink is not on PATH ($PATH) to follow it." >&2
    echo "Run the package's src/cli/launcher.sh itself, or put readlink (coreutils) on PATH." >&2
    exit 2
  fi
  self=$target
done
folder_of "$self"
cli=$(cd "$up" && pwd -P) || exit 2

bun=
folder_of "$cli"
folder_of "$up"
dir=$up
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
  folder_of "$dir"
  dir=$up
done
# Before its postinstall runs (npm install --ignore-scripts, or npm 11, which runs a dependency's
# install scripts only once approved), the bun package's bin/bun.exe is a 450-byte shell script
# that prints Bun's own advice and exits 1 (bun/bin/README.txt): say what to run in this project.
# Told by its first bytes; without head and tr on PATH, by what it prints when run.
if [ -n "$bun" ]; then
  if command -v head >/dev/null 2>&1 && command -v tr >/dev/null 2>&1; then
    first=$(head -c 128 "$bun" 2>/dev/null | tr -d '\000')
  else
    first=$("$bun" --version 2>&1)
  fi
  case $first in
    *"postinstall script was not run"*)
      echo "error: trailblaze needs Bun, and the bun package it installed is not set up: its install script did not run" >&2
      echo "(npm install --ignore-scripts, or npm 11 skipping install scripts it was not told to allow), so $bun is still its placeholder." >&2
      echo "Approve and run the install scripts of bun and esbuild, in your project:" >&2
      echo "  npm install-scripts approve bun esbuild && npm rebuild bun esbuild" >&2
      echo "(npm 10 and earlier: npm rebuild bun esbuild), or install again without --ignore-scripts." >&2
      exit 2
      ;;
  esac
fi
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
