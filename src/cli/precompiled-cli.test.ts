import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { init, parse } from "es-module-lexer";
import { removeStaleBundles, withSourceImportMeta } from "./precompiled-cli.ts";

await init;

test("real import.meta paths become the source's; text that only spells import.meta is left alone", () => {
  const source = [
    "const here = import.meta.dir;",
    "const url = new URL('./x.ts', import.meta.url);",
    "if (import.meta.main) run();",
    "const scaffold = `const script = \\`\\${import.meta.dir}/server.ts\\`;`;",
    "const quoted = 'import.meta.path';",
    "// import.meta.filename in a comment",
    "const { dirname } = { dirname: import.meta.dirname };",
  ].join("\n");
  expect(withSourceImportMeta(source, "/pkg/src/cli/x.ts", parse).split("\n")).toEqual([
    'const here = "/pkg/src/cli";',
    "const url = new URL('./x.ts', \"file:///pkg/src/cli/x.ts\");",
    "if (import.meta.main) run();",
    "const scaffold = `const script = \\`\\${import.meta.dir}/server.ts\\`;`;",
    "const quoted = 'import.meta.path';",
    "// import.meta.filename in a comment",
    'const { dirname } = { dirname: "/pkg/src/cli" };',
  ]);
});

describe("removeStaleBundles", () => {
  test("removes old bundles of earlier sources, but never one a live process uses (a killed one's lease does not count)", () => {
    const cache = mkdtempSync(join(tmpdir(), "cli-cache-"));
    try {
      const hourAgo = new Date(Date.now() - 60 * 60_000);
      for (const name of ["current", "fresh", "old-unused", "old-used", "old-killed"]) mkdirSync(join(cache, name));
      mkdirSync(join(cache, "old-used", ".users"));
      writeFileSync(join(cache, "old-used", ".users", String(process.pid)), "");
      mkdirSync(join(cache, "old-killed", ".users"));
      writeFileSync(join(cache, "old-killed", ".users", "2147483646"), "");
      for (const name of ["old-unused", "old-used", "old-killed"]) utimesSync(join(cache, name), hourAgo, hourAgo);
      removeStaleBundles(cache, join(cache, "current"));
      expect(readdirSync(cache).sort()).toEqual(["current", "fresh", "old-used"]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
