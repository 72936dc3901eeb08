// Turns the stderr of a server that died while loading into a one-line fix when its packages are not installed.

import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * Module-not-found lines as printed by bun (`Cannot find package 'x' from '/a.ts'`,
 * `Cannot find module 'x/sub' from '/a.ts'`) and by node + tsx (`Cannot find package 'x' imported
 * from /a.ts` in ESM, `Cannot find module 'x'` in CommonJS).
 */
const NOT_FOUND = /Cannot find (?:package|module) '([^']+)'/;

/**
 * If `stderrTail` shows the server failed because a package is not installed, a one-line hint:
 * `Package "x" is not installed: run \`bun install\` in <dir>`, where dir holds the nearest
 * package.json above `scriptPath` (else the script's own folder). Missing relative or absolute
 * files are not install problems and give undefined, as does any other failure.
 */
export function explainStartupFailure(stderrTail: readonly string[], scriptPath: string): string | undefined {
  for (const line of stderrTail) {
    const specifier = NOT_FOUND.exec(line)?.[1];
    if (specifier === undefined) continue;
    const pkg = packageName(specifier);
    if (pkg === undefined) continue;
    return `Package "${pkg}" is not installed: run \`bun install\` in ${installDir(scriptPath)}`;
  }
  return undefined;
}

/** `x` for `x/sub`, `@s/x` for `@s/x/sub`; undefined for paths, URLs and builtins. */
function packageName(specifier: string): string | undefined {
  if (specifier.startsWith(".") || isAbsolute(specifier) || /^[a-z]+:/i.test(specifier)) return undefined;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

function installDir(scriptPath: string): string {
  const start = dirname(resolve(scriptPath));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
